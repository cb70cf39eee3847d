// replay_instance (task_replay.h): hand-built task graphs replayed on more threads than recorded,
// with exact times.
#include "analysis/task_replay.h"

#include <gtest/gtest.h>

#include "event_log_builder.h"
#include "scenarios.h"
#include "task_scenarios.h"

namespace ompscope::analysis {
namespace {

struct Replayed {
  Timeline timeline;
  std::vector<const TaskInstance*> tasks;
  TaskNodes nodes;
};

Replayed graph_of(const RunLog& log) {
  Replayed r{build_timeline(log), {}, {}};
  for (const TaskInstance& task : r.timeline.tasks) r.tasks.push_back(&task);
  r.nodes = task_nodes(r.timeline.regions.at(0), r.tasks);
  return r;
}

TEST(TaskReplay, ADependenceChainTakesItsSpanOnAnyNumberOfThreads) {
  // Three 30 µs tasks, each depend(inout) on the one before, created at 1, 2, 3 µs (recorded on 2
  // threads): the first starts at its creation on the idle worker, each next one when the one
  // before completes: 1 + 3 × 30 = 91 µs, then both barriers open at once.
  const Replayed g = graph_of(testing::one_chain_log(3));
  EXPECT_US(*replay_instance(g.nodes, 2, 0), 91);
  EXPECT_US(*replay_instance(g.nodes, 4, 0), 91);
  EXPECT_US(*replay_instance(g.nodes, 256, 0), 91);
  // A runtime cost of 1 µs per task start: each of the three on the chain pays it.
  EXPECT_US(*replay_instance(g.nodes, 2, testing::us(1)), 94);
  // Fewer threads than the recorded team: no replay.
  EXPECT_FALSE(replay_instance(g.nodes, 1, 0).has_value());
  // A cost of deferring a task (the bench's task_tree, charged where the recorded team ran its
  // tasks at once) is paid on counts above the recorded team's only: 91 µs at 2, 94 at 4.
  const std::map<int, double> deferred = replay_instance(g.nodes, std::vector<int>{2, 4}, 0, testing::us(1));
  ASSERT_EQ(deferred.size(), 2u);
  EXPECT_US(deferred.at(2), 91);
  EXPECT_US(deferred.at(4), 94);
}

TEST(TaskReplay, ATaskwaitRunsTheCreatorsOwnNewestTaskAndMoreThreadsShortenTheTail) {
  // Three 40 µs tasks created at 1, 2, 3 µs, then a taskwait. On 2 threads: the worker steals the
  // first (1 → 41); the master, in its taskwait, runs its newest, the third (3 → 43); the worker
  // then takes the second (41 → 81), which the master's taskwait waits for: 81 µs. On 4: each
  // task from its creation on a thread of its own, the last ending at 43 (the graph's span).
  const Replayed g = graph_of(testing::three_tasks_on_two_threads_log());
  EXPECT_US(*replay_instance(g.nodes, 2, 0), 81);
  EXPECT_US(*replay_instance(g.nodes, 4, 0), 43);
}

TEST(TaskReplay, BatchesOfSampledOutTasksAreNotReplayed) {
  const Replayed g = graph_of(testing::twenty_tiny_tasks_sampled_log());
  EXPECT_FALSE(replay_instance(g.nodes, 2, 0).has_value());
}

}  // namespace
}  // namespace ompscope::analysis
