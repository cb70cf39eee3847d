// What a bench run produced: one measured series per (construct, runtime, method, metric,
// thread count), in seconds. The bench programs fill it, the CLI merges and renders it.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ompscope::bench {

// method "epcc": metric "overhead". method "direct": metrics "min_cost" and "avg_cost".
struct SeriesResult {
  std::string construct;
  std::string runtime;  // "llvm" (LLVM libomp) or "gnu" (GNU libgomp)
  std::string method;
  std::string metric;
  int threads = 0;
  bool oversubscribed = false;  // more threads than CPUs this process may run on
  std::vector<double> samples_s;  // every sample, in measurement order, before the filter
  std::string measured_at;        // ISO 8601, UTC
  nlohmann::json details = nlohmann::json::object();  // method-specific facts, passed through
};

struct BenchDocument {
  std::string runtime;  // "llvm", "gnu" or "both"
  int cores = 0;
  std::string proc_bind;  // OMP_PROC_BIND the runs used
  std::string places;     // OMP_PLACES the runs used
  std::string clock;      // how timestamps were taken
  std::vector<SeriesResult> results;
};

}  // namespace ompscope::bench
