// DenseIndex numbers keys in the order first met, finds each again after the table grew past what
// was reserved, and answers kNone for a key never added; keys that share their low hash bits (one
// probe run) are told apart.
#include "common/dense_index.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <tuple>

namespace ompscope {
namespace {

struct Mixed {
  size_t operator()(uint32_t k) const { return k * 0x9E3779B97F4A7C15ull >> 20; }
};
using Mixed32 = DenseIndex<uint32_t, Mixed>;
struct AllAlike {  // every key in the same slot: the probe run is the whole table
  size_t operator()(uint32_t) const { return 7; }
};

TEST(DenseIndex, NumbersKeysInTheOrderFirstMetAndFindsThemAfterGrowing) {
  Mixed32 index(4);
  for (uint32_t i = 0; i < 10000; ++i) {
    const auto [number, added] = index.add(1000 + 3 * i);
    ASSERT_TRUE(added);
    ASSERT_EQ(number, i);
  }
  EXPECT_EQ(index.size(), 10000u);
  for (uint32_t i = 0; i < 10000; ++i) {
    EXPECT_EQ(index.add(1000 + 3 * i), std::make_pair(i, false));
    EXPECT_EQ(index.find(1000 + 3 * i), i);
    EXPECT_EQ(index.key(i), 1000 + 3 * i);
  }
  EXPECT_EQ(index.find(1001), Mixed32::kNone);
  EXPECT_EQ(index.find(0), Mixed32::kNone);
}

TEST(DenseIndex, KeysOfOneSlotAreToldApart) {
  using OneSlot = DenseIndex<uint32_t, AllAlike>;
  OneSlot index;
  for (uint32_t k : {5u, 9u, 5u, 2u, 9u, 40u}) index.add(k);
  EXPECT_EQ(index.size(), 4u);
  EXPECT_EQ(index.find(5), 0u);
  EXPECT_EQ(index.find(9), 1u);
  EXPECT_EQ(index.find(2), 2u);
  EXPECT_EQ(index.find(40), 3u);
  EXPECT_EQ(index.find(41), OneSlot::kNone);
  EXPECT_TRUE(OneSlot().empty());
}

}  // namespace
}  // namespace ompscope
