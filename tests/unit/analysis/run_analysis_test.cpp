// analyze_run: one run's timeline reduced to per-callsite figures (profile, barrier phases,
// lock costs), the input of the scalability analysis.
#include "analysis/run_analysis.h"

#include <omp-tools.h>

#include <tuple>

#include <gtest/gtest.h>

#include "analysis/build_report.h"
#include "analysis/region_causes.h"
#include "analysis/repeats.h"
#include "analysis/statistics.h"
#include "event_log_builder.h"
#include "scenarios.h"

namespace ompscope::analysis {
namespace {

using testing::LogBuilder;

TEST(AnalyzeRun, TwoThreadLoopRegionFromEvents) {
  const RunLog log = testing::two_thread_loop_log();
  Symbolizer symbols({});  // no module map: callsites are keyed by address
  const RunAnalysis a = analyze_run(build_timeline(log), log.meta, symbols);

  EXPECT_US(a.wall_s, 1010);
  EXPECT_US(a.serial_s, 1010 - 355);
  EXPECT_EQ(a.events, 24u);
  EXPECT_EQ(a.runtime, "LLVM OMP (test)");
  ASSERT_EQ(a.threads.size(), 2u);
  ASSERT_EQ(a.regions.size(), 1u);
  const auto& [key, r] = *a.regions.begin();
  EXPECT_EQ(key.text, "0x4000");
  EXPECT_EQ(r.key.text, "0x4000");
  EXPECT_EQ(r.team_size, 2u);
  EXPECT_EQ(r.profile.instances, 1u);
  EXPECT_US(r.profile.time_s, 355);

  // Loop barrier: w = 300 − 102 = 198 and 200 − 104 = 96; walkthrough 310 − 300; startup 320 − 310.
  // Join barrier: w = 400 − 320 = 80 and 350 − 310 = 40; join = 455 − 400; fork = 104 − 100.
  EXPECT_US(r.phases.imbalance_s, (198 - 147) + (80 - 60));
  EXPECT_US(r.phases.walkthrough_s, 10);
  EXPECT_US(r.phases.startup_s, 10);
  EXPECT_US(r.phases.fork_s, 4);
  EXPECT_US(r.phases.join_s, 55);
  EXPECT_EQ(r.phases.barriers, 2u);
  EXPECT_EQ(r.phases.imbalanced_after_loop, 1u);
  EXPECT_TRUE(r.locks.locks.empty());

  // The imbalanced barrier follows a worksharing loop: the hint is about the loop's schedule
  // (without the threads' CPU time, not a claim that its iterations differ in cost).
  const auto problems = diagnose_region({&r}, 2, r.profile.time_s, std::nullopt);
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems[0].kind, "load_imbalance");
  EXPECT_NE(problems[0].hint.find("after the loop"), std::string::npos) << problems[0].hint;
}

TEST(AnalyzeRun, LocksAreChargedToTheRegionTheyWereTakenInNotToSerialCode) {
  // Region 0xA0 runs twice; each time both threads enter one critical section (0x99). The
  // master also takes lock 0x55 in serial code, which belongs to no region.
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(2, 1000);
  auto master = b.thread(0);
  auto worker = b.thread(1);
  master.thread_begin(0).initial_task(0, 1, 2);
  worker.thread_begin(1, ompt_thread_worker);
  master.acquire(10, ompt_mutex_lock, 0x55, 0xD0).acquired(12, ompt_mutex_lock, 0x55, 0xD0).released(20, ompt_mutex_lock, 0x55, 0xD0);
  for (uint32_t i = 0; i < 2; ++i) {
    const uint64_t t0 = 100 + 200 * i;
    const uint32_t id = 10 + 10 * i;
    master.parallel_begin(t0, id, 2, 2, 0xA0)
        .implicit_begin(t0, id, id + 1, 2, 0)
        .acquire(t0 + 10, ompt_mutex_critical, 0x99, 0xC1)
        .acquired(t0 + 11, ompt_mutex_critical, 0x99, 0xC1)
        .released(t0 + 20, ompt_mutex_critical, 0x99, 0xC1)
        .sync_begin(t0 + 50, join)
        .sync_end(t0 + 60, join)
        .implicit_end(t0 + 60, id, id + 1, 0)
        .parallel_end(t0 + 60, id, 2, 0xA0);
    worker.implicit_begin(t0, id, id + 2, 2, 1)
        .acquire(t0 + 12, ompt_mutex_critical, 0x99, 0xC1)
        .acquired(t0 + 20, ompt_mutex_critical, 0x99, 0xC1)
        .released(t0 + 25, ompt_mutex_critical, 0x99, 0)
        .sync_begin(t0 + 40, join)
        .sync_end(t0 + 150, join)  // late (docs/runtime-quirks.md Q1)
        .implicit_end(t0 + 150, 0, id + 2, 1);
  }
  master.thread_end(1000);
  worker.thread_end(1000);
  const RunLog& log = b.log();
  Symbolizer symbols({});
  const RunAnalysis a = analyze_run(build_timeline(log), log.meta, symbols);

  ASSERT_EQ(a.regions.size(), 1u);
  const RegionRun& r = a.regions.begin()->second;
  EXPECT_EQ(r.profile.instances, 2u);
  EXPECT_US(r.profile.time_s, 60 + 60);
  ASSERT_EQ(r.locks.locks.size(), 1u);  // the serial-code lock 0x55 is nobody's
  const LockCost& c = r.locks.locks[0];
  EXPECT_EQ(c.wait_id, 0x99u);
  EXPECT_EQ(c.acquisitions, 4u);
  // Acquisitions of 1, 8, 1, 8 µs: fastest 1 → algorithm 4, contention 14.
  EXPECT_US(c.fastest_s, 1);
  EXPECT_US(c.algorithm_s, 4);
  EXPECT_US(c.contention_s, 14);
  EXPECT_US(c.hold_s, 9 + 5 + 9 + 5);
  EXPECT_US(r.locks.per_thread.at(0).algorithm_s, 2);
  EXPECT_US(r.locks.per_thread.at(1).contention_s, 14);
  EXPECT_EQ(r.lock_kinds, std::vector<report::ConstructKind>{report::ConstructKind::kCritical});
  // Each thread's lock wait is in its split too.
  ASSERT_EQ(r.profile.per_thread.size(), 2u);
  EXPECT_US(r.profile.per_thread[0].lock_wait_s, 2);
  EXPECT_US(r.profile.per_thread[1].lock_wait_s, 16);
}

TEST(AnalyzeRun, SampledOutInstancesAndOperationsAreScaledFromTheRecordedOnes) {
  // Region 0xA0 ran 3 times: recorded in full once (60 µs), then two light instances of 120 and
  // 60 µs. Its total time is exact (240 µs); what was measured inside the recorded instance is
  // scaled by 240 / 60 = 4. The master's lock record stands for 2 operations.
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(2, 1000);
  auto master = b.thread(0);
  auto worker = b.thread(1);
  master.thread_begin(0).initial_task(0, 1, 2);
  worker.thread_begin(1, ompt_thread_worker);
  master.parallel_begin(100, 10, 2, 2, 0xA0)
      .implicit_begin(100, 10, 11, 2, 0)
      .acquire(110, ompt_mutex_lock, 0x55, 0xC1)
      .acquired(111, ompt_mutex_lock, 0x55, 0xC1, 2)
      .released(120, ompt_mutex_lock, 0x55, 0xC1)
      .sync_begin(150, join)
      .sync_end(160, join)
      .implicit_end(160, 10, 11, 0)
      .parallel_end(160, 10, 2, 0xA0);
  worker.implicit_begin(100, 10, 12, 2, 1).sync_begin(140, join).sync_end(160, join).implicit_end(160, 10, 12, 1);
  master.light_parallel(300, 420, 20, 2, 2, 0xA0).light_parallel(500, 560, 30, 2, 2, 0xA0);
  master.thread_end(1000);
  worker.thread_end(1000);
  const RunLog& log = b.log();
  Symbolizer symbols({});
  const RunAnalysis a = analyze_run(build_timeline(log), log.meta, symbols);

  ASSERT_EQ(a.regions.size(), 1u);
  const RegionRun& r = a.regions.begin()->second;
  EXPECT_TRUE(r.sampled());
  EXPECT_EQ(r.profile.instances, 3u);
  EXPECT_EQ(r.profile.recorded_instances, 1u);
  EXPECT_US(r.profile.time_s, 240);
  EXPECT_US(r.profile.recorded_time_s, 60);
  // Join barrier of the recorded instance: w = 50 and 40, imbalance 5 µs; ×4.
  EXPECT_US(r.phases.imbalance_s, 4 * 5);
  // 1 µs acquisition × 2 operations, held 9 µs × 2; ×4. One thread only: all algorithm cost.
  ASSERT_EQ(r.locks.locks.size(), 1u);
  EXPECT_EQ(r.locks.locks[0].acquisitions, 4u * 2);
  EXPECT_US(r.locks.locks[0].acquire_s, 4 * 2);
  EXPECT_US(r.locks.locks[0].algorithm_s, 4 * 2);
  EXPECT_US(r.locks.locks[0].contention_s, 0);
  EXPECT_US(r.locks.locks[0].hold_s, 4 * 18);
  ASSERT_EQ(r.profile.per_thread.size(), 2u);
  EXPECT_US(r.profile.per_thread[0].lock_wait_s, 4 * 2);
  EXPECT_US(r.profile.per_thread[0].barrier_wait_s, 4 * 10);
  EXPECT_US(r.profile.per_thread[1].barrier_wait_s, 4 * 20);
  // At program level the light instances count as time in regions for the team that ran the
  // recorded one: both threads spent 240 µs inside 0xA0.
  ASSERT_EQ(a.threads.size(), 2u);
  EXPECT_US(a.threads[0].outside_s, a.wall_s * 1e6 - 240);
  EXPECT_US(a.threads[1].outside_s, a.wall_s * 1e6 - 240);
  EXPECT_US(a.threads[1].barrier_wait_s, 4 * 20);
}

TEST(AnalyzeRun, SampledOutInstancesHaveTheBarrierPhasesOfAllTheRecordedOnesInProportionToTime) {
  // Region 0xA0 recorded twice, 60 µs each: once imbalanced at its join barrier (w = 50 and 30:
  // 10 µs), once balanced (40 and 40). A light instance of 120 µs is taken to be like both, as
  // its threads' split is: 10 µs × 120 / 120 more, 20 µs in all. One typical instance (either,
  // by median length) gave 30 or 10: a wavefront's diagonals of 1 to 7 iterations have a median
  // of 4, which divides between 2 threads, and the sampled run showed half its imbalance.
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(2, 1000);
  auto master = b.thread(0);
  auto worker = b.thread(1);
  master.thread_begin(0).initial_task(0, 1, 2);
  worker.thread_begin(1, ompt_thread_worker);
  for (const auto& [begin, id, worker_arrives] : {std::tuple{100u, 10u, 130u}, std::tuple{200u, 20u, 240u}}) {
    master.parallel_begin(begin, id, 2, 2, 0xA0)
        .implicit_begin(begin, id, id + 1, 2, 0)
        .sync_begin(begin + 50 - (id == 20 ? 10 : 0), join)
        .sync_end(begin + 60, join)
        .implicit_end(begin + 60, id, id + 1, 0)
        .parallel_end(begin + 60, id, 2, 0xA0);
    worker.implicit_begin(begin, id, id + 2, 2, 1)
        .sync_begin(worker_arrives, join)
        .sync_end(begin + 60, join)
        .implicit_end(begin + 60, id, id + 2, 1);
  }
  master.light_parallel(300, 420, 30, 2, 2, 0xA0);
  master.thread_end(1000);
  worker.thread_end(1000);
  const RunLog& log = b.log();
  Symbolizer symbols({});
  const RunAnalysis a = analyze_run(build_timeline(log), log.meta, symbols);
  ASSERT_EQ(a.regions.size(), 1u);
  const RegionRun& r = a.regions.begin()->second;
  EXPECT_EQ(r.profile.recorded_instances, 2u);
  EXPECT_US(r.profile.light_time_s, 120);
  EXPECT_US(r.phases.imbalance_s, 10 + 10);
  EXPECT_EQ(r.phases.barriers, 2u + 2u);  // the light instance's barrier: one per 60 µs recorded
}

TEST(AnalyzeRun, MutexKindNames) {
  EXPECT_EQ(mutex_construct_kind(ompt_mutex_lock), report::ConstructKind::kLock);
  EXPECT_EQ(mutex_construct_kind(ompt_mutex_test_lock), report::ConstructKind::kLock);
  EXPECT_EQ(mutex_construct_kind(ompt_mutex_nest_lock), report::ConstructKind::kNestLock);
  EXPECT_EQ(mutex_construct_kind(ompt_mutex_test_nest_lock), report::ConstructKind::kNestLock);
  EXPECT_EQ(mutex_construct_kind(ompt_mutex_critical), report::ConstructKind::kCritical);
  EXPECT_EQ(mutex_construct_kind(ompt_mutex_atomic), report::ConstructKind::kAtomic);
  EXPECT_EQ(mutex_construct_kind(ompt_mutex_ordered), report::ConstructKind::kOrdered);
  EXPECT_EQ(mutex_construct_kind(200), report::ConstructKind::kLock);  // an unknown kind is a lock
}

TEST(CallsiteKey, SourceLineThenModuleOffsetThenAddress) {
  SourceLocation where;
  EXPECT_EQ(CallsiteKey::of(where, 0x4000).text, "0x4000");
  where.module = "/bin/app";
  where.module_offset = 0x1234;
  EXPECT_EQ(CallsiteKey::of(where, 0x4000).text, "/bin/app+0x1234");
  where.file = "src/solver.c";
  where.line = 42;
  where.function = "solve";
  EXPECT_EQ(CallsiteKey::of(where, 0x4000).text, "src/solver.c:42 solve");
}

}  // namespace
}  // namespace ompscope::analysis
