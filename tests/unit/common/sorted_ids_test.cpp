// SortedIds keeps each id once, in order, whatever order and repeats they came in; finds each by
// its place with and without a hint, a stale or far hint included, and answers kNone for an id
// it does not hold (between two it holds, below the first, above the last), a hint's neighbour
// included.
#include "common/sorted_ids.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace ompscope {
namespace {

TEST(SortedIds, KeepsEachIdOnceInOrder) {
  // Two threads' runs, each in order, one id repeated inside a run and across them.
  const SortedIds ids({4, 4, 9, 12, 3, 4, 7, 12, 20});
  ASSERT_EQ(ids.size(), 6u);
  const std::vector<uint32_t> want{3, 4, 7, 9, 12, 20};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(ids[i], want[i]) << i;
  EXPECT_EQ(SortedIds(std::vector<uint32_t>{}).size(), 0u);
}

TEST(SortedIds, FindsEachIdWithAndWithoutAHint) {
  std::vector<uint32_t> scattered;
  for (uint32_t i = 0; i < 1000; ++i) scattered.push_back((i * 7919) % 1000 * 2 + 10);  // even, 10..2008
  const SortedIds ids(scattered);
  ASSERT_EQ(ids.size(), 1000u);
  uint32_t in_order = SortedIds::kNone, backwards = SortedIds::kNone;
  for (uint32_t p = 0; p < 1000; ++p) {
    const uint32_t id = 10 + 2 * p;
    EXPECT_EQ(ids.find(id), p);
    EXPECT_EQ(ids.find(id, in_order), p);  // the next place each time
    EXPECT_EQ(in_order, p);
    EXPECT_EQ(ids.find(id, in_order), p);  // the same place again
    EXPECT_EQ(ids.find(2008 - 2 * p, backwards), 999 - p);  // never the hint's neighbour after
    EXPECT_EQ(backwards, 999 - p);
  }
  uint32_t hint = 500;
  for (const uint32_t absent : {0u, 9u, 11u, 1001u, 2009u, UINT32_MAX}) {
    EXPECT_EQ(ids.find(absent), SortedIds::kNone) << absent;
    EXPECT_EQ(ids.find(absent, hint), SortedIds::kNone) << absent;
    EXPECT_EQ(hint, 500u) << "a miss leaves the hint";
  }
  // Absent ids right after the hint's (between it and the next, past the last) are answered from
  // the hint; the hint is left where it was, and the next id found from there.
  for (uint32_t p = 0; p < 1000; ++p) {
    uint32_t at = p;
    EXPECT_EQ(ids.find(11 + 2 * p, at), SortedIds::kNone) << p;
    EXPECT_EQ(at, p);
    EXPECT_EQ(ids.find(9 + 2 * p, at), SortedIds::kNone) << "below the hint's: " << p;
    if (p + 1 < 1000) EXPECT_EQ(ids.find(12 + 2 * p, at), p + 1);
  }
  uint32_t past_the_end = 5000;  // a hint from a larger set: searched, not read past the end
  EXPECT_EQ(ids.find(20, past_the_end), 5u);
  EXPECT_EQ(past_the_end, 5u);
}

}  // namespace
}  // namespace ompscope
