#include "bench/core/extrap_writer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "sample_results.h"

namespace ompscope::bench {
namespace {

TEST(ExtrapWriter, OneMetricPerRuntimeAndMethodOneDataLinePerThreadCount) {
  const std::vector<SeriesResult> results{
      testing::sample_series("barrier", "llvm", "epcc", "overhead", 2, {3e-7, 1e-7, 2e-7, 9e-7}),
      testing::sample_series("parallel", "llvm", "epcc", "overhead", 1, {1.5e-7}),
      testing::sample_series("barrier", "llvm", "epcc", "overhead", 1, {2e-8, 1e-8}),
      testing::sample_series("parallel", "llvm", "epcc", "overhead", 2, {4e-7}),
      testing::sample_series("barrier", "gnu", "direct", "min_cost", 1, {-1.25e-9}),
  };
  std::ostringstream out;
  write_extrap(out, results);
  EXPECT_EQ(out.str(),
            "# ompscope bench: seconds per construct instance over the thread count t;\n"
            "# repetitions are the samples left after the filter: dropped best and worst 25%\n"
            "PARAMETER t\n"
            "POINTS 1 2\n"
            "# left out gnu_direct_min_cost barrier: not measured at every thread count\n"
            "METRIC llvm_epcc_overhead\n"
            "REGION parallel\n"
            "DATA 0.00000015\n"
            "DATA 0.0000004\n"
            "REGION barrier\n"
            "DATA 0.00000002 0.00000001\n"
            "DATA 0.0000003 0.0000002\n");
}

}  // namespace
}  // namespace ompscope::bench
