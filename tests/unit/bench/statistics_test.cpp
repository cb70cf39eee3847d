#include "bench/core/statistics.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace ompscope::bench {
namespace {

TEST(Summarize, OddCountHasTheMiddleValueAsMedian) {
  const std::vector<double> v{5, 1, 3};
  const Summary s = summarize(v);
  EXPECT_EQ(s.count, 3u);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_DOUBLE_EQ(s.sd, 2);  // squares 4 + 4 + 0 over n - 1 = 2
}

TEST(Summarize, EvenCountAveragesTheTwoMiddleValues) {
  const std::vector<double> v{4, 1, 2, 10};
  const Summary s = summarize(v);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.mean, 4.25);
}

TEST(Summarize, OneValueHasNoSpread) {
  const std::vector<double> v{2.5e-7};
  const Summary s = summarize(v);
  EXPECT_DOUBLE_EQ(s.sd, 0);
  EXPECT_DOUBLE_EQ(s.median, 2.5e-7);
}

TEST(Summarize, RefusesAnEmptySeries) {
  EXPECT_THROW(summarize(std::vector<double>{}), std::invalid_argument);
}

TEST(OutlierFilter, DropsAQuarterAtEachEndAndKeepsMeasurementOrder) {
  const std::vector<double> v{9, 1, 5, 7, 3, 100, 6, 4};  // 8 values: drop 2 low, 2 high
  EXPECT_EQ(drop_best_and_worst_quarter(v), (std::vector<double>{5, 7, 6, 4}));
}

TEST(OutlierFilter, RoundsTheQuarterDown) {
  const std::vector<double> v{10, 20, 30, 40, 50, 60, 70};  // 7 values: drop 1 at each end
  EXPECT_EQ(drop_best_and_worst_quarter(v), (std::vector<double>{20, 30, 40, 50, 60}));
}

TEST(OutlierFilter, KeepsSeriesShorterThanFour) {
  const std::vector<double> v{3, 1, 2};
  EXPECT_EQ(drop_best_and_worst_quarter(v), v);
}

TEST(OutlierFilter, TiesAreDroppedByPosition) {
  const std::vector<double> v{1, 1, 1, 1};  // the first 1 is the "best", the last the "worst"
  EXPECT_EQ(drop_best_and_worst_quarter(v), (std::vector<double>{1, 1}));
  const std::vector<double> w{2, 1, 2, 1};
  EXPECT_EQ(drop_best_and_worst_quarter(w), (std::vector<double>{2, 1}));
}

}  // namespace
}  // namespace ompscope::bench
