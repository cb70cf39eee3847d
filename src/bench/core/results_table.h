// The terminal table of `ompscope bench`: one row per construct and thread count, for each
// runtime the medians of the EPCC overhead and of the direct method's two costs, in µs.
#pragma once
#include <span>
#include <string>

#include "bench/core/bench_result.h"

namespace ompscope::bench {

std::string render_results_table(std::span<const SeriesResult> results, int cores);

}  // namespace ompscope::bench
