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
  const std::map<int, ReplayedTime> deferred = replay_instance(g.nodes, std::vector<int>{2, 4}, 0, testing::us(1));
  ASSERT_EQ(deferred.size(), 2u);
  EXPECT_US(deferred.at(2).time_s, 91);
  EXPECT_US(deferred.at(4).time_s, 94);
  // Of it, the tasks' own work on the chain that ends last: the master's 1 µs before the first
  // creation, then the three bodies one after another, 91 µs; the deferral's 3 µs are the runtime's.
  EXPECT_US(deferred.at(2).body_s, 91);
  EXPECT_US(deferred.at(4).body_s, 91);
}

TEST(TaskReplay, ATaskwaitRunsTheCreatorsOwnNewestTaskAndMoreThreadsShortenTheTail) {
  // Three 40 µs tasks created at 1, 2, 3 µs, then a taskwait. On 2 threads: the worker steals the
  // first (1 → 41); the master, in its taskwait, runs its newest, the third (3 → 43); the worker
  // then takes the second (41 → 81), which the master's taskwait waits for: 81 µs. On 4: each
  // task from its creation on a thread of its own, the last ending at 43 (the graph's span).
  const Replayed g = graph_of(testing::three_tasks_on_two_threads_log());
  EXPECT_US(*replay_instance(g.nodes, 2, 0), 81);
  EXPECT_US(*replay_instance(g.nodes, 4, 0), 43);
  // With 1 µs per task start on 2 threads: the first 1 → 42, the third 3 → 44, the second 42 → 83.
  // The chain that ends last is the master's 1 µs and two bodies of 40, 81 µs of own work; its
  // two starts' 2 µs are the runtime's, so 81 is what the time grows by where every body grows
  // by its own length.
  const std::map<int, ReplayedTime> paid = replay_instance(g.nodes, std::vector<int>{2}, testing::us(1));
  EXPECT_US(paid.at(2).time_s, 83);
  EXPECT_US(paid.at(2).body_s, 81);
}

TEST(TaskReplay, ALargeGraphsCountsReplayedSideBySideGiveTheSameFigures) {
  // 12 000 independent 10 µs tasks, created by the master 1 µs apart from 1 µs on, then run by
  // both threads in the single's barrier: above kParallelReplayTasks, so with two workers its
  // counts are replayed two at a time, each on its own thread and buffers.
  using namespace testing::task_scenario_detail;
  constexpr uint32_t kTasks = 12'000;
  const uint64_t created = 1 + kTasks, ran = created + 10 * kTasks / 2;
  testing::LogBuilder b(2, ran + 100);
  open_region(b);
  testing::Stream master = b.thread(0), worker = b.thread(1);
  worker.sync_begin(0, kSingleBarrier);
  for (uint32_t k = 0; k < kTasks; ++k) master.task_create(1 + k, 50 + k, 11, testing::kTaskCode);
  master.sync_begin(created, kSingleBarrier);
  for (uint32_t k = 0; k < kTasks; ++k) {
    testing::Stream& s = k % 2 ? master : worker;
    const uint32_t self = k % 2 ? 11 : 12;
    const uint64_t at = created + 10 * (k / 2);
    s.task_schedule(at, self, ompt_task_switch, 50 + k).task_schedule(at + 10, 50 + k, ompt_task_complete, self);
  }
  close_region(b, ran, ran + 10);
  const Replayed g = graph_of(b.log());
  ASSERT_GE(g.nodes.nodes.size() - g.nodes.implicit_count, kParallelReplayTasks);
  const std::vector<int> counts{2, 4, 8, 16, 32, 64, 128, 256};
  const std::map<int, ReplayedTime> alone = replay_instance(g.nodes, counts, testing::us(1), 0, 1);
  const std::map<int, ReplayedTime> side_by_side = replay_instance(g.nodes, counts, testing::us(1), 0, 2);
  ASSERT_EQ(alone.size(), counts.size());
  for (int t : counts) {  // the same doubles
    EXPECT_EQ(side_by_side.at(t).time_s, alone.at(t).time_s) << t;
    EXPECT_EQ(side_by_side.at(t).body_s, alone.at(t).body_s) << t;
  }
  // More threads run the tasks sooner, down to their creation's pace (one every µs).
  EXPECT_LT(alone.at(256).time_s, alone.at(2).time_s);
  EXPECT_GT(alone.at(256).time_s, kTasks * testing::us(1));
}

TEST(TaskReplay, BatchesOfSampledOutTasksAreNotReplayed) {
  const Replayed g = graph_of(testing::twenty_tiny_tasks_sampled_log());
  EXPECT_FALSE(replay_instance(g.nodes, 2, 0).has_value());
}

}  // namespace
}  // namespace ompscope::analysis
