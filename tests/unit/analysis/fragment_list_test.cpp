// FragmentList (timeline.h): a task's fragments in 24 bytes, one held in place, more in a block.
// Each form's every operation, the change of form, and that a lone fragment stays where it is.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "analysis/timeline.h"

namespace ompscope::analysis {
namespace {

void expect_fragments(const FragmentList& list, std::initializer_list<TaskFragment> want) {
  ASSERT_EQ(list.size(), want.size());
  size_t i = 0;
  for (const TaskFragment& f : want) {
    EXPECT_EQ(list[i].thread, f.thread) << i;
    EXPECT_EQ(list[i].begin, f.begin) << i;
    EXPECT_EQ(list[i].end, f.end) << i;
    EXPECT_EQ(list[i].read, f.read) << i;
    EXPECT_EQ(list[i].off_cpu_s, f.off_cpu_s) << i;
    ++i;
  }
  EXPECT_EQ(list.end() - list.begin(), static_cast<std::ptrdiff_t>(want.size()));
}

TEST(FragmentList, IsAsSmallAsOneFragment) {
  EXPECT_EQ(sizeof(FragmentList), sizeof(TaskFragment));
  EXPECT_EQ(sizeof(TaskInstance), 88u);
}

// A task's depend clause and the runtime's edges to it share one list: the clause's items read
// back in their order, the edges' ids in theirs, whichever was added first (a `taskwait depend`'s
// clause can follow an edge in a log).
TEST(TaskInstance, HoldsItsClauseAndTheRuntimesEdgesApartInOneList) {
  TaskInstance t;
  EXPECT_TRUE(t.depends().empty());
  EXPECT_TRUE(t.runtime_predecessors().empty());
  EXPECT_FALSE(t.has_edges());
  t.add_depend({0x10, 3});
  t.add_runtime_predecessor(7);
  t.add_depend({0x20, 1, true});  // a clause's item, whatever it says of itself
  t.add_runtime_predecessor(9);
  ASSERT_EQ(t.depends().size(), 2u);
  EXPECT_EQ(t.depends()[0].address, 0x10u);
  EXPECT_EQ(t.depends()[0].type, 3u);
  EXPECT_EQ(t.depends()[1].address, 0x20u);
  EXPECT_EQ(t.depends()[1].type, 1u);
  EXPECT_EQ(std::vector<uint32_t>(t.runtime_predecessors().begin(), t.runtime_predecessors().end()),
            (std::vector<uint32_t>{7, 9}));
  EXPECT_EQ(t.runtime_predecessors().size(), 2u);
  EXPECT_TRUE(t.has_edges());
  const TaskInstance copy = t;
  EXPECT_EQ(copy.depends().size(), 2u);
  EXPECT_EQ(copy.runtime_predecessors().size(), 2u);
}

TEST(FragmentList, StartsEmpty) {
  const FragmentList list;
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(list.size(), 0u);
  EXPECT_EQ(list.begin(), list.end());
  EXPECT_THROW(list.at(0), std::out_of_range);
}

TEST(FragmentList, HoldsOneInPlaceAndKeepsItThere) {
  FragmentList list;
  list.push_back({3, 1.5, 2.5, 0.25f, true});
  expect_fragments(list, {{3, 1.5, 2.5, 0.25f, true}});
  const TaskFragment* at = &list.front();
  EXPECT_EQ(at, &list.back());
  list.back().end = 4.0;  // written through, as the walk extends a batch
  EXPECT_EQ(&list.front(), at);
  expect_fragments(list, {{3, 1.5, 4.0, 0.25f, true}});
}

TEST(FragmentList, GrowsIntoABlockAtTheSecondAndKeepsTheOrder) {
  FragmentList list{{0, 1, 2}};
  list.push_back({1, 3, 4});
  list.push_back({0, 5, 6});
  expect_fragments(list, {{0, 1, 2}, {1, 3, 4}, {0, 5, 6}});
  list.push_back(list.front());  // one of its own, which the growing moves
  expect_fragments(list, {{0, 1, 2}, {1, 3, 4}, {0, 5, 6}, {0, 1, 2}});
}

TEST(FragmentList, AddingItsOwnLoneFragmentCopiesItBeforeTheBlockReplacesIt) {
  FragmentList list{{2, 7, 8}};
  list.push_back(list.front());
  expect_fragments(list, {{2, 7, 8}, {2, 7, 8}});
}

TEST(FragmentList, ClearedFromEitherFormTakesNewOnes) {
  FragmentList one{{1, 1, 2}};
  one.clear();
  EXPECT_TRUE(one.empty());
  one.push_back({4, 9, 10});
  expect_fragments(one, {{4, 9, 10}});

  FragmentList two{{1, 1, 2}, {1, 3, 4}};
  two.clear();
  EXPECT_TRUE(two.empty());
  two.push_back({5, 11, 12});  // into the block it kept
  expect_fragments(two, {{5, 11, 12}});
  two = {{6, 1, 2}, {6, 3, 4}, {6, 5, 6}};
  expect_fragments(two, {{6, 1, 2}, {6, 3, 4}, {6, 5, 6}});
}

TEST(FragmentList, CopiesAndMovesInBothForms) {
  for (const auto& items : {std::initializer_list<TaskFragment>{}, std::initializer_list<TaskFragment>{{1, 1, 2}},
                            std::initializer_list<TaskFragment>{{1, 1, 2}, {0, 2, 3}, {1, 4, 5}}}) {
    const FragmentList original(items);
    FragmentList copy(original);
    expect_fragments(copy, items);
    expect_fragments(original, items);
    FragmentList assigned{{9, 9, 9}, {9, 10, 11}};
    assigned = original;
    expect_fragments(assigned, items);
    FragmentList moved(std::move(copy));
    expect_fragments(moved, items);
    EXPECT_TRUE(copy.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty, by design
    copy.push_back({7, 1, 2});
    expect_fragments(copy, {{7, 1, 2}});
    FragmentList move_assigned{{8, 1, 2}};
    move_assigned = std::move(moved);
    expect_fragments(move_assigned, items);
    EXPECT_TRUE(moved.empty());  // NOLINT(bugprone-use-after-move)
  }
}

TEST(FragmentList, AnyTimeArithmeticGivesIsHeldInPlace) {
  // The list form is told by a signalling NaN where `end` is: the ends a time can take, NaN included
  // (an operation on a NaN gives a quiet one), read back as the one fragment they are.
  const double zero = 0;
  for (double end : {0.0, -1.0, 1e300, std::numeric_limits<double>::infinity(),
                     -std::numeric_limits<double>::infinity(), zero / zero, std::sqrt(-1.0)}) {
    FragmentList list;
    list.push_back({0, 0, end});
    ASSERT_EQ(list.size(), 1u) << end;
    EXPECT_EQ(std::isnan(list.front().end), std::isnan(end));
  }
}

}  // namespace
}  // namespace ompscope::analysis
