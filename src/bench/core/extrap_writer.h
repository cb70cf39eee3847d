// Writes bench results in Extra-P's text format, so Extra-P (or `ompscope model`) can fit
// scaling models over the thread count t. One METRIC per runtime/method/metric
// ("llvm_epcc_overhead"), one REGION per construct, one DATA line per thread count holding the
// filtered samples as repetitions, in seconds.
#pragma once
#include <ostream>
#include <span>

#include "bench/core/bench_result.h"

namespace ompscope::bench {

// A (metric, region) that lacks a thread count others have is left out (Extra-P needs a DATA
// line for every point) and named in a comment line. Numbers are written without exponents:
// the format's grammar has none.
void write_extrap(std::ostream& out, std::span<const SeriesResult> results);

}  // namespace ompscope::bench
