// give_back_if_large (common/scratch.h): a buffer grown past kKeptScratchItems gives its memory
// back, one within it keeps it for the next instance, its items left as they were.
#include "common/scratch.h"

#include <gtest/gtest.h>

#include <vector>

namespace ompscope {
namespace {

TEST(Scratch, GivesBackOnlyWhatGrewPastTheLimit) {
  std::vector<int> small(1000, 7);
  give_back_if_large(small);
  EXPECT_EQ(small.size(), 1000u);
  EXPECT_GE(small.capacity(), 1000u);

  std::vector<int> at_limit;
  at_limit.reserve(kKeptScratchItems);
  give_back_if_large(at_limit);
  EXPECT_GE(at_limit.capacity(), kKeptScratchItems);

  std::vector<int> large(kKeptScratchItems + 1, 7);
  large.clear();
  give_back_if_large(large);
  EXPECT_EQ(large.capacity(), 0u);
  large.push_back(1);  // still a usable buffer
  EXPECT_EQ(large.size(), 1u);
}

}  // namespace
}  // namespace ompscope
