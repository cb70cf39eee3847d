#include "cli/bench_costs.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string_view>

#include "analysis/elf_file.h"

namespace ompscope::cli {
namespace fs = std::filesystem;

std::string library_identity(const fs::path& library) {
  if (const std::string id = analysis::elf_build_id(library); !id.empty()) return "build-id " + id;
  std::error_code ec;
  const auto size = fs::file_size(library, ec);
  if (ec) return "";
  const auto mtime = fs::last_write_time(library, ec);
  if (ec) return "";
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(mtime.time_since_epoch()).count();
  return "size " + std::to_string(size) + " mtime " + std::to_string(seconds);
}

std::string cpu_model(const fs::path& cpuinfo) {
  std::ifstream in(cpuinfo);
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("model name")) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto first = line.find_first_not_of(" \t", colon + 1);
    if (first != std::string::npos) return line.substr(first);
  }
  return "unknown CPU";
}

std::string machine_identity(const fs::path& machine_id_file) {
  std::ifstream in(machine_id_file);
  std::string id;
  if (in >> id && !id.empty()) return "machine-id " + id;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0 && host[0] != '\0') return std::string("host ") + host;
  return "unknown machine";
}

bench::CacheKey bench_cache_key(const std::string& library) {
  std::error_code ec;
  fs::path resolved = fs::canonical(library, ec);
  if (ec) resolved = library;
  return {resolved.string(), library_identity(resolved), cpu_model(), machine_identity()};
}

fs::path bench_cache_path() { return bench::bench_cache_file(std::getenv("XDG_CACHE_HOME"), std::getenv("HOME")); }

std::optional<report::BenchCosts> cached_bench_costs(const std::string& runtime_library, bool say_why_not) {
  if (runtime_library.empty()) return std::nullopt;
  const bench::CacheKey key = bench_cache_key(runtime_library);
  std::string note;
  const std::optional<bench::CachedCosts> cached = bench::read_cached_costs(bench_cache_path(), key, note);
  if (say_why_not && !note.empty()) std::fprintf(stderr, "ompscope: %s\n", note.c_str());
  if (!cached) return std::nullopt;
  return report::BenchCosts{cached->key.library, cached->threads,    cached->task_s,
                            cached->dispatch_per_chunk_s, cached->task_tree_s, cached->measured_at,
                            bench_cache_path().string(), cached->key.machine};
}

}  // namespace ompscope::cli
