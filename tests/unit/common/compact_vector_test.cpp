#include "common/compact_vector.h"

#include <gtest/gtest.h>

#include <vector>

namespace ompscope {
namespace {

struct Item {
  uint32_t thread;
  double begin, end;
};

std::vector<double> begins(const CompactVector<Item>& v) {
  std::vector<double> out;
  for (const Item& i : v) out.push_back(i.begin);
  return out;
}

TEST(CompactVector, IsOnePointerAndAnEmptyOneAllocatesNothing) {
  static_assert(sizeof(CompactVector<Item>) == sizeof(void*));
  const CompactVector<Item> v;
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.size(), 0u);
  EXPECT_EQ(v.capacity(), 0u);
  EXPECT_EQ(v.data(), nullptr);
  EXPECT_EQ(v.begin(), v.end());
}

TEST(CompactVector, GrowsOneItemAtATimeToFourThenByDoublingAndKeepsItsItemsInOrder) {
  CompactVector<Item> v;
  std::vector<size_t> capacities;
  for (uint32_t k = 0; k < 9; ++k) {
    v.push_back({k, k * 1.0, k + 0.5});
    capacities.push_back(v.capacity());
  }
  EXPECT_EQ(capacities, (std::vector<size_t>{1, 2, 3, 4, 8, 8, 8, 8, 16}));
  ASSERT_EQ(v.size(), 9u);
  EXPECT_EQ(begins(v), (std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(v.front().thread, 0u);
  EXPECT_EQ(v.back().thread, 8u);
  EXPECT_EQ(v[4].end, 4.5);
  EXPECT_EQ(v.at(8).begin, 8.0);
  EXPECT_THROW(v.at(9), std::out_of_range);
}

TEST(CompactVector, PushingOneOfItsOwnItemsWhileGrowingCopiesItFirst) {
  CompactVector<Item> v{{1, 1, 2}, {2, 3, 4}};
  ASSERT_EQ(v.capacity(), 2u);
  v.push_back(v.front());  // the block it lives in is freed by the growth
  EXPECT_EQ(begins(v), (std::vector<double>{1, 3, 1}));
}

TEST(CompactVector, InsertsAtAnyPlaceUpToItsEndAndNoFurther) {
  CompactVector<Item> v;
  v.insert_at(0, {1, 1, 2});
  v.insert_at(1, {3, 3, 4});
  v.insert_at(0, {0, 0, 1});
  v.insert_at(2, {2, 2, 3});
  v.insert_at(4, {4, 4, 5});
  EXPECT_EQ(begins(v), (std::vector<double>{0, 1, 2, 3, 4}));
  EXPECT_THROW(v.insert_at(6, {9, 9, 9}), std::out_of_range);
  EXPECT_EQ(v.size(), 5u);
}

TEST(CompactVector, CopiesAreDeepAndMovesLeaveTheSourceEmpty) {
  CompactVector<uint32_t> a{1, 2, 3};
  CompactVector<uint32_t> b = a;
  EXPECT_EQ(b.capacity(), 3u);  // a copy holds no spare room
  b.push_back(4);
  EXPECT_EQ(b.capacity(), 4u);  // one more, below four
  b.push_back(5);
  EXPECT_EQ(b.capacity(), 8u);  // growing from four doubles
  b = {1, 2, 3, 4};
  EXPECT_EQ(a.size(), 3u);
  EXPECT_EQ(b.size(), 4u);
  a = b;
  EXPECT_EQ(a.size(), 4u);
  EXPECT_NE(a.data(), b.data());
  const CompactVector<uint32_t>& same = a;
  a = same;  // self-assignment keeps it
  EXPECT_EQ(a.size(), 4u);
  CompactVector<uint32_t> c = std::move(a);
  EXPECT_TRUE(a.empty());  // NOLINT: moved from, by design empty
  EXPECT_EQ(c.size(), 4u);
  c = std::move(b);
  EXPECT_TRUE(b.empty());  // NOLINT
  EXPECT_EQ(c.back(), 4u);
  c = {7};
  EXPECT_EQ(c.size(), 1u);
  c.clear();
  EXPECT_TRUE(c.empty());
  EXPECT_EQ(c.capacity(), 8u);  // b's block, cleared, not freed
  const std::vector<uint32_t> from{5, 6};
  c = from;
  EXPECT_EQ(c.size(), 2u);
  EXPECT_EQ(c[1], 6u);
}

}  // namespace
}  // namespace ompscope
