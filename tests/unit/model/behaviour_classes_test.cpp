#include "model/behaviour_classes.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace ompscope::model {
namespace {

TEST(ThreadClass, PowersOfTwoThenMultiplesOf16ThenOddMultiplesOf8) {
  EXPECT_EQ(thread_class(1), "PO2");
  EXPECT_EQ(thread_class(64), "PO2");
  EXPECT_EQ(thread_class(48), "EVEN");
  EXPECT_EQ(thread_class(96), "EVEN");
  EXPECT_EQ(thread_class(24), "ODD");
  EXPECT_EQ(thread_class(40), "ODD");
  EXPECT_EQ(thread_class(8), "PO2");  // 16 * 0 + 8, but a power of two first
  EXPECT_EQ(thread_class(12), "OTHER");
  EXPECT_EQ(thread_class(2.5), "OTHER");
}

const Split* find(const std::vector<Split>& splits, const std::string& kind) {
  const auto it = std::find_if(splits.begin(), splits.end(),
                               [&](const Split& s) { return s.kind == kind; });
  return it == splits.end() ? nullptr : &*it;
}

TEST(CandidateSplits, GroupsByClassWhenEveryClassHasEnoughPoints) {
  const std::vector<double> threads = {1, 2, 4, 8, 16, 24, 32, 40, 56, 64};
  const auto splits = candidate_splits(threads, 3);
  const Split* classes = find(splits, "classes");
  ASSERT_NE(classes, nullptr);
  ASSERT_EQ(classes->groups.size(), 2u);
  EXPECT_EQ(classes->groups[0].name, "PO2");
  EXPECT_EQ(classes->groups[0].indices.size(), 7u);
  EXPECT_EQ(classes->groups[1].name, "ODD");
  EXPECT_EQ(classes->groups[1].indices, (std::vector<std::size_t>{5, 7, 8}));
}

TEST(CandidateSplits, NoClassSplitWhenAClassIsTooSmall) {
  const std::vector<double> threads = {1, 2, 4, 8, 16, 24, 32};
  const auto splits = candidate_splits(threads, 3);
  EXPECT_EQ(find(splits, "classes"), nullptr);
}

TEST(CandidateSplits, LinearRangeIsTheLongestRunOfConsecutiveCounts) {
  const std::vector<double> threads = {1, 2, 4, 5, 6, 7, 8, 16, 32, 64};
  const auto splits = candidate_splits(threads, 3);
  const Split* linear = find(splits, "linear_range");
  ASSERT_NE(linear, nullptr);
  EXPECT_EQ(linear->groups[0].name, "LINEAR 4..8");
  EXPECT_EQ(linear->groups[1].indices, (std::vector<std::size_t>{0, 1, 7, 8, 9}));
}

TEST(CandidateSplits, ARunAtOneEndIsLeftToTheBreakpoints) {
  const std::vector<double> threads = {1, 2, 3, 4, 8, 16, 32};
  const auto splits = candidate_splits(threads, 3);
  EXPECT_EQ(find(splits, "linear_range"), nullptr);
}

TEST(CandidateSplits, BreakpointsLeaveEnoughPointsOnBothSides) {
  const std::vector<double> threads = {1, 2, 4, 8, 16, 32, 64};
  std::vector<std::string> names;
  for (const Split& split : candidate_splits(threads, 3))
    if (split.kind == "breakpoint") names.push_back(split.groups[0].name);
  EXPECT_EQ(names, (std::vector<std::string>{"t<=4", "t<=8"}));
}

}  // namespace
}  // namespace ompscope::model
