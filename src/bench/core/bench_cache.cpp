#include "bench/core/bench_cache.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "bench/core/statistics.h"
#include "common/error.h"
#include "common/json_depth.h"
#include "common/safe_file.h"

namespace ompscope::bench {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kCacheTool = "ompscope-bench-cache";
constexpr int kCacheFormat = 1;
// Chunks of 16 that each thread takes in one `for` instance of the bench (64 iterations per thread).
constexpr double kChunksPerThread = 4;

json entry_json(const CachedCosts& c) {
  return {{"library", c.key.library},   {"build", c.key.build},   {"cpu_model", c.key.cpu_model},
          {"machine", c.key.machine},   {"threads", c.threads},   {"task_s", c.task_s},
          {"dispatch_per_chunk_s", c.dispatch_per_chunk_s},       {"task_tree_s", c.task_tree_s},
          {"measured_at", c.measured_at},                         {"spread", c.spread}};
}

// Throws std::invalid_argument naming what is wrong.
CachedCosts entry_from_json(const json& j) {
  if (!j.is_object()) throw std::invalid_argument("an entry is not an object");
  const auto text = [&](const char* name) {
    const auto it = j.find(name);
    if (it == j.end() || !it->is_string()) throw std::invalid_argument(std::string("an entry lacks \"") + name + "\"");
    return it->get<std::string>();
  };
  const auto seconds = [&](const char* name) {
    const auto it = j.find(name);
    if (it == j.end() || !it->is_number()) throw std::invalid_argument(std::string("an entry lacks \"") + name + "\"");
    const double v = it->get<double>();
    if (!std::isfinite(v) || v < 0 || v > 1) throw std::invalid_argument(std::string("\"") + name + "\" is out of range");
    return v;
  };
  CachedCosts c;
  c.key = {text("library"), text("build"), text("cpu_model"), ""};
  if (const auto machine = j.find("machine"); machine != j.end() && machine->is_string())
    c.key.machine = machine->get<std::string>();  // an older entry has none: another machine's
  const auto threads = j.find("threads");
  if (threads == j.end() || !threads->is_number_integer() || threads->get<int64_t>() < 1 ||
      threads->get<int64_t>() > 1 << 20)
    throw std::invalid_argument("an entry lacks a thread count");
  c.threads = threads->get<int>();
  c.task_s = seconds("task_s");
  c.dispatch_per_chunk_s = seconds("dispatch_per_chunk_s");
  if (j.contains("task_tree_s")) c.task_tree_s = seconds("task_tree_s");  // an older entry has none
  c.measured_at = text("measured_at");
  if (const auto spread = j.find("spread"); spread != j.end() && spread->is_number() && std::isfinite(spread->get<double>()))
    c.spread = spread->get<double>();
  return c;
}

// The entries of a cache file; throws std::invalid_argument where it is not one.
std::vector<CachedCosts> read_entries(const fs::path& file) {
  // A regular file, of JSON nested no deeper than kMaxJsonDepth (docs/safety.md, "Readers").
  json j;
  try {
    j = parse_json_with_depth_limit(read_regular_file(file), file.string());
  } catch (const json::exception& e) {
    throw std::invalid_argument(std::string("invalid JSON: ") + e.what());
  } catch (const Error& e) {
    throw std::invalid_argument(e.what());
  }
  if (!j.is_object() || !j.contains("tool") || j.at("tool") != kCacheTool)
    throw std::invalid_argument("not an ompscope bench cache");
  if (!j.contains("format") || j.at("format") != kCacheFormat)
    throw std::invalid_argument("a cache format this ompscope does not read");
  const auto entries = j.find("entries");
  if (entries == j.end() || !entries->is_array()) throw std::invalid_argument("no \"entries\" array");
  std::vector<CachedCosts> out;
  for (const json& e : *entries) out.push_back(entry_from_json(e));
  return out;
}

double median_overhead(const SeriesResult& r) {
  return summarize(drop_best_and_worst_quarter(r.samples_s)).median;
}

// (max − min) ÷ median of the samples the outlier filter keeps; 0 where the median is not positive.
double relative_spread(const SeriesResult& r) {
  const Summary s = summarize(drop_best_and_worst_quarter(r.samples_s));
  return s.median > 0 ? (s.max - s.min) / s.median : 0.0;
}

}  // namespace

fs::path bench_cache_file(const char* xdg_cache_home, const char* home) {
  // The XDG base directory specification: a relative XDG_CACHE_HOME is invalid and ignored.
  if (xdg_cache_home != nullptr && xdg_cache_home[0] == '/') return fs::path(xdg_cache_home) / "ompscope" / "bench.json";
  if (home != nullptr && home[0] != '\0') return fs::path(home) / ".cache" / "ompscope" / "bench.json";
  return {};
}

std::vector<CachedCosts> costs_of_bench(const BenchDocument& doc) {
  // (library, threads) -> construct -> the series
  std::map<std::pair<std::string, int>, std::map<std::string, const SeriesResult*>> found;
  for (const SeriesResult& r : doc.results) {
    if (r.method != "epcc" || r.metric != "overhead" || r.oversubscribed || r.threads < 2 || r.samples_s.empty())
      continue;
    const auto library = r.details.find("runtime_library");
    if (library == r.details.end() || !library->is_string() || library->get<std::string>().empty()) continue;
    found[{library->get<std::string>(), r.threads}][r.construct] = &r;
  }
  std::vector<CachedCosts> out;
  for (const auto& [where, series] : found) {
    if (!out.empty() && out.back().key.library == where.first) continue;  // a smaller team of it is in already
    const auto task = series.find("task"), stat = series.find("for_static"), dyn = series.find("for_dynamic");
    if (task == series.end() || stat == series.end() || dyn == series.end()) continue;
    CachedCosts c;
    c.key.library = where.first;
    c.threads = where.second;
    c.task_s = std::max(0.0, median_overhead(*task->second));
    c.dispatch_per_chunk_s =
        std::max(0.0, (median_overhead(*dyn->second) - median_overhead(*stat->second)) / kChunksPerThread);
    c.measured_at = task->second->measured_at;
    c.spread = std::max({relative_spread(*task->second), relative_spread(*stat->second), relative_spread(*dyn->second)});
    if (const auto tree = series.find("task_tree"); tree != series.end()) {
      c.task_tree_s = std::max(0.0, median_overhead(*tree->second));
      c.spread = std::max(c.spread, relative_spread(*tree->second));
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::optional<CachedCosts> read_cached_costs(const fs::path& file, const CacheKey& key, std::string& note) {
  note.clear();
  std::error_code ec;
  if (file.empty() || !fs::exists(file, ec)) return std::nullopt;
  std::vector<CachedCosts> entries;
  try {
    entries = read_entries(file);
  } catch (const std::invalid_argument& e) {
    note = "ignoring the bench cache " + file.string() + ": " + e.what() + " (rerun `ompscope bench --calibrate`)";
    return std::nullopt;
  }
  for (const CachedCosts& c : entries) {
    if (c.key.library != key.library) continue;
    if (c.key == key) {
      note.clear();
      return c;
    }
    // Another machine's entry of the same library (a home directory several machines share) is
    // said only where this machine has none; this machine's stale entry is said first.
    if (c.key.machine == key.machine)
      note = "ignoring the bench cache's entry for " + key.library + ": it was measured on " +
             (c.key.build != key.build ? "another build of it (" + c.key.build + ", now " + key.build + ")"
                                       : "another CPU (" + c.key.cpu_model + ")") +
             " (rerun `ompscope bench --calibrate`)";
    else if (note.empty())
      note = "ignoring the bench cache's entry for " + key.library + ": it was measured on another machine (" +
             (c.key.machine.empty() ? std::string("not named: an older cache") : c.key.machine) +
             ") (rerun `ompscope bench --calibrate`)";
  }
  return std::nullopt;
}

void write_cached_costs(const fs::path& file, const std::vector<CachedCosts>& entries) {
  std::vector<CachedCosts> kept;
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec) throw std::runtime_error("cannot create " + file.parent_path().string() + ": " + ec.message());
  // Two calibrations at once (two libraries, or two machines sharing a home directory) each read,
  // merge and replace the file: one at a time (a lock on its directory), so that neither drops
  // the other's entry.
  const fs::path lock_path = file.parent_path();
  const int lock = open(lock_path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lock < 0) throw std::runtime_error("cannot open " + lock_path.string());
  struct Unlock {
    int fd;
    ~Unlock() { close(fd); }
  } unlock{lock};
  if (flock(lock, LOCK_EX) != 0) throw std::runtime_error("cannot lock " + lock_path.string());
  if (fs::exists(file, ec)) {
    try {
      kept = read_entries(file);
    } catch (const std::invalid_argument&) {
      kept.clear();  // replaced whole
    }
  }
  std::erase_if(kept, [&](const CachedCosts& old) {
    for (const CachedCosts& e : entries)
      if (e.key.library == old.key.library && e.key.machine == old.key.machine) return true;
    return false;
  });
  kept.insert(kept.end(), entries.begin(), entries.end());
  json list = json::array();
  for (const CachedCosts& c : kept) list.push_back(entry_json(c));
  const std::string text = json{{"tool", kCacheTool}, {"format", kCacheFormat}, {"entries", list}}.dump(2) + "\n";

  // A new temporary beside the cache (O_EXCL|O_NOFOLLOW), synced and renamed onto it.
  write_file_replacing(file, text, /*sync=*/true);
}

}  // namespace ompscope::bench
