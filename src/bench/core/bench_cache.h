// The per-machine bench cache (docs/tasks.md, "The bench cache"): what `ompscope bench` measured
// of the task construct and of a dynamic loop's dispatch, per runtime library, so that `scale`,
// `profile` and `report` can set the runtime's costs beside the figures a run measures under
// capture. One JSON file, $XDG_CACHE_HOME/ompscope/bench.json (~/.cache/ompscope/bench.json),
// written atomically (a temporary file in the same directory, renamed over it); an entry holds
// only for the runtime library and the CPU it was measured on (CacheKey). Pure apart from the
// file it reads or writes: the key's parts are found by the caller (cli/openmp_runtime.h).
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bench/core/bench_result.h"

namespace ompscope::bench {

// What an entry is valid for: the runtime library (its resolved path), that file's identity
// ("build-id HEX", or "size N mtime S" for a library without a build id), the CPU model and the
// machine ("machine-id HEX" from /etc/machine-id, else "host NAME"): a home directory shared by
// several machines of one CPU model holds an entry per machine. An entry without a machine (an
// older cache) is another machine's.
struct CacheKey {
  std::string library;
  std::string build;
  std::string cpu_model;
  std::string machine;
  bool operator==(const CacheKey&) const = default;
};

// The widest spread of an entry's own samples that is cached: the middle half of a series (the
// samples the outlier filter keeps) spanning more than its median means the machine was busy
// while it was measured, and such a calibration would rank hints by another process's load.
inline constexpr double kMaxCachedSpread = 1.0;

struct CachedCosts {
  CacheKey key;
  int threads = 0;                  // the team the figures were measured with
  double task_s = 0;                // EPCC overhead of `task`: create an empty task, run it, taskwait
  double dispatch_per_chunk_s = 0;  // (for_dynamic − for_static) ÷ the 4 chunks per thread of an instance; 0: not positive
  // EPCC task_tree: a recursive tree's thread time per task at `threads` beyond the same tree's in a
  // team of one (tasks deferred, stolen and waited for, against run at once); 0: not measured
  // (an older calibration).
  double task_tree_s = 0;
  std::string measured_at;          // ISO 8601, UTC
  // The widest of its three series' spreads: (max − min) ÷ median of the samples the outlier
  // filter keeps; above kMaxCachedSpread it is not cached.
  double spread = 0;
};

// $XDG_CACHE_HOME/ompscope/bench.json where XDG_CACHE_HOME is set and absolute, else
// $HOME/.cache/ompscope/bench.json; empty where neither is set.
std::filesystem::path bench_cache_file(const char* xdg_cache_home, const char* home);

// From a bench run's results: per runtime library, the EPCC overheads of task, for_static and
// for_dynamic at the smallest team of at least 2 threads that measured all three without
// oversubscription (each the median after the outlier filter, as the results table shows it).
// The keys carry the library only; the caller fills in its build and the CPU model.
std::vector<CachedCosts> costs_of_bench(const BenchDocument& doc);

// The cache file's entry for `key`. `note` gets one line where an entry exists but is not used:
// the file is unreadable or not a cache, or the entry for that library was measured on another
// build of it or another CPU. A missing file, or no entry for the library, is no note.
std::optional<CachedCosts> read_cached_costs(const std::filesystem::path& file, const CacheKey& key,
                                             std::string& note);

// Writes `entries` into the cache, replacing those of the same libraries and keeping the others
// (a corrupt file is replaced whole). Creates the directory. Throws std::runtime_error naming the
// file where it cannot be written; the file is then left as it was.
void write_cached_costs(const std::filesystem::path& file, const std::vector<CachedCosts>& entries);

}  // namespace ompscope::bench
