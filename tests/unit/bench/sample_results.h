// Hand-made results for the writer tests: two constructs, two thread counts, two runtimes.
#pragma once
#include <vector>

#include "bench/core/bench_result.h"

namespace ompscope::bench::testing {

inline SeriesResult sample_series(const char* construct, const char* runtime, const char* method,
                                  const char* metric, int threads, std::vector<double> samples) {
  SeriesResult r;
  r.construct = construct;
  r.runtime = runtime;
  r.method = method;
  r.metric = metric;
  r.threads = threads;
  r.oversubscribed = threads > 2;
  r.samples_s = std::move(samples);
  r.measured_at = "2024-01-01T00:00:00Z";
  return r;
}

}  // namespace ompscope::bench::testing
