#include "common/side_by_side.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace ompscope {
namespace {

TEST(SideBySide, EveryPieceRunsOnceOnAtMostTheWorkersAsked) {
  std::vector<int> runs(1000, 0);
  std::vector<std::thread::id> on(runs.size());
  side_by_side(runs.size(), 3, [&](size_t i) {
    ++runs[i];
    on[i] = std::this_thread::get_id();
  });
  for (int n : runs) EXPECT_EQ(n, 1);
  EXPECT_LE(std::set<std::thread::id>(on.begin(), on.end()).size(), 3u);
  side_by_side(0, 4, [](size_t) { FAIL() << "no piece to run"; });
  int alone = 0;
  side_by_side(2, 0, [&](size_t) { ++alone; });  // no worker asked: this thread
  EXPECT_EQ(alone, 2);
}

TEST(SideBySide, TheFirstFailureByIndexIsRethrownOnceAllEnded) {
  std::vector<int> runs(50, 0);
  try {
    side_by_side(runs.size(), 2, [&](size_t i) {
      ++runs[i];
      if (i == 7 || i == 30) throw std::runtime_error("piece " + std::to_string(i));
    });
    FAIL() << "nothing rethrown";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "piece 7");
  }
  for (int n : runs) EXPECT_EQ(n, 1);  // the others still ran
}

// scale's runs, the longest logs first: on one worker the pieces are taken in the order given,
// and the failure rethrown is still the first by index, not the first taken.
TEST(SideBySide, PiecesAreTakenInTheOrderGivenAndTheFirstFailureByIndexIsRethrown) {
  std::vector<size_t> taken;
  try {
    side_by_side(4, 1, [&](size_t i) {
      taken.push_back(i);
      if (i == 1 || i == 3) throw std::runtime_error("piece " + std::to_string(i));
    }, {3, 0, 2, 1});
    FAIL() << "nothing rethrown";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "piece 1");
  }
  EXPECT_EQ(taken, (std::vector<size_t>{3, 0, 2, 1}));
}

}  // namespace
}  // namespace ompscope
