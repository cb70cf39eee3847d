// task_graph_size: the work and span of an instance's task graph (task_graph.h). Work is every
// task's own work; span the longest chain of own work through creations, taskwaits (children),
// taskgroups (all descendants) and barriers (everything created before them).
#include "analysis/task_graph.h"

#include <gtest/gtest.h>

#include "analysis/task_figures.h"
#include "event_log_builder.h"
#include "scenarios.h"
#include "task_scenarios.h"

namespace ompscope::analysis {
namespace {

using testing::LogBuilder;

TaskGraphSize graph_of(const RunLog& log) {
  const Timeline t = build_timeline(log);
  std::vector<const TaskInstance*> tasks;
  for (const TaskInstance& task : t.tasks) tasks.push_back(&task);
  EXPECT_EQ(t.regions.size(), 1u);
  return task_graph_size(task_nodes(t.regions.at(0), tasks));
}

TEST(TaskGraph, ACreatorsSerialPreparationIsOnTheSpan) {
  // The master's 60 µs of preparation and creation, then the last task (10 µs) created at its
  // end: span 70; work 60 + the worker's 1 µs before its barrier + two bodies of 10.
  const TaskGraphSize g = graph_of(testing::creator_with_preparation_log());
  EXPECT_US(g.work_s, 81);
  EXPECT_US(g.span_s, 70);
  EXPECT_NEAR(g.parallelism(), 81.0 / 70.0, 1e-9);
}

TEST(TaskGraph, ThreeEqualTasksOfferParallelismNearThree) {
  // Created at 1, 2 and 3 µs of the master's work, 40 µs each: the last ends at 43 on the
  // ideal clock. Work 3 + 3 × 40.
  const TaskGraphSize g = graph_of(testing::three_tasks_on_two_threads_log());
  EXPECT_US(g.work_s, 123);
  EXPECT_US(g.span_s, 43);
}

TEST(TaskGraph, TinyTasksAreBoundByTheirCreator) {
  // Twenty 1 µs tasks created one per µs: the creator's 21 µs are the span.
  const TaskGraphSize g = graph_of(testing::twenty_tiny_tasks_log());
  EXPECT_US(g.work_s, 21 + 20);
  EXPECT_US(g.span_s, 21);
}

TEST(TaskGraph, AChildsChainRunsThroughItsParentsTaskwaitAndTheBarrier) {
  // One thread. The implicit task works 50 → 60, creates T (80), works to the barrier at 100,
  // and 200 → 300 after it. T works 5 µs, creates C (81, 20 µs), works 5 more, waits for C in
  // its taskwait, then works 10. Ideal clock: T starts at 10, C runs 15 → 35, T resumes at 35
  // and ends at 45; the barrier opens at max(50, 45) = 50; 100 µs more: span 150.
  const RunLog log = testing::task_with_taskwait_in_barrier_log();
  const TaskGraphSize g = graph_of(log);
  EXPECT_US(g.work_s, 150 + 20 + 20);
  EXPECT_US(g.span_s, 150);
}

// One thread: the implicit task works 0 → 20 (creating T, 60, at 10), waits in `kind` 20 → 70
// while T (20 → 30) creates G (61) at 25 and G runs 30 → 60; it works 70 → 90, then the join
// barrier. Ideal clock: T 10 → 20 with G created at 15, G 15 → 45.
RunLog grandchild_log(ompt_sync_region_t kind) {
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(1, 200);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(0, 10, 2, 1, 0xA0)
      .implicit_begin(0, 10, 11, 1, 0)
      .task_create(10, 60, 11, 0xF1)
      .sync_begin(20, kind)
      .task_schedule(20, 11, ompt_task_switch, 60)
      .task_create(25, 61, 60, 0xF2)
      .task_schedule(30, 60, ompt_task_complete, 61)
      .task_schedule(60, 61, ompt_task_complete, 11)
      .sync_end(70, kind)
      .sync_begin(90, join)
      .sync_end(100, join)
      .implicit_end(100, 10, 11, 0)
      .parallel_end(100, 10, 2, 0xA0)
      .thread_end(110);
  return b.log();
}

TEST(TaskGraph, ATaskgroupWaitsForGrandchildren) {
  // The taskgroup opens at 45 (G's end); 20 µs more work: span 65.
  const TaskGraphSize g = graph_of(grandchild_log(ompt_sync_region_taskgroup));
  EXPECT_US(g.work_s, 40 + 10 + 30);
  EXPECT_US(g.span_s, 65);
}

TEST(TaskGraph, ATaskwaitWaitsOnlyForChildrenButTheBarrierWaitsForAll) {
  // The taskwait opens at 20 (T's end); the implicit task ends its work at 40, G at 45, and the
  // join barrier waits for G: span 45.
  const TaskGraphSize g = graph_of(grandchild_log(ompt_sync_region_taskwait));
  EXPECT_US(g.work_s, 40 + 10 + 30);
  EXPECT_US(g.span_s, 45);
}

TEST(TaskGraph, AChainOfNestedTasksAsDeepAsTheProgramMadeItIsWalkedWithoutRecursion) {
  // One thread. Task k (1..D) works 1 µs, creates task k+1 and runs it at once (undeferred),
  // then works 1 µs more after it: task k's first µs ends at k, its last at 2D − k + 1. The
  // chain is the span: task D starts at D − 1 on the ideal clock and ends at D + 1.
  constexpr uint32_t kDepth = 100000;
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(1, 3 * kDepth);
  testing::Stream s = b.thread(0);
  s.thread_begin(0).initial_task(0, 1, 2).parallel_begin(0, 10, 2, 1, 0xA0).implicit_begin(0, 10, 11, 1, 0);
  s.task_create(0, 100001, 11, 0xF1).task_schedule(0, 11, ompt_task_switch, 100001);
  for (uint32_t k = 1; k < kDepth; ++k)
    s.task_create(k, 100000 + k + 1, 100000 + k, 0xF1).task_schedule(k, 100000 + k, ompt_task_switch, 100000 + k + 1);
  for (uint32_t k = kDepth; k > 1; --k)
    s.task_schedule(2 * kDepth - k + 1, 100000 + k, ompt_task_complete, 100000 + k - 1);
  s.task_schedule(2 * kDepth, 100001, ompt_task_complete, 11)
      .sync_begin(2 * kDepth, join)
      .sync_end(2 * kDepth + 1, join)
      .implicit_end(2 * kDepth + 1, 10, 11, 0)
      .parallel_end(2 * kDepth + 1, 10, 2, 0xA0)
      .thread_end(2 * kDepth + 2);
  const TaskGraphSize g = graph_of(b.log());
  EXPECT_US(g.work_s, 2 * kDepth);
  EXPECT_US(g.span_s, kDepth + 1);
}

TEST(TaskGraph, AnInstanceWithoutTasksHasTheLongestThreadAsItsSpan) {
  // The loop region of scenarios.h: no explicit tasks; master works 102 → 300 and 320 → 400
  // (278 µs), the worker 104 → 200 and 310 → 350 (136 µs); the barrier releases both at the
  // master's 198 µs, after which the master works 80 more.
  const Timeline t = build_timeline(testing::two_thread_loop_log());
  const TaskGraphSize g = task_graph_size(task_nodes(t.regions.at(0), {}));
  EXPECT_US(g.work_s, 278 + 136);
  EXPECT_US(g.span_s, 198 + 80);
}

// --- dependences (docs/tasks.md, "Dependences") ---------------------------------------------------

TaskInstance with_depends(std::vector<TaskDependenceItem> items) {
  TaskInstance t;
  for (const TaskDependenceItem& item : items) t.add_depend(item);
  return t;
}

std::vector<std::vector<std::pair<size_t, DependenceKind>>> edges_of(const std::vector<TaskInstance>& tasks) {
  std::vector<const TaskInstance*> siblings;
  for (const TaskInstance& t : tasks) siblings.push_back(&t);
  std::vector<std::vector<std::pair<size_t, DependenceKind>>> out;
  for (const auto& edges : dependence_edges(siblings)) {
    out.emplace_back();
    for (const DependenceEdge& e : edges) out.back().push_back({e.from, e.kind});
  }
  return out;
}

using Edges = std::vector<std::pair<size_t, DependenceKind>>;

TEST(TaskDependences, TheLastWriterBeforeItsReadersAndTheReadersBeforeTheNextWriter) {
  // On x: 0 out, 1 in, 2 in, 3 inout, 4 in, 5 out (after the reader 4 only), 6 inout (after 5).
  constexpr uint64_t x = 0x1000;
  const std::vector<TaskInstance> tasks = {
      with_depends({{x, ompt_dependence_type_out}}),   with_depends({{x, ompt_dependence_type_in}}),
      with_depends({{x, ompt_dependence_type_in}}),    with_depends({{x, ompt_dependence_type_inout}}),
      with_depends({{x, ompt_dependence_type_in}}),    with_depends({{x, ompt_dependence_type_out}}),
      with_depends({{x, ompt_dependence_type_inout}})};
  const auto e = edges_of(tasks);
  EXPECT_EQ(e[0], Edges{});
  EXPECT_EQ(e[1], (Edges{{0, DependenceKind::Flow}}));
  EXPECT_EQ(e[2], (Edges{{0, DependenceKind::Flow}}));
  EXPECT_EQ(e[3], (Edges{{1, DependenceKind::Anti}, {2, DependenceKind::Anti}}));
  EXPECT_EQ(e[4], (Edges{{3, DependenceKind::Flow}}));
  EXPECT_EQ(e[5], (Edges{{4, DependenceKind::Anti}}));
  EXPECT_EQ(e[6], (Edges{{5, DependenceKind::Output}}));
}

TEST(TaskDependences, AddressesAreApartSetsRunTogetherAndDoacrossItemsAreNone) {
  // 0 out x; 1 out y; 2 in x, in y (one edge each); 3 and 4 inoutset y wait for 2 (a reader of y)
  // but not for each other; 5 in y waits for both; 6 sink x is no task dependence.
  constexpr uint64_t x = 0x1000, y = 0x2000;
  const std::vector<TaskInstance> tasks = {
      with_depends({{x, ompt_dependence_type_out}}),
      with_depends({{y, ompt_dependence_type_out}}),
      with_depends({{x, ompt_dependence_type_in}, {y, ompt_dependence_type_in}}),
      with_depends({{y, ompt_dependence_type_inoutset}}),
      with_depends({{y, ompt_dependence_type_inoutset}}),
      with_depends({{y, ompt_dependence_type_in}}),
      with_depends({{x, ompt_dependence_type_sink}})};
  const auto e = edges_of(tasks);
  EXPECT_EQ(e[1], Edges{});
  EXPECT_EQ(e[2], (Edges{{0, DependenceKind::Flow}, {1, DependenceKind::Flow}}));
  EXPECT_EQ(e[3], (Edges{{2, DependenceKind::Anti}}));
  EXPECT_EQ(e[4], (Edges{{2, DependenceKind::Anti}}));
  EXPECT_EQ(e[5], (Edges{{3, DependenceKind::Flow}, {4, DependenceKind::Flow}}));
  EXPECT_EQ(e[6], Edges{});
}

TEST(TaskGraph, AOneChainIsItsOwnSpanWhateverTheThreads) {
  // three_tasks of 30 µs, each depend(inout) on the one before, created at 1, 2, 3 µs: on the
  // ideal clock 1 → 31, 31 → 61, 61 → 91 (without the dependences: all three from their
  // creation, a span of 33). Work: the master's 4 µs before its barrier + 90.
  const TaskGraphSize g = graph_of(testing::one_chain_log(3));
  EXPECT_US(g.work_s, 94);
  EXPECT_US(g.span_s, 91);
  EXPECT_EQ(g.dependence_edges, 2u);
  EXPECT_US(g.dependence_path_s, 90);
  ASSERT_EQ(g.dependence_path.size(), 3u);
  ASSERT_EQ(g.dependence_path_durations.size(), 3u);
  EXPECT_US(g.dependence_path_durations[1], 30);
  EXPECT_EQ(g.dependence_path_kinds, (std::vector<DependenceKind>{DependenceKind::Output, DependenceKind::Output}));
}

TEST(TaskGraph, TheRuntimesOwnEdgesOrderTasksWithoutTheirClauses) {
  // The same chain with only ompt_callback_task_dependence's edges recorded; and with neither,
  // the tasks are independent: a span of the last one's creation + 30.
  const TaskGraphSize runtime = graph_of(testing::one_chain_log(3, false, true));
  EXPECT_US(runtime.span_s, 91);
  EXPECT_EQ(runtime.dependence_edges, 2u);
  const TaskGraphSize none = graph_of(testing::one_chain_log(3, false, false));
  EXPECT_US(none.span_s, 33);
  EXPECT_EQ(none.dependence_edges, 0u);
  EXPECT_TRUE(none.dependence_path.empty());
  EXPECT_EQ(none.dependence_path_s, 0);
}

// One thread ran ten leaf tasks of one construct, 50 µs each, one after the other, where the
// sixth was stretched by a scheduler's round (the thread switched out 500 µs in it, as the
// kernel's accounting of the instance says): the graph's task work is 10 × 50 µs, as on a quiet
// run. Where the kernel says the thread was off the CPU only 200 µs, only that comes out (the
// sixth keeps 350 µs); with no time off the CPU read, nothing does.
RegionInstance ten_bodies_one_stretched(std::vector<TaskInstance>& tasks) {
  RegionInstance r;
  r.parallel_id = 10;
  r.team_size = 1;
  r.begin = 0;
  r.end = 2000e-6;
  ThreadInRegion part;
  part.thread = 0;
  part.implicit_task = 11;
  part.start = 0;
  part.end = 2000e-6;
  r.threads.push_back(part);
  double at = 100e-6;
  for (uint32_t k = 0; k < 10; ++k) {
    TaskInstance t;
    t.id = 50 + k;
    t.parent = 11;
    t.parallel_id = 10;
    t.codeptr = 0xF1;
    t.created = (1 + k) * 1e-6;
    const double body = k == 5 ? 550e-6 : 50e-6;
    t.fragments.push_back({0, at, at + body});
    t.completed = at + body;
    at += body + 10e-6;
    tasks.push_back(t);
  }
  return r;
}

TEST(TaskGraph, TimeOffTheCpuInABodyIsNoTasksWork) {
  std::vector<TaskInstance> tasks;
  RegionInstance r = ten_bodies_one_stretched(tasks);
  std::vector<const TaskInstance*> list;
  for (const TaskInstance& t : tasks) list.push_back(&t);
  const auto task_work = [&](const TaskNodes& g) {
    double sum = 0;
    for (size_t i = g.implicit_count; i < g.nodes.size(); ++i) sum += g.nodes[i].own_work.total();
    return sum;
  };
  const TaskNodes unread = task_nodes(r, list);
  EXPECT_US(task_work(unread), 9 * 50 + 550);

  r.threads[0].write_usage() = WorkUsage{2000e-6, 1500e-6, 0, 0, 0, /*switches*/ 3};  // 500 µs off, involuntarily
  const TaskNodes off = task_nodes(r, list);
  EXPECT_US(task_work(off), 10 * 50);
  EXPECT_US(off.nodes[off.implicit_count + 5].own_work.total(), 50);
  const TaskGraphSize quiet = task_graph_size(off), noisy = task_graph_size(unread);
  EXPECT_US(noisy.work_s - quiet.work_s, 500);
  // What was taken out stays the tasks' time, by their construct, for task_inflation to count.
  EXPECT_TRUE(unread.off_cpu_taken.empty());
  ASSERT_EQ(off.off_cpu_taken.size(), 1u);
  EXPECT_US(off.off_cpu_taken.at(0xF1), 500);
  EXPECT_US(task_figures(r, list).sites_by_code.at(0xF1).off_cpu_taken_s, 500);

  r.threads[0].write_usage() = WorkUsage{2000e-6, 1800e-6, 0, 0, 0, 3};  // 200 µs off
  EXPECT_US(task_nodes(r, list).nodes[1 + 5].own_work.total(), 350);
  // A voluntary sleep (no involuntary switch in the work stretches) is not taken out.
  r.threads[0].write_usage() = WorkUsage{2000e-6, 1500e-6, 0, 0, 0, 0};
  EXPECT_US(task_work(task_nodes(r, list)), 9 * 50 + 550);
  // Nor in the barrier visits' accounting, which counts only involuntary time off the CPU.
  r.threads[0].write_task_visits().usage = {600e-6, 100e-6, 0, 0, 0, 1};  // 500 µs off
  EXPECT_US(task_work(task_nodes(r, list)), 10 * 50);
}

TEST(TaskGraph, ABodyReadAtItsEdgesLosesWhatItsReadingsSayHoweverFewTheBodies) {
  // Three bodies of one construct (coarse_tasks), too few for a median: the second read 129 µs
  // at its edges, 45 of them switched out. It loses those 45 µs, the kernel's word for that body,
  // whether or not the instance's accounting was read; its siblings keep theirs.
  std::vector<TaskInstance> tasks;
  RegionInstance r = ten_bodies_one_stretched(tasks);
  tasks.resize(3);
  tasks[1].fragments = {{0, 200e-6, 329e-6, 45e-6f}};
  std::vector<const TaskInstance*> list;
  for (const TaskInstance& t : tasks) list.push_back(&t);
  for (const bool accounting_read : {false, true}) {
    if (accounting_read) r.threads[0].write_task_visits().usage = {600e-6, 500e-6, 0, 0, 0, 2};  // 100 µs off
    const TaskNodes g = task_nodes(r, list);
    EXPECT_US(g.nodes[g.implicit_count + 0].own_work.total(), 50) << accounting_read;
    EXPECT_NEAR(g.nodes[g.implicit_count + 1].own_work.total(), (129 - 45) * 1e-6, 1e-9) << accounting_read;
    EXPECT_US(g.nodes[g.implicit_count + 2].own_work.total(), 50) << accounting_read;
    EXPECT_NEAR(g.off_cpu_taken.at(0xF1), 45e-6, 1e-9) << accounting_read;
  }
  // Among ten bodies, a read one loses what it measured, not the excess over the median that
  // the thread's accounting would allow: the sixth (550 µs) read 300 µs off, the thread 500.
  tasks.clear();
  r = ten_bodies_one_stretched(tasks);
  tasks[5].fragments[0].off_cpu_s = 300e-6f;
  list.clear();
  for (const TaskInstance& t : tasks) list.push_back(&t);
  r.threads[0].write_usage() = WorkUsage{2000e-6, 1500e-6, 0, 0, 0, 3};
  const TaskNodes g = task_nodes(r, list);
  EXPECT_NEAR(g.nodes[g.implicit_count + 5].own_work.total(), 250e-6, 1e-9);  // held as a float: 7 digits
  EXPECT_NEAR(g.off_cpu_taken.at(0xF1), 300e-6, 1e-9);
}

}  // namespace
}  // namespace ompscope::analysis
