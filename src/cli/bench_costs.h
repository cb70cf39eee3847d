// The bench cache as `ompscope bench --calibrate` writes it and scale, profile and report read it
// (docs/tasks.md, "The bench cache"): the key of a runtime library on this machine, and the costs
// cached for the library a run loaded.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include "bench/core/bench_cache.h"
#include "report/report.h"

namespace ompscope::cli {

// "build-id HEX" from the file's NT_GNU_BUILD_ID note; "size N mtime S" where it has none (or is
// no ELF file); "" where the file cannot be read.
std::string library_identity(const std::filesystem::path& library);

// The "model name" line of a /proc/cpuinfo-style file; "unknown CPU" without one.
std::string cpu_model(const std::filesystem::path& cpuinfo = "/proc/cpuinfo");

// This machine: "machine-id HEX" from the file (/etc/machine-id), else "host NAME", else
// "unknown machine".
std::string machine_identity(const std::filesystem::path& machine_id_file = "/etc/machine-id");

// The key of `library` (resolved through symbolic links) on this machine.
bench::CacheKey bench_cache_key(const std::string& library);

// The cache file this process uses ($XDG_CACHE_HOME, $HOME).
std::filesystem::path bench_cache_path();

// The costs cached for `runtime_library` on this machine; none for an empty library. A cache or
// entry that is there but cannot be used is said in one line on stderr ("ompscope: ignoring ...")
// where `say_why_not` (once per report: each run's analysis reads it too, silently).
std::optional<report::BenchCosts> cached_bench_costs(const std::string& runtime_library, bool say_why_not = true);

}  // namespace ompscope::cli
