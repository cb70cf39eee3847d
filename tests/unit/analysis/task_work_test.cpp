// IntervalSet and task_nodes: where each task of an instance did its own work. A task works
// while it runs and is not waiting in its own taskwait, taskgroup or barrier; an implicit task
// is suspended while its thread runs explicit tasks.
#include "analysis/task_work.h"

#include <gtest/gtest.h>

#include "event_log_builder.h"
#include "scenarios.h"
#include "task_scenarios.h"

namespace ompscope::analysis {
namespace {

using testing::us;

TEST(IntervalSet, MergesOverlapsAndMeasuresAnyWindow) {
  const IntervalSet s({{5, 7}, {0, 2}, {1, 3}, {7, 8}});
  ASSERT_EQ(s.intervals().size(), 2u);  // [0,3] and [5,8]
  EXPECT_DOUBLE_EQ(s.total(), 6);
  EXPECT_DOUBLE_EQ(s.length_between(2, 6), 2);   // [2,3] and [5,6]
  EXPECT_DOUBLE_EQ(s.length_between(3, 5), 0);   // the hole
  EXPECT_DOUBLE_EQ(s.length_between(-10, 10), 6);
  EXPECT_DOUBLE_EQ(s.length_between(6, 2), 0);   // an empty window
}

TEST(IntervalSet, MinusCutsHolesOutOfEveryInterval) {
  const IntervalSet s = IntervalSet({{0, 10}, {20, 30}}).minus(IntervalSet({{2, 4}, {8, 22}, {25, 26}}));
  ASSERT_EQ(s.intervals().size(), 4u);  // [0,2] [4,8] [22,25] [26,30]
  EXPECT_DOUBLE_EQ(s.total(), 2 + 4 + 3 + 4);
  EXPECT_DOUBLE_EQ(s.intervals()[1].begin, 4);
  EXPECT_DOUBLE_EQ(s.intervals()[2].begin, 22);
}

// A set of one interval (held in place), none, and the sets cut from one: every operation gives
// what a set of several gives.
TEST(IntervalSet, OneIntervalNoneAndWhatIsCutFromThem) {
  const IntervalSet one({{2, 6}});
  ASSERT_EQ(one.intervals().size(), 1u);
  EXPECT_DOUBLE_EQ(one.intervals()[0].until, 4);
  EXPECT_DOUBLE_EQ(one.total(), 4);
  EXPECT_DOUBLE_EQ(one.length_between(3, 10), 3);
  const IntervalSet none({{5, 5}});  // empty intervals are dropped
  EXPECT_TRUE(none.intervals().empty());
  EXPECT_DOUBLE_EQ(none.total(), 0);
  EXPECT_DOUBLE_EQ(none.length_between(0, 10), 0);
  const IntervalSet split = one.minus(IntervalSet({{3, 4}}));  // one becomes two
  ASSERT_EQ(split.intervals().size(), 2u);
  EXPECT_DOUBLE_EQ(split.total(), 3);
  EXPECT_DOUBLE_EQ(split.intervals()[1].until, 3);
  const IntervalSet joined = split.minus(IntervalSet({{0, 3.5}}));  // two become one
  ASSERT_EQ(joined.intervals().size(), 1u);
  EXPECT_DOUBLE_EQ(joined.intervals()[0].begin, 4);
  EXPECT_DOUBLE_EQ(joined.total(), 2);
  EXPECT_TRUE(one.minus(IntervalSet({{0, 10}})).intervals().empty());
  EXPECT_DOUBLE_EQ(split.first(1.5).total(), 1.5);
  EXPECT_EQ(split.first(1.5).intervals().size(), 2u);
  EXPECT_EQ(one.first(1).intervals().size(), 1u);
  const IntervalSet copy = split;  // a copy holds its own intervals
  EXPECT_DOUBLE_EQ(copy.total(), 3);
}

std::vector<const TaskInstance*> tasks_of(const Timeline& t) {
  std::vector<const TaskInstance*> out;
  for (const TaskInstance& task : t.tasks) out.push_back(&task);
  return out;
}

TEST(TaskNodes, ImplicitTasksWorkOutsideTheirWaitsAndOutsideTheTasksTheirThreadRan) {
  // Three tasks on two threads: the master works 0 → 3 (creating), then waits in its taskwait
  // except while running task 52; the worker only waits and runs 50 and 51.
  const Timeline t = build_timeline(testing::three_tasks_on_two_threads_log());
  ASSERT_EQ(t.regions.size(), 1u);
  const TaskNodes g = task_nodes(t.regions[0], tasks_of(t));
  ASSERT_EQ(g.implicit_count, 2u);
  ASSERT_EQ(g.nodes.size(), 5u);
  EXPECT_US(g.nodes[0].own_work.total(), 3);
  EXPECT_US(g.nodes[1].own_work.total(), 0);
  for (size_t i = 2; i < 5; ++i) EXPECT_US(g.nodes[i].own_work.total(), 40) << i;
  EXPECT_EQ(std::vector<uint32_t>(g.nodes[0].children.begin(), g.nodes[0].children.end()), (std::vector<uint32_t>{2, 3, 4}));
  ASSERT_EQ(g.nodes[0].waits.size(), 3u);  // taskwait, the single's barrier, the join barrier
  EXPECT_EQ(g.nodes[0].waits[0]->kind, SyncKind::Taskwait);
  EXPECT_EQ(g.fragments_on_thread.at(1).size(), 2u);
  EXPECT_TRUE(g.fragments_on_thread.at(1)[1].starts_task);
}

TEST(TaskNodes, ABatchOfSampledOutTasksIsNoTasksParentAndEachNodeIsFoundByItsId) {
  // Eight tasks recorded and four batches: a batch has no id (0), and its parent is unknown (0).
  // Each batch had been taken for a child of the last batch (fine_tasks: one "created" 7957).
  const Timeline t = build_timeline(testing::twenty_tiny_tasks_sampled_log());
  ASSERT_EQ(t.regions.size(), 1u);
  const TaskNodes g = task_nodes(t.regions[0], tasks_of(t));
  size_t batches = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const TaskNode& n = g.nodes[i];
    const uint32_t id = n.explicit_task ? n.explicit_task->id : n.implicit_part->implicit_task;
    if (n.explicit_task && n.explicit_task->light) {
      ++batches;
      EXPECT_TRUE(n.children.empty()) << i;
      continue;
    }
    EXPECT_EQ(g.node_of(id), i);
    EXPECT_EQ(g.explicit_node(id), n.explicit_task ? &n : nullptr);
  }
  EXPECT_EQ(batches, 4u);
  EXPECT_EQ(g.node_of(0), TaskNodes::kNoNode);
  EXPECT_EQ(g.node_of(999999), TaskNodes::kNoNode);
}

// A recursive tree's ids (1 024 and more, dense) are found through a table from the smallest;
// an id below it or past its end is no node's.
TEST(TaskNodes, ManyDenseIdsAreFoundThroughATable) {
  RegionInstance region;
  ThreadInRegion part;
  part.implicit_task = 2998;
  part.end = 1;
  region.threads.push_back(part);
  std::vector<TaskInstance> tasks(2000);
  std::vector<const TaskInstance*> pointers;
  for (size_t i = 0; i < tasks.size(); ++i) {
    tasks[i].id = static_cast<uint32_t>(3000 + 2 * i);  // every other id: half the table empty
    tasks[i].parent = i == 0 ? 2998 : tasks[(i - 1) / 2].id;
    tasks[i].created = static_cast<double>(i);
    pointers.push_back(&tasks[i]);
  }
  const TaskNodes g = task_nodes(region, pointers);
  EXPECT_FALSE(g.dense.empty());
  EXPECT_TRUE(g.by_id.empty());
  EXPECT_EQ(g.node_of(2998), 0u);
  for (size_t i = 0; i < tasks.size(); ++i) EXPECT_EQ(g.node_of(tasks[i].id), i + 1);
  EXPECT_EQ(g.node_of(3001), TaskNodes::kNoNode);
  EXPECT_EQ(g.node_of(2997), TaskNodes::kNoNode);
  EXPECT_EQ(g.node_of(6999), TaskNodes::kNoNode);
  EXPECT_EQ(g.node_of(7000), TaskNodes::kNoNode);
  EXPECT_EQ(g.node_of(0), TaskNodes::kNoNode);
  EXPECT_EQ(g.explicit_node(2998), nullptr);  // the implicit task's
  EXPECT_EQ(std::vector<uint32_t>(g.nodes[1].children.begin(), g.nodes[1].children.end()), (std::vector<uint32_t>{2, 3}));
}

TEST(TaskNodes, AnExplicitTaskDoesNotWorkWhileItWaitsInItsOwnTaskwait) {
  // Task 80 runs 110 → 130 and 150 → 170 but waits in its taskwait 120 → 160 (its child 81
  // runs 130 → 150): its own work is 110 → 120 and 160 → 170.
  const RunLog log = testing::task_with_taskwait_in_barrier_log();
  const Timeline t = build_timeline(log);
  const TaskNodes g = task_nodes(t.regions.at(0), tasks_of(t));
  ASSERT_EQ(g.nodes.size(), 3u);
  EXPECT_US(g.nodes[1].own_work.total(), 20);  // task 80
  EXPECT_US(g.nodes[2].own_work.total(), 20);  // task 81
  EXPECT_US(g.nodes[0].own_work.total(), 50 + 100);  // 50 → 100 and 200 → 300
  EXPECT_EQ(std::vector<uint32_t>(g.nodes[1].children.begin(), g.nodes[1].children.end()), (std::vector<uint32_t>{2}));
  ASSERT_EQ(g.nodes[1].waits.size(), 1u);
  EXPECT_EQ(g.nodes[1].waits[0]->task, 80u);
}

}  // namespace
}  // namespace ompscope::analysis
