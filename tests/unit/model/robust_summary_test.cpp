#include "model/robust_summary.h"

#include <gtest/gtest.h>

#include <vector>

#include "common/error.h"

namespace ompscope::model {
namespace {

TEST(RobustSummary, TrimmedMeanDropsTheLowestAndHighestQuarter) {
  const std::vector<double> five = {100, 1, 2, 3, -50};
  EXPECT_DOUBLE_EQ(summarize(five, Summary::trimmed_mean), 2.0);
  const std::vector<double> three = {1, 2, 6};  // fewer than 4: nothing to drop
  EXPECT_DOUBLE_EQ(summarize(three, Summary::trimmed_mean), 3.0);
}

TEST(RobustSummary, MedianOfEvenCountIsTheMeanOfTheMiddleTwo) {
  const std::vector<double> four = {4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(summarize(four, Summary::median), 2.5);
}

TEST(RobustSummary, MinimumAndMean) {
  const std::vector<double> values = {3, 1, 2};
  EXPECT_DOUBLE_EQ(summarize(values, Summary::minimum), 1.0);
  EXPECT_DOUBLE_EQ(summarize(values, Summary::mean), 2.0);
}

TEST(RobustSummary, NoRepetitionsIsAnError) {
  EXPECT_THROW(summarize(std::vector<double>{}, Summary::median), Error);
}

}  // namespace
}  // namespace ompscope::model
