// task_figures: what a region's explicit tasks cost in one run (task_figures.h), on the three
// hand-built tasking pathologies of task_scenarios.h, every figure stated exactly.
#include "analysis/statistics.h"
#include "analysis/task_figures.h"

#include <algorithm>
#include <gtest/gtest.h>

#include "event_log_builder.h"
#include "scenarios.h"
#include "task_scenarios.h"

namespace ompscope::analysis {
namespace {

TaskFigures figures_of(const RunLog& log) {
  const Timeline t = build_timeline(log);
  std::vector<const TaskInstance*> tasks;
  for (const TaskInstance& task : t.tasks) tasks.push_back(&task);
  EXPECT_EQ(t.regions.size(), 1u);
  return task_figures(t.regions.at(0), tasks);
}

// Batches of light tasks are handed out in bulk, in steps per thread, not per body: the idle
// time is the one of handing every body out one by one to the thread free first, whatever the
// team, the batches' sizes and the recorded tasks between them (a thread far behind the others
// catches up; threads within a body of each other take one each in turn; bodies of 0).
TEST(ListScheduleIdle, BatchesHandedOutInBulkLeaveTheIdleTimeOfOneByOne) {
  const auto one_by_one = [](const std::vector<BodyRun>& runs, size_t team) {
    std::vector<double> free_at(team, 0.0);
    double sum = 0, last_end = 0;
    for (const BodyRun& r : runs)
      for (uint64_t k = 0; k < r.count; ++k) {
        double& at = *std::min_element(free_at.begin(), free_at.end());
        at += r.body;
        last_end = std::max(last_end, at);
        sum += r.body;
      }
    return static_cast<double>(team) * last_end - sum;
  };
  uint64_t state = 12345;
  const auto next = [&state](uint64_t below) {  // a fixed sequence: the test is the same each run
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 33) % below;
  };
  for (int trial = 0; trial < 400; ++trial) {
    const size_t team = 1 + next(12);
    std::vector<BodyRun> runs;
    for (uint64_t n = 1 + next(8); n > 0; --n) {
      const uint64_t count = next(3) == 0 ? 1 : 1 + next(3000);
      const double body = next(10) == 0 ? 0.0 : 1e-6 * static_cast<double>(1 + next(5000)) / 7.0;
      runs.push_back({body, count});
    }
    // Within the rounding of the one-by-one sums (thousands of additions): a billionth of the work.
    double work = 0;
    for (const BodyRun& r : runs) work += r.body * static_cast<double>(r.count);
    EXPECT_NEAR(list_schedule_idle(runs, team), one_by_one(runs, team), 1e-9 * std::max(1e-9, work))
        << "trial " << trial << ", team " << team;
  }
  // A thread held by a long recorded body while the other takes a batch of 1000 short ones.
  EXPECT_NEAR(list_schedule_idle({{500e-6, 1}, {1e-6, 1000}}, 2), one_by_one({{500e-6, 1}, {1e-6, 1000}}, 2), 1e-15);
  EXPECT_NEAR(list_schedule_idle({{500e-6, 1}, {1e-6, 1000}}, 2), 2 * 750e-6 - 1500e-6, 1e-12);  // 500 + 250 each
}

TEST(TaskFigures, BodyAtRankIsTheBodyTheExpandedListHoldsThere) {
  uint64_t state = 777;
  const auto next = [&state](uint64_t below) {  // a fixed sequence: the test is the same each run
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 33) % below;
  };
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<BodyRun> runs;
    std::vector<double> each;  // every body the runs stand for, sorted: what the rank reads
    for (uint64_t n = next(80); n > 0; --n) {
      const uint64_t count = next(3) == 0 ? 1 + next(50) : 1;
      const double body = 1e-6 * static_cast<double>(next(trial % 2 ? 6 : 5000));  // odd trials: many ties
      runs.push_back({body, count});
      each.insert(each.end(), count, body);
    }
    std::sort(each.begin(), each.end());
    for (uint64_t rank : {uint64_t{0}, static_cast<uint64_t>(each.size() / 2), static_cast<uint64_t>(each.size()),
                          next(each.size() + 1), next(each.size() + 1)}) {
      std::vector<BodyRun> reordered = runs;
      const double expected = each.empty() ? 0.0 : each[std::min<size_t>(rank, each.size() - 1)];
      EXPECT_EQ(body_at_rank(reordered, rank), expected) << "trial " << trial << ", rank " << rank << " of " << each.size();
    }
  }
}

TEST(TaskFigures, WorkersStarveWhileTheCreatorPrepares) {
  // The worker waits 1 → 31 for task 50 (created at 30) and 41 → 61 for task 51 (created at
  // 60): starved 29 + 19 µs. Its wait after 71 and the master's from 60 come after the last
  // creation. The last task starts at 61 and ends at 71, the master idle meanwhile: tail 10.
  const TaskFigures f = figures_of(testing::creator_with_preparation_log());
  EXPECT_EQ(f.tasks, 2u);
  EXPECT_US(f.body_s, 20);
  EXPECT_US(f.mean_body_s(), 10);
  EXPECT_US(f.thread_time_s, 2 * 80);
  EXPECT_US(f.starvation_s, 29 + 19);
  EXPECT_US(f.tail_idle_s, 10);
  EXPECT_US(f.end_idle_s, 0);  // two bodies of 10 on two threads end together
  EXPECT_TRUE(f.dispatch_gaps().empty());
  EXPECT_US(median(f.creation_gaps()), 30);
  EXPECT_EQ(f.creating_threads, 1u);
  EXPECT_US(f.work_s, 81);
  EXPECT_US(f.span_s, 70);
  EXPECT_US(f.creation_chain_s, 60);  // all of the master's work up to its last creation
  EXPECT_EQ(f.chain_tasks, 2u);
  EXPECT_US(f.graph_idle_s, 2 * 70 - 81);
}

TEST(TaskFigures, TheLastOfThreeTasksRunsWhileTheOtherThreadIdles) {
  // After task 51 starts at 43 nothing is left to hand out; the master idles 44 → 83. The
  // master took task 52 one µs after it existed, the worker task 51 one µs after task 50: two
  // dispatch gaps of 1 µs; the worker waited 0 → 1 for the first creation. Handed out in
  // creation order, the bodies 40, 40, 40 end at 40, 40 and 80: the team idles 2 × 80 − 120.
  const TaskFigures f = figures_of(testing::three_tasks_on_two_threads_log());
  EXPECT_EQ(f.tasks, 3u);
  EXPECT_US(f.mean_body_s(), 40);
  EXPECT_US(f.thread_time_s, 2 * 90);
  EXPECT_US(f.tail_idle_s, 39);
  EXPECT_US(f.end_idle_s, 40);
  EXPECT_US(f.starvation_s, 1);
  ASSERT_EQ(f.dispatch_gaps().size(), 2u);
  EXPECT_US(f.dispatch_s(), 1);
  EXPECT_US(median(f.creation_gaps()), 1);
}

TEST(TaskFigures, TheTaskCountRevealsTooFewTasksWhenASlowedThreadBalancedTheirBodies) {
  // Three equal tasks, but the master's ran twice as long (80 µs: the machine took its core
  // away) while the worker ran the other two (40 µs each): the measured bodies end together,
  // yet three tasks on two threads leave one slot of a median body (40) idle.
  using namespace testing;
  LogBuilder b(2, 100);
  task_scenario_detail::open_region(b);
  b.thread(0)
      .task_create(1, 50, 11, kTaskCode)
      .task_create(2, 51, 11, kTaskCode)
      .task_create(3, 52, 11, kTaskCode)
      .sync_begin(3, ompt_sync_region_taskwait)
      .task_schedule(4, 11, ompt_task_switch, 50)
      .task_schedule(84, 50, ompt_task_complete, 11)
      .sync_end(84, ompt_sync_region_taskwait)
      .sync_begin(84, task_scenario_detail::kSingleBarrier);
  b.thread(1)
      .sync_begin(0, task_scenario_detail::kSingleBarrier)
      .task_schedule(2, 12, ompt_task_switch, 51)
      .task_schedule(42, 51, ompt_task_complete, 12)
      .task_schedule(43, 12, ompt_task_switch, 52)
      .task_schedule(83, 52, ompt_task_complete, 12);
  task_scenario_detail::close_region(b, 85, 90);
  const TaskFigures f = figures_of(b.log());
  EXPECT_US(f.tail_idle_s, 1);   // measured: the worker waited 83 → 84
  EXPECT_US(f.end_idle_s, 40);   // (2 × ⌈3 / 2⌉ − 3) × 40
}

TEST(TaskFigures, TinyTasksLeaveDispatchGapsBetweenThem) {
  // Every task after the first was ready when the worker finished the one before: 19 gaps of
  // 2 µs between bodies of 1 µs.
  const TaskFigures f = figures_of(testing::twenty_tiny_tasks_log());
  EXPECT_EQ(f.tasks, 20u);
  EXPECT_EQ(f.recorded_tasks, 20u);
  EXPECT_US(f.mean_body_s(), 1);
  ASSERT_EQ(f.dispatch_gaps().size(), 19u);
  EXPECT_US(f.dispatch_s(), 2);
  EXPECT_US(f.starvation_s, 1);
  EXPECT_US(f.tail_idle_s, 1);
  EXPECT_US(f.end_idle_s, 0);  // ten bodies of 1 µs on each thread
  EXPECT_US(f.creation_chain_s, 20);
  EXPECT_EQ(f.chain_tasks, 20u);
  EXPECT_US(f.graph_idle_s, 2 * 21 - 41);
  EXPECT_US(median(f.creation_gaps()), 1);
}

TEST(TaskFigures, SampledTinyTasksGiveTheFiguresOfTheRunRecordedInFull) {
  // Eight tasks recorded, twelve counted in four batches of three, each batch timed as three
  // times the 1 µs body of the recorded tasks of the sampled phase. Only the three gaps between
  // recorded tasks of the prefix are dispatch gaps: after a batch, the dispatches of its tasks
  // are lumped together.
  const TaskFigures f = figures_of(testing::twenty_tiny_tasks_sampled_log());
  EXPECT_EQ(f.tasks, 20u);
  EXPECT_EQ(f.recorded_tasks, 8u);
  EXPECT_EQ(f.hidden_subtree_tasks, 0u);  // all created by the master's implicit task
  EXPECT_US(f.body_s, 20);
  EXPECT_US(f.mean_body_s(), 1);
  ASSERT_EQ(f.dispatch_gaps().size(), 3u);
  EXPECT_US(f.dispatch_s(), 2);
  EXPECT_US(f.starvation_s, 1);
  EXPECT_US(f.tail_idle_s, 1);
  EXPECT_US(f.end_idle_s, 0);
  EXPECT_US(f.creation_chain_s, 20);
  EXPECT_EQ(f.chain_tasks, 20u);  // the recorded creations' weights: 4 × 1 + 4 × 4
  EXPECT_US(f.work_s, 41);
  EXPECT_US(f.span_s, 21);
  EXPECT_US(median(f.creation_gaps()), 1);
}

TEST(TaskFigures, TasksTheCreatorRunsBetweenTwoCreationsAreNotCreationTime) {
  // libomp runs a new task at once when its queue is full: creation at 10, the task runs
  // 11 → 14, next creation at 15, run 16 → 19. No creation gap (a task ran between the two
  // creations): two immediate starts of 1 µs, creation and dispatch together.
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  testing::LogBuilder b(1, 100);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(0, 10, 2, 1, 0xA0)
      .implicit_begin(0, 10, 11, 1, 0)
      .task_create(10, 60, 11, 0xF1)
      .task_schedule(11, 11, ompt_task_switch, 60)
      .task_schedule(14, 60, ompt_task_complete, 11)
      .task_create(15, 61, 11, 0xF1)
      .task_schedule(16, 11, ompt_task_switch, 61)
      .task_schedule(19, 61, ompt_task_complete, 11)
      .sync_begin(20, join)
      .sync_end(30, join)
      .implicit_end(30, 10, 11, 0)
      .parallel_end(30, 10, 2, 0xA0)
      .thread_end(40);
  const TaskFigures f = figures_of(b.log());
  EXPECT_TRUE(f.creation_gaps().empty());
  ASSERT_EQ(f.immediate_starts.size(), 2u);
  EXPECT_US(f.immediate_starts[0], 1);
  EXPECT_US(f.immediate_starts[1], 1);
  EXPECT_US(f.body_s, 6);
}

TEST(TaskFigures, ATreePaysItsDispatchesInsideTheTaskwaitsOfItsTasks) {
  // two_level_tree_log: the waits inside task 100's own taskwait are the runtime's too.
  const TaskFigures f = figures_of(testing::two_level_tree_log());
  EXPECT_EQ(f.tasks, 3u);
  ASSERT_EQ(f.dispatch_gaps().size(), 3u);
  EXPECT_US(f.dispatch_gaps()[0], 1);  // 2 → 3: task 100, created at 1
  EXPECT_US(f.dispatch_gaps()[1], 1);  // 7 → 8: task 201
  EXPECT_US(f.dispatch_gaps()[2], 2);  // 9 → 11: task 200
  ASSERT_EQ(f.taskwait_gaps.size(), 1u);
  EXPECT_US(f.taskwait_gaps[0], 3);  // 12 → 15: both children done at 12
  ASSERT_EQ(f.creation_gaps().size(), 1u);
  EXPECT_US(f.creation_gaps()[0], 2);  // 4 → 6, all of it task 100's own work
  EXPECT_TRUE(f.immediate_starts.empty());  // each started after another creation or a wait
  EXPECT_US(f.starvation_s, 6);  // the worker, until the last creation
  // Depth 1: task 100, its own work 3 → 7 and 15 → 16; depth 2: its two children, 1 µs each.
  ASSERT_EQ(f.depths.size(), 2u);
  EXPECT_EQ(f.depths[0].recorded, 1);
  EXPECT_EQ(f.depths[0].tasks, 1);
  EXPECT_US(f.depths[0].own_work_s, 5);
  EXPECT_EQ(f.depths[0].waiting, 1);
  EXPECT_EQ(f.depths[0].leaves, 0);
  EXPECT_EQ(f.depths[1].recorded, 2);
  EXPECT_US(f.depths[1].own_work_s, 2);
  EXPECT_EQ(f.depths[1].leaves, 2);
  EXPECT_US(f.depths[1].leaf_own_work_s, 2);
  EXPECT_US(f.body_s, 5 + 2);
}

TEST(TaskFigures, ATaskwaitWaitsForTheChildrenCreatedBeforeItOnly) {
  // Task 100 waits after each creation (the pattern whose analysis was quadratic before the
  // children's running figures): 200 created at 4, run by the master in the taskwait 5 → 9 (6 → 7):
  // the 7 → 9 that follows is the taskwait's cost. 201 created at 10, run by the worker 12 → 19
  // while the master waits 11 → 20: waiting for a child, no cost. 202 created at 21 (after that
  // taskwait), run by the master 23 → 24 in the taskwait 22 → 26: 24 → 26, both earlier children
  // long done, is the taskwait's cost again.
  using namespace testing::task_scenario_detail;
  testing::LogBuilder b(2, 100);
  open_region(b);
  b.thread(0)
      .task_create(1, 100, 11, testing::kTaskCode)
      .sync_begin(2, ompt_sync_region_taskwait)
      .task_schedule(3, 11, ompt_task_switch, 100)
      .task_create(4, 200, 100, testing::kTaskCode + 1)
      .sync_begin(5, ompt_sync_region_taskwait)
      .task_schedule(6, 100, ompt_task_switch, 200)
      .task_schedule(7, 200, ompt_task_complete, 100)
      .sync_end(9, ompt_sync_region_taskwait)
      .task_create(10, 201, 100, testing::kTaskCode + 1)
      .sync_begin(11, ompt_sync_region_taskwait)
      .sync_end(20, ompt_sync_region_taskwait)
      .task_create(21, 202, 100, testing::kTaskCode + 1)
      .sync_begin(22, ompt_sync_region_taskwait)
      .task_schedule(23, 100, ompt_task_switch, 202)
      .task_schedule(24, 202, ompt_task_complete, 100)
      .sync_end(26, ompt_sync_region_taskwait)
      .task_schedule(27, 100, ompt_task_complete, 11)
      .sync_end(28, ompt_sync_region_taskwait)
      .sync_begin(28, kSingleBarrier);
  b.thread(1)
      .sync_begin(0, kSingleBarrier)
      .task_schedule(12, 12, ompt_task_switch, 201)
      .task_schedule(19, 201, ompt_task_complete, 12);
  close_region(b, 30, 32);
  const TaskFigures f = figures_of(b.log());
  EXPECT_EQ(f.tasks, 4u);
  ASSERT_EQ(f.taskwait_gaps.size(), 2u);
  EXPECT_US(f.taskwait_gaps[0], 2);  // 7 → 9
  EXPECT_US(f.taskwait_gaps[1], 2);  // 24 → 26
}

TEST(TaskFigures, ATaskwaitAfterEachOfManyCreationsWaitsForTheChildrenBeforeIt) {
  // The same pattern with 20 children (more than ChildrenBefore reads in place: its running
  // prefixes): task 100 creates 200 + k at 4 + 10k and waits at once; the master runs each child
  // in that taskwait and the taskwait ends 2 us after the child, its cost, except child 210, which
  // the worker runs while the master waits for it (no cost).
  using namespace testing::task_scenario_detail;
  testing::LogBuilder b(2, 100);
  open_region(b);
  testing::Stream master = b.thread(0);  // writes into the log's thread 0
  master.task_create(1, 100, 11, testing::kTaskCode)
      .sync_begin(2, ompt_sync_region_taskwait)
      .task_schedule(3, 11, ompt_task_switch, 100);
  constexpr int kChildren = 20, kStolen = 10;
  for (int k = 0; k < kChildren; ++k) {
    const uint64_t t = 4 + 10 * k;
    const uint64_t child = 200 + k;
    master.task_create(t, child, 100, testing::kTaskCode + 1).sync_begin(t + 1, ompt_sync_region_taskwait);
    if (k == kStolen) {
      master.sync_end(t + 8, ompt_sync_region_taskwait);
      continue;
    }
    master.task_schedule(t + 2, 100, ompt_task_switch, child)
        .task_schedule(t + 3, child, ompt_task_complete, 100)
        .sync_end(t + 5, ompt_sync_region_taskwait);
  }
  const uint64_t end = 4 + 10 * kChildren;
  master.task_schedule(end + 1, 100, ompt_task_complete, 11)
      .sync_end(end + 2, ompt_sync_region_taskwait)
      .sync_begin(end + 2, kSingleBarrier);
  const uint64_t stolen_at = 4 + 10 * kStolen;
  b.thread(1)
      .sync_begin(0, kSingleBarrier)
      .task_schedule(stolen_at + 2, 12, ompt_task_switch, 200 + kStolen)
      .task_schedule(stolen_at + 7, 200 + kStolen, ompt_task_complete, 12);
  close_region(b, end + 4, end + 6);
  const TaskFigures f = figures_of(b.log());
  EXPECT_EQ(f.tasks, 1u + kChildren);
  ASSERT_EQ(f.taskwait_gaps.size(), static_cast<size_t>(kChildren - 1));
  for (double gap : f.taskwait_gaps) EXPECT_US(gap, 2);
}

TEST(TaskFigures, ATiedTaskWaitingForAStolenChildIsNotPayingADispatch) {
  // tied_task_waits_for_a_stolen_child_log: a tied task in its taskwait may take only its own
  // descendants, so the master's 16 µs before it takes 300 from the worker's queue is waiting
  // under that constraint, not the runtime's cost of a dispatch. The two tasks it took from its
  // own queue are dispatches (2 → 3: task 100 in the implicit task's taskwait; 6 → 7: task 201).
  const TaskFigures tied = figures_of(testing::tied_task_waits_for_a_stolen_child_log(ompt_task_explicit));
  EXPECT_EQ(tied.tasks, 4u);
  ASSERT_EQ(tied.dispatch_gaps().size(), 2u);
  EXPECT_US(tied.dispatch_gaps()[0], 1);
  EXPECT_US(tied.dispatch_gaps()[1], 1);
  EXPECT_TRUE(tied.taskwait_gaps.empty());  // 26 → 31 waits for 200, still running on the worker
  // An untied task is not constrained: its wait ends in a dispatch.
  const TaskFigures untied =
      figures_of(testing::tied_task_waits_for_a_stolen_child_log(ompt_task_explicit | ompt_task_untied));
  std::vector<double> gaps = untied.dispatch_gaps();  // by site: 300's is another construct's
  ASSERT_EQ(gaps.size(), 3u);
  std::sort(gaps.begin(), gaps.end());
  EXPECT_US(gaps[0], 1);
  EXPECT_US(gaps[1], 1);
  EXPECT_US(gaps[2], 16);
}

TEST(TaskFigures, LightTasksTakeTheRecordedTasksOwnWorkNotTheirWaits) {
  // sampled_tree_whose_recorded_tasks_wait_log: the recorded tasks' own work is 3 and 8 µs (task
  // 100 ran 13 µs, 10 of them idle in its taskwait), so each light task is timed 5.5 µs, not
  // (13 + 8) / 2 = 10.5: the batch runs 15 → 26, and the worker waits in the barrier until 30.
  const Timeline t = build_timeline(testing::sampled_tree_whose_recorded_tasks_wait_log());
  const TaskInstance* batch = nullptr;
  for (const TaskInstance& task : t.tasks)
    if (task.light) batch = &task;
  ASSERT_NE(batch, nullptr);
  EXPECT_EQ(batch->light, 2u);
  ASSERT_EQ(batch->fragments.size(), 1u);
  EXPECT_US(batch->fragments[0].begin, 15);
  EXPECT_US(batch->fragments[0].end, 26);
  const TaskFigures f = figures_of(testing::sampled_tree_whose_recorded_tasks_wait_log());
  EXPECT_EQ(f.tasks, 4u);
  EXPECT_US(f.body_s, 3 + 8 + 11);
}

TEST(TaskFigures, InstancesAddUpAndPoolTheirDispatchGaps) {
  TaskFigures a = figures_of(testing::three_tasks_on_two_threads_log());
  const TaskFigures b = figures_of(testing::twenty_tiny_tasks_log());
  add_task_figures(a, b);
  EXPECT_EQ(a.tasks, 23u);
  EXPECT_US(a.thread_time_s, 360);
  EXPECT_US(a.tail_idle_s, 40);
  EXPECT_US(a.end_idle_s, 40);
  EXPECT_EQ(a.dispatch_gaps().size(), 21u);
  EXPECT_US(a.dispatch_s(), 2);  // median of two 1s and nineteen 2s
  EXPECT_US(a.span_s, 43 + 21);
}

TEST(TaskFigures, ARegionWithoutTasksHasNone) {
  const Timeline t = build_timeline(testing::two_thread_loop_log());
  const TaskFigures f = task_figures(t.regions.at(0), {});
  EXPECT_EQ(f.tasks, 0u);
  EXPECT_EQ(f.thread_time_s, 0);
  EXPECT_TRUE(f.creation_gaps().empty());
}

TEST(TaskFigures, AWaitForATasksPredecessorsIsNoDispatch) {
  // one_chain_log(3): the master waits 4 → 40 for task 51, created at 2 but ready only when 50
  // completed at 40; the worker waits 40 → 70 for 52, ready at 70: 66 µs waiting for the
  // dependences, none of it a dispatch gap (read as two dispatches of 36 and 30 µs before). The
  // worker's 0 → 1 before the first creation is starvation.
  const TaskFigures f = figures_of(testing::one_chain_log(3));
  EXPECT_TRUE(f.dispatch_gaps().empty());
  EXPECT_US(f.dependence_wait_s, 66);
  EXPECT_US(f.dependence_path_wait_s, 66);  // 51 and 52 are on the path: the chain starved both threads
  // Per creation site: its three tasks, one depend item each; each next one created 1 µs after
  // the one before; no dispatch, and no release either (each started the moment its
  // predecessor completed).
  const SiteFigures& site = f.sites_by_code.at(testing::kTaskCode);
  EXPECT_EQ(site.recorded, 3);
  EXPECT_EQ(site.depend_items, 3);
  ASSERT_EQ(site.creation_gaps.size(), 2u);
  EXPECT_US(site.creation_gaps[0], 1);
  EXPECT_TRUE(site.dispatch_gaps.empty());
  EXPECT_TRUE(site.release_gaps.empty());
  EXPECT_US(f.starvation_s, 1);
  EXPECT_EQ(f.tasks_with_depends, 3u);
  EXPECT_EQ(f.dependence_edges, 2u);
  EXPECT_US(f.dependence_path_s, 90);
  EXPECT_EQ(f.dependence_path_tasks, 3);
  EXPECT_EQ(f.dependence_path_output_edges, 2);
  ASSERT_EQ(f.path_sites.size(), 1u);
  EXPECT_EQ(f.path_sites[0].codeptr, testing::kTaskCode);
  EXPECT_EQ(f.path_sites[0].tasks, 3);
  EXPECT_US(f.path_sites[0].time_s, 90);
  EXPECT_US(f.span_s, 91);
  EXPECT_US(f.graph_idle_s, 2 * 91 - 94);
}

TEST(TaskFigures, ATasksReleaseRunsFromItsLastPredecessorsCompletionToItsStartOnAThreadWaitingForIt) {
  // Two tasks of one site on one address, inout: 50 on the worker 10 → 40; the master, in the
  // single's barrier from 3, starts 51 at 43: it waited 3 → 40 for the dependence (on the path)
  // and 3 µs for the runtime to release 51 and hand it over.
  using namespace testing::task_scenario_detail;
  testing::LogBuilder b(2, 200);
  open_region(b);
  auto master = b.thread(0), worker = b.thread(1);
  worker.sync_begin(0, kSingleBarrier);
  master.task_create(1, 50, 11, testing::kTaskCode)
      .depends(1, 50, testing::kChainAddress, ompt_dependence_type_inout)
      .task_create(2, 51, 11, testing::kTaskCode)
      .depends(2, 51, testing::kChainAddress, ompt_dependence_type_inout)
      .task_dependence(2, 50, 51)
      .sync_begin(3, kSingleBarrier)
      .task_schedule(43, 11, ompt_task_switch, 51)
      .task_schedule(73, 51, ompt_task_complete, 11);
  worker.task_schedule(10, 12, ompt_task_switch, 50).task_schedule(40, 50, ompt_task_complete, 12);
  close_region(b, 73, 83);
  const TaskFigures f = figures_of(b.log());
  EXPECT_US(f.dependence_wait_s, 37);
  EXPECT_US(f.dependence_path_wait_s, 37);
  const SiteFigures& site = f.sites_by_code.at(testing::kTaskCode);
  ASSERT_EQ(site.release_gaps.size(), 1u);
  EXPECT_US(site.release_gaps[0], 3);
  EXPECT_EQ(site.depend_items, 2);
}

// The replay's sample (kReplayedInstances): every instance of a region up to it; beyond, exactly
// one in each block of consecutive instances, spread over the run; and a program whose instances
// alternate two shapes gets both in about equal numbers, where a fixed stride of 2 would take one.
TEST(ReplaySample, EveryInstanceUpToTheLimitThenOneInEachBlock) {
  for (size_t n : {size_t{1}, size_t{1000}, kReplayedInstances})
    for (size_t i = 0; i < n; ++i) ASSERT_TRUE(replayed_in_sample(i, n)) << i << " of " << n;
  for (size_t n : {kReplayedInstances + 1, size_t{9000}, size_t{147059}}) {
    const size_t block = (n + kReplayedInstances - 1) / kReplayedInstances;
    size_t taken = 0, even = 0;
    for (size_t first = 0; first < n; first += block) {
      size_t in_block = 0;
      for (size_t i = first; i < std::min(n, first + block); ++i)
        if (replayed_in_sample(i, n)) {
          ++in_block;
          even += i % 2 == 0;
        }
      ASSERT_EQ(in_block, 1u) << "block from " << first << " of " << n;
      ++taken;
    }
    EXPECT_LE(taken, kReplayedInstances);
    if (block % 2 == 0) {  // a stride of the block's length would see one parity only
      EXPECT_GT(even, taken * 2 / 5) << n;
      EXPECT_LT(even, taken * 3 / 5) << n;
    }
  }
}

// The sample's replayed times scaled by the wall time of all the region's instances over the
// sample's; nothing changes where the sample is every instance.
TEST(ReplaySample, ReplayedTimesScaledFromTheSampleToAllInstances) {
  TaskFigures f;
  f.task_instances = 10;
  f.replayed_instances = 2;
  f.task_instances_wall_s = 5.0;
  f.replayed_wall_s = 1.0;
  f.replay_s = {{2, 0.9}, {4, 0.6}};
  f.replay_body_s = {{2, 0.8}, {4, 0.5}};
  scale_replay_to_all(f);
  EXPECT_DOUBLE_EQ(f.replay_s.at(2), 4.5);
  EXPECT_DOUBLE_EQ(f.replay_s.at(4), 3.0);
  EXPECT_DOUBLE_EQ(f.replay_body_s.at(4), 2.5);
  TaskFigures all = f;
  all.replayed_instances = all.task_instances;
  scale_replay_to_all(all);
  EXPECT_EQ(all.replay_s, f.replay_s);
}

}  // namespace
}  // namespace ompscope::analysis
