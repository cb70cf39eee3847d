#include "bench/core/run_plan.h"

#include <gtest/gtest.h>

namespace ompscope::bench {
namespace {

TEST(DefaultThreadCounts, OneTwoPowersOfTwoAndTheCoreCount) {
  EXPECT_EQ(default_thread_counts(1), (std::vector<int>{1, 2}));
  EXPECT_EQ(default_thread_counts(2), (std::vector<int>{1, 2}));
  EXPECT_EQ(default_thread_counts(6), (std::vector<int>{1, 2, 4, 6}));
  EXPECT_EQ(default_thread_counts(16), (std::vector<int>{1, 2, 4, 8, 16}));
}

TEST(AvailableCpus, AtLeastOne) { EXPECT_GE(available_cpus(), 1); }

TEST(SecondsLeft, AssumesTheRemainingRunsTakeTheAverageTime) {
  EXPECT_DOUBLE_EQ(estimate_seconds_left(10, 2, 6), 20);
  EXPECT_DOUBLE_EQ(estimate_seconds_left(10, 6, 6), 0);
  EXPECT_LT(estimate_seconds_left(0, 0, 6), 0);
  EXPECT_EQ(format_duration(-1), "?");
  EXPECT_EQ(format_duration(42.4), "42s");
  EXPECT_EQ(format_duration(185), "3m05s");
}

}  // namespace
}  // namespace ompscope::bench
