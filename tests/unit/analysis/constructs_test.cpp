// The construct tree (docs/source-locations.md, "Constructs inside a region"): each thread's time
// in a region charged to the construct it was in, the barrier after a loop to the loop, tasks
// under the barrier or taskwait they ran in; the region's causes shared out to the constructs
// that carry them. Hand-built logs, exact numbers.
#include "analysis/constructs.h"
#include "analysis/construct_report.h"

#include <omp-tools.h>

#include <gtest/gtest.h>

#include <algorithm>

#include <stdexcept>
#include <string>

#include "analysis/build_report.h"
#include "analysis/region_causes.h"
#include "analysis/repeats.h"
#include "analysis/statistics.h"
#include "analysis/team_work.h"
#include "event_log_builder.h"
#include "scenarios.h"

namespace ompscope::analysis {
namespace {

using testing::LogBuilder;

const Problem* problem(const std::vector<Problem>& problems, const char* kind) {
  for (const Problem& p : problems)
    if (p.kind == kind) return &p;
  return nullptr;
}

const RegionReport& parallel_region(const Report& report) {
  for (const RegionReport& r : report.regions)
    if (r.kind == report::RegionKind::kParallel) return r;
  throw std::runtime_error("no parallel region");
}

Report report_of(const RunLog& log, int threads) {
  Symbolizer symbols({});  // no module map: constructs are named by address
  MeasuredRun run;
  run.record.threads = threads;
  run.analysis = analyze_run(build_timeline(log), log.meta, symbols);
  return build_report({"./app"}, 2, {run});
}

// Region 10 (100 → 420) at 2 threads runs loop 0xA1 then loop 0xA2, each ending in its
// implicit barrier (0xB1, 0xB2), then the join barrier.
//   loop 0xA1: thread 0 100 → 240, barrier 240 → 250; thread 1 100 → 250, barrier 250 → 250
//              segments 140 and 150: imbalance 150 − 145 = 5
//   loop 0xA2: thread 0 250 → 300, barrier 300 → 400; thread 1 250 → 400, barrier 400 → 400
//              segments 50 and 150: imbalance 150 − 100 = 50
//   join 400 → 410 on both (segments 0: no imbalance), implicit tasks end 410, region 420.
RunLog three_phase_log() {
  const auto loop = ompt_sync_region_barrier_implicit_workshare;
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(2, 1000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(100, 10, 2, 2, 0x4000)
      .implicit_begin(100, 10, 11, 2, 0)
      .work_begin(100, ompt_work_loop, 0xA1)
      .work_end(240, ompt_work_loop, 0xA1)
      .sync_begin(240, loop, 0xB1)
      .sync_end(250, loop, 0xB1)
      .work_begin(250, ompt_work_loop, 0xA2)
      .work_end(300, ompt_work_loop, 0xA2)
      .sync_begin(300, loop, 0xB2)
      .sync_end(400, loop, 0xB2)
      .sync_begin(400, join, 0x4000)
      .sync_end(410, join, 0x4000)
      .implicit_end(410, 10, 11, 0)
      .parallel_end(420, 10, 2, 0x4000)
      .initial_task_end(1000, 1, 2)
      .thread_end(1000);
  b.thread(1)
      .thread_begin(50, ompt_thread_worker)
      .implicit_begin(100, 10, 12, 2, 1)
      .work_begin(100, ompt_work_loop, 0xA1)
      .work_end(250, ompt_work_loop, 0xA1)
      .sync_begin(250, loop, 0xB1)
      .sync_end(250, loop, 0xB1)
      .work_begin(250, ompt_work_loop, 0xA2)
      .work_end(400, ompt_work_loop, 0xA2)
      .sync_begin(400, loop, 0xB2)
      .sync_end(400, loop, 0xB2)
      .sync_begin(400, join, 0)
      .sync_end(410, join, 0)
      .implicit_end(410, 0, 12, 1)
      .thread_end(1001);
  return b.log();
}

TEST(Constructs, EachLoopOwnsTheBarrierAfterItAndTheTimesAddUpToTheRegion) {
  const Report report = report_of(three_phase_log(), 2);
  ASSERT_EQ(report.regions.size(), 2u);  // the region and the serial code
  const RegionReport& region = parallel_region(report);
  EXPECT_US(region.time_s.at(2), 320);
  ASSERT_EQ(region.constructs.size(), 2u);
  const report::ConstructReport& first = region.constructs[0];
  const report::ConstructReport& second = region.constructs[1];
  EXPECT_EQ(first.kind, report::ConstructKind::kLoop);
  EXPECT_EQ(second.kind, report::ConstructKind::kLoop);
  // Each loop: its own iterations plus the wait in its barrier, per thread, ÷ the team:
  // loop 0xA1 (140 + 10 + 150 + 0) / 2, loop 0xA2 (50 + 100 + 150 + 0) / 2.
  EXPECT_US(first.time_s.at(2), 150);
  EXPECT_US(second.time_s.at(2), 150);
  EXPECT_EQ(first.instances, 1u);
  EXPECT_EQ(second.instances, 1u);
  EXPECT_TRUE(first.constructs.empty());
  // The rest is the region's own: the join barrier's 10 and fork/join's 10.
  EXPECT_US(region.outside_constructs_s.at(2), 20);
  EXPECT_US(first.time_s.at(2) + second.time_s.at(2) + region.outside_constructs_s.at(2), 320);
}

TEST(Constructs, TheImbalanceSitsOnTheLoopThatHasItAndTheRegionsCauseStaysWhatItWas) {
  const Report report = report_of(three_phase_log(), 2);
  const RegionReport& region = parallel_region(report);
  // The region's cause as before: the imbalance of both loop barriers, 5 + 50.
  const Problem* whole = problem(region.problems, "load_imbalance");
  ASSERT_NE(whole, nullptr);
  EXPECT_US(whole->gain_s, 55);
  // Loop 0xA2 carries 50/55 of it; loop 0xA1's 5/55 (under a tenth) stays the region's.
  const report::ConstructReport* balanced = nullptr;
  const report::ConstructReport* imbalanced = nullptr;
  for (const report::ConstructReport& c : region.constructs)
    (problem(c.problems, "load_imbalance") ? imbalanced : balanced) = &c;
  ASSERT_NE(imbalanced, nullptr);
  ASSERT_NE(balanced, nullptr);
  EXPECT_TRUE(balanced->problems.empty());
  const Problem* on_loop = problem(imbalanced->problems, "load_imbalance");
  EXPECT_US(on_loop->gain_s, 50);
  EXPECT_EQ(on_loop->threads, 2);
  EXPECT_EQ(on_loop->hint.rfind("the loop: ", 0), 0u) << on_loop->hint;
  // The region's hint is the loop's, since it carries most of it.
  EXPECT_EQ(whole->hint, on_loop->hint + "; this construct carries 91% of the cause");
  // Its schedule's prediction is the share of the gain the hint says, in both.
  const size_t at = whole->hint.find("it would win ~");
  ASSERT_NE(at, std::string::npos) << whole->hint;
  const double percent = std::stod(whole->hint.substr(at + std::string("it would win ~").size()));
  for (const Problem* p : {whole, on_loop})
    EXPECT_NEAR(100 * report::detail_of(*p, "schedule_gain_s") / p->gain_s, percent, 0.5) << p->hint;
  // fork/join (the join's 420 − 400) stays the region's own.
  const Problem* fork_join = problem(region.problems, "fork_join_overhead");
  ASSERT_NE(fork_join, nullptr);
  EXPECT_US(fork_join->gain_s, 20);
  for (const report::ConstructReport& c : region.constructs) EXPECT_EQ(problem(c.problems, "fork_join_overhead"), nullptr);
}

TEST(Constructs, TasksAppearUnderTheBarrierAndTheTaskwaitTheyRanIn) {
  // Region 0xA0 (50 → 310, one thread): explicit barrier 0xB1 100 → 200; in it task 80 (created
  // at 0xF1) runs 110 → 130 and 150 → 170, and waits in taskwait 0xF3 120 → 160, in which task 81
  // (created at 0xF2) runs 130 → 150.
  const Report report = report_of(testing::task_with_taskwait_in_barrier_log(), 1);
  const RegionReport& region = parallel_region(report);
  EXPECT_US(region.time_s.at(1), 260);
  ASSERT_EQ(region.constructs.size(), 1u);
  const report::ConstructReport& barrier = region.constructs[0];
  EXPECT_EQ(barrier.kind, report::ConstructKind::kBarrier);
  EXPECT_US(barrier.time_s.at(1), 100);
  ASSERT_EQ(barrier.constructs.size(), 1u);
  const report::ConstructReport& outer = barrier.constructs[0];
  EXPECT_EQ(outer.kind, report::ConstructKind::kTask);
  EXPECT_EQ(outer.instances, 1u);
  EXPECT_US(outer.time_s.at(1), 40);  // its own run: 20 + 20
  ASSERT_EQ(outer.constructs.size(), 1u);
  const report::ConstructReport& taskwait = outer.constructs[0];
  EXPECT_EQ(taskwait.kind, report::ConstructKind::kTaskwait);
  EXPECT_US(taskwait.time_s.at(1), 40);
  ASSERT_EQ(taskwait.constructs.size(), 1u);
  EXPECT_EQ(taskwait.constructs[0].kind, report::ConstructKind::kTask);
  EXPECT_US(taskwait.constructs[0].time_s.at(1), 20);
  // The barrier and the region's own 160 (before and after it, and the join) make its 260.
  EXPECT_US(region.outside_constructs_s.at(1), 160);
}

TEST(Constructs, ARecursiveTaskTreeFoldsIntoItsOuterConstructs) {
  // Region 0xA0 (50 → 310, one thread), barrier 0xB1 100 → 200. Task 80 (created at 0xF1) runs
  // 110 → 130 and 170 → 190 and waits in taskwait 0xF3 120 → 180, in which task 81 (also 0xF1:
  // the same function, one level down) runs 130 → 145 and 155 → 170 and waits in taskwait 0xF3
  // 140 → 160, in which task 82 (0xF1) runs 145 → 155. Folded like a recursive call in a
  // profile: one task node of 3 tasks and their own runs, 40 + 30 + 10, one taskwait whose 60 is
  // the outer wait only (the inner one is inside it), and nothing nested deeper, whatever the
  // depth.
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  const auto taskwait = ompt_sync_region_taskwait;
  LogBuilder b(1, 1000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(50, 10, 2, 1, 0xA0)
      .implicit_begin(50, 10, 11, 1, 0)
      .task_create(60, 80, 11, 0xF1)
      .sync_begin(100, ompt_sync_region_barrier_explicit, 0xB1)
      .task_schedule(110, 11, ompt_task_switch, 80)
      .task_create(115, 81, 80, 0xF1)
      .sync_begin(120, taskwait, 0xF3)
      .task_schedule(130, 80, ompt_task_switch, 81)
      .task_create(135, 82, 81, 0xF1)
      .sync_begin(140, taskwait, 0xF3)
      .task_schedule(145, 81, ompt_task_switch, 82)
      .task_schedule(155, 82, ompt_task_complete, 81)
      .sync_end(160, taskwait, 0xF3)
      .task_schedule(170, 81, ompt_task_complete, 80)
      .sync_end(180, taskwait, 0xF3)
      .task_schedule(190, 80, ompt_task_complete, 11)
      .sync_end(200, ompt_sync_region_barrier_explicit, 0xB1)
      .sync_begin(300, join)
      .sync_end(310, join)
      .implicit_end(310, 10, 11, 0)
      .parallel_end(310, 10, 2, 0xA0)
      .thread_end(1000);
  const Report report = report_of(b.log(), 1);
  const RegionReport& region = parallel_region(report);
  ASSERT_EQ(region.constructs.size(), 1u);
  const report::ConstructReport& barrier = region.constructs[0];
  EXPECT_US(barrier.time_s.at(1), 100);
  ASSERT_EQ(barrier.constructs.size(), 1u);
  const report::ConstructReport& tasks = barrier.constructs[0];
  EXPECT_EQ(tasks.kind, report::ConstructKind::kTask);
  EXPECT_EQ(tasks.instances, 3u);
  EXPECT_US(tasks.time_s.at(1), 40 + 30 + 10);
  ASSERT_EQ(tasks.constructs.size(), 1u);
  const report::ConstructReport& wait = tasks.constructs[0];
  EXPECT_EQ(wait.kind, report::ConstructKind::kTaskwait);
  EXPECT_US(wait.time_s.at(1), 60);
  EXPECT_TRUE(wait.constructs.empty());
}

TEST(Constructs, SampledOutTasksTakeTheSitesOfTheUnrecordedCreations) {
  // Task sampling: the master records the creation of 50 at 0xE2 standing for 2 creations (1
  // unrecorded there) and of 51 at 0xE1 standing for 4 (3 unrecorded); in barrier 0xB1 the master
  // runs a batch of 5 sampled-out tasks and the worker one of 3 (their records count them and say
  // nothing of where they were created). The 8 are shared 3 : 1 among 0xE1 and 0xE2, under the
  // barrier they ran in: 0xE1 has 51 and 6 of them, 0xE2 2; no task is left without a site
  // (before: 8 tasks of "creation site not recorded").
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  const auto barrier = ompt_sync_region_barrier_explicit;
  LogBuilder b(2, 1000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(100, 10, 2, 2, 0xA0)
      .implicit_begin(100, 10, 11, 2, 0)
      .task_create(110, 50, 11, 0xE2, ompt_task_explicit, 2)
      .task_create(150, 51, 11, 0xE1, ompt_task_explicit, 4)
      .sync_begin(200, barrier, 0xB1)
      .light_tasks(260, 205, 5)
      .sync_end(300, barrier, 0xB1)
      .sync_begin(400, join)
      .sync_end(410, join)
      .implicit_end(410, 10, 11, 0)
      .parallel_end(410, 10, 2, 0xA0)
      .thread_end(1000);
  b.thread(1)
      .thread_begin(50, ompt_thread_worker)
      .implicit_begin(100, 10, 12, 2, 1)
      .task_schedule(120, 12, ompt_task_switch, 50)
      .task_schedule(130, 50, ompt_task_complete, 12)
      .sync_begin(195, barrier, 0xB1)
      .task_schedule(200, 12, ompt_task_switch, 51)
      .task_schedule(220, 51, ompt_task_complete, 12)
      .light_tasks(300, 230, 3, 2)
      .sync_end(300, barrier, 0xB1)
      .sync_begin(380, join)
      .sync_end(800, join)
      .implicit_end(800, 0, 12, 1)
      .thread_end(1000);
  const Report report = report_of(b.log(), 2);
  const RegionReport& region = parallel_region(report);
  const report::ConstructReport* in_barrier = nullptr;
  for (const report::ConstructReport& c : region.constructs)
    if (c.kind == report::ConstructKind::kBarrier) in_barrier = &c;
  ASSERT_TRUE(in_barrier);
  std::vector<const report::ConstructReport*> tasks;
  for (const report::ConstructReport& c : in_barrier->constructs)
    if (c.kind == report::ConstructKind::kTask) {
      EXPECT_NE(c.function, kUnrecordedTaskSite);
      tasks.push_back(&c);
    }
  ASSERT_EQ(tasks.size(), 2u);
  const auto by_instances = [](const auto* a, const auto* b) { return a->instances > b->instances; };
  std::sort(tasks.begin(), tasks.end(), by_instances);
  EXPECT_EQ(tasks[0]->instances, 7u);  // 51 and 6 of the 8
  EXPECT_EQ(tasks[1]->instances, 2u);
  EXPECT_GT(tasks[1]->time_s.at(2), 0);
  EXPECT_EQ(tasks[0]->function, "");  // at 0xE1 (no module map: named by address)
}

// Region 10 (100 → 300) at 2 threads: one loop 0xA1 (both threads 100 → 200) in which each
// thread enters critical 0xC1: thread 0 requests at 110, holds 110 → 150; thread 1 requests at
// 120, queues until 150, holds 150 → 160. Barrier 200 → 200, join 200 → 210.
RunLog critical_in_loop_log() {
  const auto loop = ompt_sync_region_barrier_implicit_workshare;
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(2, 1000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(100, 10, 2, 2, 0x4000)
      .implicit_begin(100, 10, 11, 2, 0)
      .work_begin(100, ompt_work_loop, 0xA1)
      .acquire(110, ompt_mutex_critical, 0x99, 0xC1)
      .acquired(110, ompt_mutex_critical, 0x99, 0xC1)
      .released(150, ompt_mutex_critical, 0x99, 0xC1)
      .work_end(200, ompt_work_loop, 0xA1)
      .sync_begin(200, loop, 0xB1)
      .sync_end(200, loop, 0xB1)
      .sync_begin(200, join, 0x4000)
      .sync_end(210, join, 0x4000)
      .implicit_end(210, 10, 11, 0)
      .parallel_end(300, 10, 2, 0x4000)
      .initial_task_end(1000, 1, 2)
      .thread_end(1000);
  b.thread(1)
      .thread_begin(50, ompt_thread_worker)
      .implicit_begin(100, 10, 12, 2, 1)
      .work_begin(100, ompt_work_loop, 0xA1)
      .acquire(120, ompt_mutex_critical, 0x99, 0xC1)
      .acquired(150, ompt_mutex_critical, 0x99, 0xC1)
      .released(160, ompt_mutex_critical, 0x99, 0xC1)
      .work_end(200, ompt_work_loop, 0xA1)
      .sync_begin(200, loop, 0xB1)
      .sync_end(200, loop, 0xB1)
      .sync_begin(200, join, 0)
      .sync_end(210, join, 0)
      .implicit_end(210, 0, 12, 1)
      .thread_end(1001);
  return b.log();
}

// A CPU-time sample of 10 µs taken at `at_us`, at `pc`, drained into the log at `drained_us`.
Event sample_at(uint64_t drained_us, uint64_t at_us, uint64_t pc) {
  const uint64_t ticks = at_us * 1000;
  return Event{drained_us * 1000, pc, static_cast<uint32_t>(ticks), static_cast<uint32_t>(ticks >> 32), 1, 0,
               EventKind::Sample, 0};
}

// In the initial thread's records: after the region's end, before the initial task's (samples are
// drained after the instance they fall in).
std::vector<Event>::iterator after_region(std::vector<Event>& events) {
  return std::find_if(events.begin(), events.end(), [](const Event& e) { return e.kind == EventKind::ParallelEnd; }) + 1;
}

// CPU-time samples (docs/sampling.md) go to the innermost construct open on their thread at their
// time: critical_in_loop_log's region with samples of 10 µs each, thread 0 at 130 µs (in the
// critical section), 170 (in the loop), 205 (the join barrier: the region's own) and thread 1 at
// 155 (in its critical section).
TEST(Constructs, EachSampleGoesToTheInnermostConstructOpenOnItsThread) {
  RunLog log = critical_in_loop_log();
  log.meta.sample_period_ns = 10000;
  auto& t0 = log.threads[0].events;
  t0.insert(after_region(t0), {sample_at(900, 130, 0x1), sample_at(900, 170, 0x2), sample_at(900, 205, 0x3)});
  auto& t1 = log.threads[1].events;
  t1.insert(t1.end() - 1, sample_at(500, 155, 0x1));
  const Report report = report_of(log, 2);
  const RegionReport& region = parallel_region(report);
  ASSERT_TRUE(region.sampled.count(2));
  EXPECT_US(region.sampled.at(2).cpu_s, 40);
  const report::ConstructReport& for_loop = region.constructs.at(0);
  const report::ConstructReport& critical = for_loop.constructs.at(0);
  ASSERT_TRUE(for_loop.sampled.count(2));
  EXPECT_US(for_loop.sampled.at(2).cpu_s, 10);
  ASSERT_TRUE(critical.sampled.count(2));
  EXPECT_US(critical.sampled.at(2).cpu_s, 20);
}

// The runtime's CPU time outside waits (ConstructTree::runtime_work_s): three_phase_log with
// samples of 10 µs in the OpenMP runtime (a module named libomp.so.5), thread 0 at 350 µs (in loop
// 0xA2's barrier, which the loop owns: a wait), thread 1 at 350 (in loop 0xA2's iterations: a
// flush it spun on) and at 405 (the join barrier), thread 0 at 120 in the program (not the
// runtime). Only thread 1's sample at 350 is the runtime's time outside waits, and loop 0xA2's.
TEST(Constructs, TheRuntimesTimeOutsideWaitsIsWhatNoBarrierVisitOrLockRequestHolds) {
  RunLog log = three_phase_log();
  log.meta.sample_period_ns = 10000;
  constexpr uint64_t kRuntime = 0x7000000, kProgram = 0x1000;
  auto& t0 = log.threads[0].events;
  t0.insert(after_region(t0), {sample_at(900, 120, kProgram), sample_at(900, 350, kRuntime + 0x10)});
  auto& t1 = log.threads[1].events;
  t1.insert(t1.end() - 1, {sample_at(500, 350, kRuntime + 0x20), sample_at(500, 405, kRuntime + 0x30)});
  Symbolizer symbols({{kRuntime, kRuntime, kRuntime + 0x100000, "/nonexistent/libomp.so.5"}});
  const RunAnalysis run = analyze_run(build_timeline(log), log.meta, symbols);
  ASSERT_EQ(run.regions.size(), 1u);
  const RegionRun& region = run.regions.begin()->second;
  ASSERT_EQ(region.constructs.runtime_work_s.size(), 2u);
  EXPECT_DOUBLE_EQ(region.constructs.runtime_work_s[0], 0);
  EXPECT_NEAR(region.constructs.runtime_work_s[1], 10e-6, 1e-12);
  double loops_runtime = 0, loops_runtime_work = 0;
  for (const ConstructRun& c : region.constructs.nodes) {
    loops_runtime += c.samples.runtime_s;
    loops_runtime_work += c.runtime_work_s;
  }
  EXPECT_NEAR(loops_runtime, 20e-6, 1e-12);  // both samples at 350 are loop 0xA2's, its barrier's too
  EXPECT_NEAR(loops_runtime_work, 10e-6, 1e-12);
  EXPECT_NEAR(region.samples.runtime_s, 30e-6, 1e-12);  // the join barrier's is the region's
  // The team's figures: 10 µs, all at loop 0xA2, thread 1's beyond the mean by 5 µs.
  const TeamWork team = team_work({&region});
  EXPECT_NEAR(team.runtime_work_s, 10e-6, 1e-12);
  EXPECT_NEAR(team.runtime_work_spread_s, 5e-6, 1e-12);
  EXPECT_EQ(team.runtime_place, "the loop") << team.runtime_place;  // no module map for the program: no line
}

// Region 10 (100 → 1100 µs) at 1 thread, taking lock 0xA at 0xD0 once at each of `at_us`: 1 µs
// waiting and 1 µs held, each acquisition standing for `weight` operations (lock sampling).
RunLog sampled_lock_log(const std::vector<uint64_t>& at_us, uint32_t weight) {
  LogBuilder b(1, 1200);
  auto t = b.thread(0);
  t.thread_begin(0).initial_task(1, 1, 2).parallel_begin(100, 10, 2, 1, 0x4000).implicit_begin(100, 10, 11, 1, 0);
  for (uint64_t at : at_us)
    t.acquire(at, ompt_mutex_lock, 0xA, 0xD0).acquired(at + 1, ompt_mutex_lock, 0xA, 0xD0, weight).released(at + 2, ompt_mutex_lock, 0xA, 0xD0);
  t.implicit_end(1100, 10, 11, 0).parallel_end(1100, 10, 2, 0x4000).initial_task_end(1150, 1, 2).thread_end(1150);
  return b.log();
}

// Lock operations that sampling left unrecorded (docs/locks.md) ran at no item of the timeline:
// their samples in the runtime are the locks' time, not the runtime's work outside waits, and so
// are a held lock's. Region 10 (100 → 1100 µs) at 1 thread: one recorded acquisition of lock 0xA
// (1 µs waiting, 1 µs held) standing for 100 operations, so 198 µs of lock time ran unrecorded;
// samples of 10 µs in the runtime: 30 outside every item (300 µs) and one while the lock was held.
// The runtime's work outside waits is 300 − 198 = 102 µs, all of it at the lock's construct's
// parent (the region's own code) and at the runtime's function (lock_per_item: 858 ms of such
// samples in an 818 ms region, whose growth read as threads spinning in the runtime).
TEST(Constructs, UnrecordedLockOperationsTakeTheirTimeBackFromTheRuntimesWork) {
  RunLog log = sampled_lock_log({200}, 100);
  log.meta.sample_period_ns = 10000;
  constexpr uint64_t kRuntime = 0x7000000;
  std::vector<Event> samples{sample_at(1120, 201, kRuntime + 0x10)};  // 201.5 µs: held
  samples.back().id += 500;
  for (uint64_t at = 300; at < 600; at += 10) samples.push_back(sample_at(1120, at, kRuntime + 0x20));
  auto& t0 = log.threads[0].events;
  t0.insert(after_region(t0), samples.begin(), samples.end());
  Symbolizer symbols({{kRuntime, kRuntime, kRuntime + 0x100000, "/nonexistent/libomp.so.5"}});
  const RunAnalysis run = analyze_run(build_timeline(log), log.meta, symbols);
  ASSERT_EQ(run.regions.size(), 1u);
  const RegionRun& region = run.regions.begin()->second;
  EXPECT_NEAR(region.samples.runtime_s, 310e-6, 1e-12);  // every sample is the runtime's
  ASSERT_EQ(region.constructs.runtime_work_s.size(), 1u);
  EXPECT_NEAR(region.constructs.runtime_work_s[0], 102e-6, 1e-12);
  double by_function = 0;
  for (const auto& [function, s] : region.constructs.runtime_work_functions) by_function += s;
  EXPECT_NEAR(by_function, 102e-6, 1e-12);
  EXPECT_NEAR(team_work({&region}).runtime_work_s, 102e-6, 1e-12);
}

TEST(Constructs, ACriticalSectionInsideALoopIsItsChildWithItsLockCause) {
  const Report report = report_of(critical_in_loop_log(), 2);
  const RegionReport& region = parallel_region(report);
  ASSERT_EQ(region.constructs.size(), 1u);
  const report::ConstructReport& for_loop = region.constructs[0];
  EXPECT_EQ(for_loop.kind, report::ConstructKind::kLoop);
  EXPECT_US(for_loop.time_s.at(2), 100);
  ASSERT_EQ(for_loop.constructs.size(), 1u);
  const report::ConstructReport& critical = for_loop.constructs[0];
  EXPECT_EQ(critical.kind, report::ConstructKind::kCritical);
  EXPECT_EQ(critical.instances, 2u);
  EXPECT_US(critical.time_s.at(2), (40 + 40) / 2);  // request → release, each thread, ÷ the team
  // The region's lock contention is all the critical section's: same gain, its place in the hint.
  const Problem* whole = problem(region.problems, "lock_contention");
  ASSERT_NE(whole, nullptr);
  const Problem* on_critical = problem(critical.problems, "lock_contention");
  ASSERT_NE(on_critical, nullptr);
  EXPECT_DOUBLE_EQ(on_critical->gain_s, whole->gain_s);
  EXPECT_EQ(on_critical->hint.rfind("the critical section: ", 0), 0u) << on_critical->hint;
  EXPECT_EQ(whole->hint, on_critical->hint);
  EXPECT_EQ(problem(for_loop.problems, "lock_contention"), nullptr);
}

// A region at 2 threads whose one construct, a loop of 0.2 s, measures 0.5 s of load imbalance
// on its barrier's phases (release skew measured at the barrier lands in the next construct):
// the region's cause, 0.5 s, stays whole; the loop carries 0.2 s of it, its own time.
TEST(Constructs, AConstructCarriesNoMoreOfACauseThanItsOwnTime) {
  RegionRun run;
  run.profile.time_s = 1;
  ConstructRun loop;
  loop.path = "loop@0xA1";
  loop.kind = report::ConstructKind::kLoop;
  loop.instances = 10;
  loop.time_s = 0.2;
  loop.phases = BarrierPhases{.imbalance_s = 0.5, .barriers = 10, .imbalanced_after_loop = 10};
  run.constructs.nodes.push_back(loop);
  RegionReport region;
  region.time_s[2] = 1;
  region.problems.push_back(Problem{"load_imbalance", 2, 0.5, 0.5, "the region's hint", {}});
  ConstructReports reports;
  reports.add({&run}, 2, run, 1, region);
  reports.finish(region);
  ASSERT_EQ(region.constructs.size(), 1u);
  const Problem* on_loop = problem(region.constructs[0].problems, "load_imbalance");
  ASSERT_NE(on_loop, nullptr);
  EXPECT_DOUBLE_EQ(on_loop->time_s, 0.2);
  EXPECT_DOUBLE_EQ(on_loop->gain_s, 0.2);
  double share = 0, measured = 0;
  for (const auto& [name, value] : on_loop->details) {
    if (name == "share") share = value;
    if (name == "measured_share") measured = value;
  }
  EXPECT_DOUBLE_EQ(share, 0.4);
  EXPECT_DOUBLE_EQ(measured, 1);
  // The region's cause is what it was; the loop no longer carries most of it, so the hint too.
  const Problem* whole = problem(region.problems, "load_imbalance");
  EXPECT_DOUBLE_EQ(whole->gain_s, 0.5);
  EXPECT_EQ(whole->hint, "the region's hint");
}

// A recursive function creates its tasks at two lines, fib.c:16 and fib.c:18, and they run
// under the region and under a barrier: 40 + 35 recorded tasks from :16, 25 from :18. No node
// carries most of the region's fine_grained_tasks, yet its hint names where the tasks are made.
TEST(Constructs, ATaskCauseNoNodeCarriesNamesItsCreationSites) {
  RegionRun run;
  run.profile.time_s = 1;
  const auto node = [&run](int parent, const std::string& path, report::ConstructKind kind, int line, double instances) {
    ConstructRun c;
    c.parent = parent;
    c.path = path;
    c.kind = kind;
    c.where.file = "/src/fib.c";
    c.where.line = line;
    c.instances = instances;
    c.time_s = 0.1;
    run.constructs.nodes.push_back(c);
  };
  node(-1, "/barrier fib.c:29", report::ConstructKind::kBarrier, 29, 1);
  node(-1, "/task fib.c:16", report::ConstructKind::kTask, 16, 40);
  node(0, "/barrier fib.c:29/task fib.c:16", report::ConstructKind::kTask, 16, 35);
  node(-1, "/task fib.c:18", report::ConstructKind::kTask, 18, 25);
  RegionReport region;
  region.time_s[2] = 1;
  region.problems.push_back(Problem{"fine_grained_tasks", 2, 0.5, 0.5, "the region's hint", {}});
  ConstructReports reports;
  reports.add({&run}, 2, run, 1, region);
  reports.finish(region);
  EXPECT_EQ(problem(region.problems, "fine_grained_tasks")->hint,
            "the tasks created at fib.c:16 (75%) and fib.c:18 (25%): the region's hint");
}

// One task construct whose 1000 tasks' bodies took 0.05 s, and fine_grained_tasks of 0.8 s of
// thread time (0.4 s of gain) in the region: the cost of those tasks lies around their bodies,
// so their site carries all of it, not the 0.05 s of its own time (6%, under a tenth: the
// finding stood at the region's line, not at the task construct its hint changes).
TEST(Constructs, ATaskCauseIsNotCutToItsSitesBodies) {
  RegionRun run;
  run.profile.time_s = 1;
  ConstructRun task;
  task.path = "/task q.c:12";
  task.kind = report::ConstructKind::kTask;
  task.where.file = "/src/q.c";
  task.where.line = 12;
  task.instances = 1000;
  task.time_s = 0.05;
  run.constructs.nodes.push_back(task);
  RegionReport region;
  region.time_s[2] = 1;
  region.problems.push_back(Problem{"fine_grained_tasks", 2, 0.8, 0.4, "stop creating tasks below depth 3", {}});
  ConstructReports reports;
  reports.add({&run}, 2, run, 1, region);
  reports.finish(region);
  ASSERT_EQ(region.constructs.size(), 1u);
  const Problem* on_task = problem(region.constructs[0].problems, "fine_grained_tasks");
  ASSERT_NE(on_task, nullptr);
  EXPECT_DOUBLE_EQ(on_task->time_s, 0.8);
  EXPECT_DOUBLE_EQ(on_task->gain_s, 0.4);
  for (const auto& [name, value] : on_task->details) EXPECT_NE(name, "measured_share");
  EXPECT_EQ(problem(region.problems, "fine_grained_tasks")->hint,
            "the tasks created at q.c:12: stop creating tasks below depth 3");
}

// The same loop with 0.04 s of its own: a share cut below a tenth stays the region's.
TEST(Constructs, AShareCutBelowATenthStaysTheRegions) {
  RegionRun run;
  run.profile.time_s = 1;
  ConstructRun loop;
  loop.path = "loop@0xA1";
  loop.kind = report::ConstructKind::kLoop;
  loop.instances = 10;
  loop.time_s = 0.04;
  loop.phases = BarrierPhases{.imbalance_s = 0.5, .barriers = 10, .imbalanced_after_loop = 10};
  run.constructs.nodes.push_back(loop);
  RegionReport region;
  region.time_s[2] = 1;
  region.problems.push_back(Problem{"load_imbalance", 2, 0.5, 0.5, "the region's hint", {}});
  ConstructReports reports;
  reports.add({&run}, 2, run, 1, region);
  reports.finish(region);
  ASSERT_EQ(region.constructs.size(), 1u);
  EXPECT_EQ(problem(region.constructs[0].problems, "load_imbalance"), nullptr);
}

TEST(Constructs, SampledLocksTakeNoMoreThanTheThreadsTimeInTheRegion) {
  // Region 10 (100 → 1100 µs) at 1 thread: two recorded acquisitions of lock 0xA at 0xD0, each
  // 1 µs waiting and 1 µs held, standing for 100 000 operations each (lock sampling). Scaled, they
  // would be 0.4 s in a 1 ms region, and "outside them" −399 ms; held to the thread's time, the
  // lock takes the region's 1000 µs and nothing is left outside, as the thread's split has it.
  const Report report = report_of(sampled_lock_log({200, 300}, 100000), 1);
  const RegionReport& region = parallel_region(report);
  EXPECT_US(region.time_s.at(1), 1000);
  ASSERT_EQ(region.constructs.size(), 1u);
  const report::ConstructReport& lock = region.constructs[0];
  EXPECT_EQ(lock.kind, report::ConstructKind::kLock);
  EXPECT_EQ(lock.instances, 200000u);
  EXPECT_US(lock.time_s.at(1), 1000);
  EXPECT_US(region.outside_constructs_s.at(1), 0);
}

TEST(Constructs, AConstructOnlyAnotherRepeatRanIsInNeitherTheCausesNorTheTree) {
  // Two repeats of region 0x4000 at 2 threads: the first (the typical one: the two are equally
  // far from the median) runs the two loops, the second a loop with a critical section. The
  // region's causes and its tree are both the typical repeat's (docs/lost-time.md: its time,
  // split and causes come from one repeat so they add up): no lock contention, and the critical
  // section the other repeat ran is in neither, nor does it break the tree.
  Symbolizer symbols({});
  std::vector<MeasuredRun> runs(2);
  const RunLog first = three_phase_log(), second = critical_in_loop_log();
  for (int k = 0; k < 2; ++k) {
    const RunLog& log = k == 0 ? first : second;
    runs[k].record.threads = 2;
    runs[k].record.repeat = k;
    runs[k].analysis = analyze_run(build_timeline(log), log.meta, symbols);
  }
  const Report report = build_report({"./app"}, 2, runs);
  const RegionReport& region = parallel_region(report);
  EXPECT_EQ(problem(region.problems, "lock_contention"), nullptr);
  ASSERT_EQ(region.constructs.size(), 2u);
  for (const report::ConstructReport& c : region.constructs) {
    EXPECT_EQ(c.kind, report::ConstructKind::kLoop);
    EXPECT_EQ(problem(c.problems, "lock_contention"), nullptr);
    EXPECT_TRUE(c.constructs.empty());
  }
}

// Records grouped by a key (a parallel id): each key's records in the records' order, whatever
// order the keys come in (a thread's records, then the next thread's: runs of rising keys, and a
// key met again after others); key 0 left out where asked; a key with none gives an empty group.
TEST(RecordsByKey, EachKeysRecordsInTheirOrderWhateverOrderTheKeysComeIn) {
  struct Record {
    uint32_t key;
    int n;
  };
  const std::vector<Record> records{{5, 0}, {7, 1}, {9, 2}, {0, 3}, {5, 4}, {7, 5}, {9, 6}, {7, 7}, {2, 8}, {0, 9}};
  const auto numbers = [](std::span<const Record* const> group) {
    std::vector<int> out;
    for (const Record* r : group) out.push_back(r->n);
    return out;
  };
  const RecordsByKey<Record> skipping(records, [](const Record& r) { return r.key; }, true);
  EXPECT_EQ(numbers(skipping.find(5)), (std::vector<int>{0, 4}));
  EXPECT_EQ(numbers(skipping.find(7)), (std::vector<int>{1, 5, 7}));
  EXPECT_EQ(numbers(skipping.find(9)), (std::vector<int>{2, 6}));
  EXPECT_EQ(numbers(skipping.find(2)), (std::vector<int>{8}));
  EXPECT_TRUE(skipping.find(0).empty());
  EXPECT_TRUE(skipping.find(6).empty());
  EXPECT_TRUE(skipping.find(10).empty());
  const RecordsByKey<Record> keeping(records, [](const Record& r) { return r.key; }, false);
  EXPECT_EQ(numbers(keeping.find(0)), (std::vector<int>{3, 9}));
  EXPECT_EQ(numbers(keeping.find(7)), (std::vector<int>{1, 5, 7}));
  const RecordsByKey<Record> none(std::vector<Record>{}, [](const Record& r) { return r.key; }, true);
  EXPECT_TRUE(none.find(5).empty());
}

}  // namespace
}  // namespace ompscope::analysis
