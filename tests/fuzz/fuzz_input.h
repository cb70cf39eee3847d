// What every fuzz target shares: the rule that bad input ends in an exception the CLI turns into
// one line on stderr and exit status 2 (src/cli/main.cpp), never a crash, a sanitizer report or
// a hang; and a scratch file for the readers that take a path.
#pragma once
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>

namespace ompscope::fuzz {

inline std::string_view text_of(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A directory of this process's own under TMPDIR (or /tmp), made once; removed by nobody, since
// libFuzzer ends the process with _exit. Its files are rewritten on every input.
inline std::string scratch_directory() {
  static const std::string dir = [] {
    const char* base = getenv("TMPDIR");
    std::string d = std::string(base && *base ? base : "/tmp") + "/ompscope-fuzz-" + std::to_string(getpid());
    mkdir(d.c_str(), 0700);
    return d;
  }();
  return dir;
}

inline void write_file(const std::string& path, std::string_view content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
}

}  // namespace ompscope::fuzz
