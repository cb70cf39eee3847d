// Lock sampling in the analysis (docs/locks.md), and the split's invariants it must keep: per
// thread and region, work, barrier wait, lock wait and fork/join are each >= 0 and add up to
// the region's time (task time within work); one lock is never held longer than its region.
// Hand-built logs with exact numbers, then randomly generated ones (seeded, deterministic) with
// sampled records and preemption-shaped gaps.
#include <omp-tools.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "analysis/region_profile.h"
#include "analysis/run_analysis.h"
#include "analysis/timeline.h"
#include "event_log_builder.h"

namespace ompscope::analysis {
namespace {

using testing::LogBuilder;
using testing::Stream;
using testing::us;

Event lock_ops(uint64_t t_us, uint64_t site, uint32_t count) {
  return testing::event(t_us, EventKind::LockOps, 0, 0, count, 0, 0, site);
}

// One 1-thread region (100 → 1100 µs) whose thread takes lock 0xA at site 0xD0 with the
// given (request, acquired, released, weight) records, then writes `unrecorded` as LockOps.
struct Op {
  uint64_t request, acquired, released;
  uint32_t weight;
};
RunLog one_thread_region(const std::vector<Op>& ops, uint32_t unrecorded) {
  LogBuilder b(1, 1200);
  Stream s = b.thread(0);
  s.thread_begin(0).initial_task(1, 1, 2).parallel_begin(100, 10, 2, 1, 0x4000).implicit_begin(100, 10, 11, 1, 0);
  for (const Op& op : ops)
    s.acquire(op.request, ompt_mutex_lock, 0xA, 0xD0)
        .acquired(op.acquired, ompt_mutex_lock, 0xA, 0xD0, op.weight)
        .released(op.released, ompt_mutex_lock, 0xA, 0xD0);
  RunLog log = b.log();
  if (unrecorded) log.threads[0].events.push_back(lock_ops(1000, 0xD0, unrecorded));
  LogBuilder tail(1);
  Stream(log.threads[0]).implicit_end(1100, 10, 11, 0).parallel_end(1100, 10, 2, 0x4000).thread_end(1150);
  return log;
}

TEST(LockSampling, ARecordStandsForItsWeightAndTheUnrecordedOperationsOfItsPartInProportion) {
  // Weights 1 and 3, then 4 unrecorded operations at the part's end: 8 operations on 2 records,
  // spread 1 : 3 → scales 2 and 6. Waits of 2 and 4 µs: lock wait 2·2 + 4·6 = 28 µs.
  const RunLog log = one_thread_region({{200, 202, 210, 1}, {300, 304, 310, 3}}, 4);
  const Timeline t = build_timeline(log);
  ASSERT_EQ(t.locks.size(), 2u);
  EXPECT_DOUBLE_EQ(t.locks[0].scale, 2);
  EXPECT_DOUBLE_EQ(t.locks[1].scale, 6);
  ASSERT_EQ(t.regions.size(), 1u);
  EXPECT_US(t.regions[0].threads[0].lock_wait, 2 * 2 + 4 * 6);
  Symbolizer symbols({});
  const RunAnalysis a = analyze_run(t, log.meta, symbols);
  const RegionRun& r = a.regions.begin()->second;
  ASSERT_EQ(r.locks.locks.size(), 1u);
  EXPECT_EQ(r.locks.locks[0].acquisitions, 8u);  // every operation counted, recorded or not
  EXPECT_EQ(r.locks.locks[0].recorded, 2u);
  EXPECT_NEAR(r.locks.locks[0].hold_s, us(8 * 2 + 6 * 6), 1e-12);
}

TEST(LockSampling, TheToolsOwnTimeBetweenTwoRecordsIsTakenOutOfEveryWaitAndHold) {
  // The capture measured 1.5 µs between two records with nothing between them (meta.txt's
  // lock_record_gap, in ticks: ns here). Waits 2, 1 and 4 µs, holds 8, 1 and 6 µs, the last
  // record standing for 3 operations: waits 0.5 + 0 + 2.5·3 = 8 µs, holds 6.5 + 0 + 4.5·3 = 20 µs.
  RunLog log = one_thread_region({{200, 202, 210, 1}, {300, 301, 302, 1}, {400, 404, 410, 3}}, 0);
  log.meta.lock_record_gap_ticks = 1500;
  const Timeline t = build_timeline(log);
  EXPECT_US(t.regions[0].threads[0].lock_wait, 8);
  Symbolizer symbols({});
  const RunAnalysis a = analyze_run(t, log.meta, symbols);
  const RegionRun& r = a.regions.begin()->second;
  const ThreadSplit& s = r.profile.per_thread.at(0);
  EXPECT_NEAR(s.lock_wait_s, us(8), 1e-12);
  EXPECT_NEAR(s.work_s, us(1000 - 8), 1e-12);  // the split still adds up to the region's 1000 µs
  ASSERT_EQ(r.locks.locks.size(), 1u);
  EXPECT_EQ(r.locks.locks[0].acquisitions, 5u);
  EXPECT_NEAR(r.locks.locks[0].hold_s, us(20), 1e-12);
}

TEST(LockSampling, AnUncontendedLockWhoseRecordsAreAllTheToolsOwnTimeShowsNoWait) {
  // 300 records each 1.5 µs from acquire to acquired and to release, standing for 4 operations
  // each: without the tool's own time taken out, 1.8 ms of waiting in a 1 ms region (held to it).
  std::vector<Op> ops;
  for (uint64_t i = 0; i < 300; ++i) ops.push_back({100 + 3 * i, 100 + 3 * i, 100 + 3 * i, 4});
  RunLog log = one_thread_region(ops, 0);
  for (Event& e : log.threads[0].events) {  // 1.5 µs apart: acquire at t, acquired t + 1.5, released t + 3
    if (e.kind == EventKind::MutexAcquired) e.time += 1500;
    if (e.kind == EventKind::MutexReleased) e.time += 3000;
  }
  log.meta.lock_record_gap_ticks = 1500;
  Symbolizer symbols({});
  const RunAnalysis a = analyze_run(build_timeline(log), log.meta, symbols);
  const RegionRun& r = a.regions.begin()->second;
  EXPECT_NEAR(r.profile.per_thread.at(0).lock_wait_s, 0, 1e-12);
  EXPECT_NEAR(r.profile.per_thread.at(0).work_s, us(1000), 1e-12);
  EXPECT_NEAR(r.locks.locks[0].hold_s, 0, 1e-12);
}

TEST(LockSampling, AWaitTheGapWouldEraseKeepsOneUncontendedAtomic) {
  // The same records, on a machine where the capture also measured one uncontended atomic at
  // 0.2 µs (meta.txt's atomic_floor: 51 200 ticks for 256 operations, ns here). The gap takes
  // every wait to 0, which no acquisition can cost: each keeps the atomic's 0.2 µs, 300 records
  // of 4 operations, 240 µs of lock wait; the split still adds up. The run's lock calibration
  // says so: all 300 records measured below the floor once the gap was taken out.
  std::vector<Op> ops;
  for (uint64_t i = 0; i < 300; ++i) ops.push_back({100 + 3 * i, 100 + 3 * i, 100 + 3 * i, 4});
  RunLog log = one_thread_region(ops, 0);
  for (Event& e : log.threads[0].events) {
    if (e.kind == EventKind::MutexAcquired) e.time += 1500;
    if (e.kind == EventKind::MutexReleased) e.time += 3000;
  }
  log.meta.lock_record_gap_ticks = 1500;
  log.meta.atomic_floor_ticks = 51200;
  log.meta.atomic_floor_ops = 256;
  Symbolizer symbols({});
  const Timeline t = build_timeline(log);
  EXPECT_NEAR(t.lock_correction.floor, us(0.2), 1e-15);
  const RunAnalysis a = analyze_run(t, log.meta, symbols);
  const RegionRun& r = a.regions.begin()->second;
  EXPECT_NEAR(r.profile.per_thread.at(0).lock_wait_s, us(240), 1e-12);
  EXPECT_NEAR(r.profile.per_thread.at(0).work_s, us(1000 - 240), 1e-12);
  EXPECT_NEAR(r.locks.locks[0].algorithm_s, us(240), 1e-12);
  EXPECT_NEAR(r.locks.atomic_floor_s, us(0.2), 1e-15);
  EXPECT_EQ(a.lock_calibration.recorded, 300u);
  EXPECT_EQ(a.lock_calibration.floored, 300u);
  EXPECT_NEAR(a.lock_calibration.median_raw_s, us(1.5), 1e-15);
  EXPECT_NEAR(a.lock_calibration.median_net_s, 0, 1e-15);
  EXPECT_NEAR(a.lock_calibration.record_gap_s, us(1.5), 1e-15);
}

TEST(PageFaultFloor, TheMachinesCheapestFaultReachesEveryRegion) {
  // meta.txt's page_fault_floor, 850 ticks (ns here): the timeline's and each region's 0.85 µs.
  RunLog log = one_thread_region({{100, 100, 100, 1}}, 0);
  log.meta.page_fault_floor_ticks = 850;
  Symbolizer symbols({});
  const Timeline t = build_timeline(log);
  EXPECT_NEAR(t.kernel.page_fault_floor_s, us(0.85), 1e-15);
  const RunAnalysis a = analyze_run(t, log.meta, symbols);
  EXPECT_NEAR(a.regions.begin()->second.kernel.page_fault_floor_s, us(0.85), 1e-15);
}

// 200 records of 1 µs waits and holds and one preempted for 190 µs while waiting, each of the
// given weight, in one_thread_region.
RunLog preempted_once(uint32_t weight) {
  std::vector<Op> ops;
  for (uint64_t i = 0; i < 200; ++i) ops.push_back({100 + 4 * i, 101 + 4 * i, 102 + 4 * i, weight});
  ops.push_back({900, 1090, 1091, weight});
  return one_thread_region(ops, 0);
}

TEST(LockSampling, OnePreemptedRecordDoesNotStandForItsWeightInPreemptedOperations) {
  // 200 records of 1 µs waits and holds, each standing for 2 operations, and one preempted for
  // 190 µs while waiting: multiplied by its weight it alone would be 380 µs of lock wait, as
  // much as all the others. Its wait is capped at the 99th percentile (1 µs) of its site's.
  const RunLog log = preempted_once(2);
  const Timeline t = build_timeline(log);
  EXPECT_US(t.regions[0].threads[0].lock_wait, 201 * 2 * 1);
  Symbolizer symbols({});
  const RunAnalysis a = analyze_run(t, log.meta, symbols);
  const RegionRun& r = a.regions.begin()->second;
  const ThreadSplit& s = r.profile.per_thread.at(0);
  EXPECT_NEAR(s.lock_wait_s, us(402), 1e-12);
  EXPECT_NEAR(s.work_s, us(1000 - 402), 1e-12);
  EXPECT_NEAR(r.locks.locks[0].hold_s, us(201 * 2 * 1), 1e-12);
}

TEST(LockSampling, ARecordThatStandsForItselfAndFoundTheLockFreeIsCappedAlike) {
  // The same 201 records, every operation recorded (weight 1): nobody else held the lock during
  // the 190 µs wait (a thread's own lock: a kernel interruption, not the lock's cost), so it is
  // capped as a sampled one is: 201 × 1 µs, the rest the work's.
  const RunLog log = preempted_once(1);
  const Timeline t = build_timeline(log);
  EXPECT_US(t.regions[0].threads[0].lock_wait, 201);
  Symbolizer symbols({});
  const RunAnalysis a = analyze_run(t, log.meta, symbols);
  const ThreadSplit& s = a.regions.begin()->second.profile.per_thread.at(0);
  EXPECT_NEAR(s.lock_wait_s, us(201), 1e-12);
  EXPECT_NEAR(s.work_s, us(1000 - 201), 1e-12);
}

TEST(LockSampling, AQueueIsTheTimeAnAcquisitionAheadWaitedForOrHeldTheLock) {
  // Thread 1 is handed the lock at 5 but stopped by the kernel until 20 (a fair lock waits for
  // its longest waiter): thread 0, requesting at 6, queues behind it to 21 although nobody holds
  // the lock until 20 (shared_lock beside a busy process: 1.14 s of each thread's 1.36 s of
  // waiting while the lock was held by nobody). Thread 0's last wait queued 0.5 behind thread 1's
  // hold (31.5 → 32); the lock free from 32 to 40 with nobody ahead is no queue.
  auto rec = [](uint32_t thread, double request, double acquired, double released) {
    LockAcquisition a;
    a.thread = thread;
    a.request = request;
    a.acquired = acquired;
    a.released = released;
    return a;
  };
  const std::vector<LockAcquisition> v = {rec(0, 0, 1, 5), rec(1, 4, 20, 21), rec(0, 6, 22, 23), rec(1, 30, 31, 32),
                                          rec(0, 31.5, 40, 41)};
  std::vector<const LockAcquisition*> by_acquired;
  for (const LockAcquisition& a : v) by_acquired.push_back(&a);
  std::vector<double> queued;
  time_queued_behind_others(by_acquired, queued);
  EXPECT_EQ(queued, (std::vector<double>{0, 1, 15, 0, 0.5}));
}

TEST(LockSampling, AWaitBehindAnotherThreadsHoldKeepsThatHold) {
  // Thread 0's 201 recorded acquisitions as above, its last (900 → 1090) behind thread 1, which
  // holds the lock 899 → 1080: stopped while holding it (a 1.5-CPU quota stops the whole team 25
  // ms in every 100), the lock was held that long and thread 0 queued 180 µs behind it. Its wait
  // keeps those 180 µs beyond the 1 µs percentile; the 9 µs the lock was free before it took it
  // are not the lock's (capped, to the work). Capped whole, the quota's waits went to the work
  // and read as the CPU running slower ("pad per-thread data", shared_lock_fortran). Thread 1's
  // one hold is measured, not multiplied: 181 µs, uncapped.
  LogBuilder b(2, 1200);
  Stream m = b.thread(0);
  m.thread_begin(0).initial_task(1, 1, 2).parallel_begin(100, 10, 2, 2, 0x4000).implicit_begin(100, 10, 11, 2, 0);
  for (uint64_t i = 0; i < 200; ++i)
    m.acquire(100 + 4 * i, ompt_mutex_lock, 0xA, 0xD0)
        .acquired(101 + 4 * i, ompt_mutex_lock, 0xA, 0xD0, 1)
        .released(102 + 4 * i, ompt_mutex_lock, 0xA, 0xD0);
  m.acquire(900, ompt_mutex_lock, 0xA, 0xD0).acquired(1090, ompt_mutex_lock, 0xA, 0xD0, 1).released(1091, ompt_mutex_lock, 0xA, 0xD0);
  m.implicit_end(1100, 10, 11, 0).parallel_end(1100, 10, 2, 0x4000).thread_end(1150);
  Stream w = b.thread(1);
  w.thread_begin(50, ompt_thread_worker).implicit_begin(100, 10, 12, 2, 1);
  w.acquire(899, ompt_mutex_lock, 0xA, 0xD1).acquired(899, ompt_mutex_lock, 0xA, 0xD1, 1).released(1080, ompt_mutex_lock, 0xA, 0xD1);
  w.implicit_end(1100, 0, 12, 1).thread_end(1151);
  const RunLog log = b.log();
  const Timeline t = build_timeline(log);
  EXPECT_US(t.regions[0].threads[0].lock_wait, 200 + 1 + 180);
  Symbolizer symbols({});
  const RunAnalysis a = analyze_run(t, log.meta, symbols);
  const RegionRun& r = a.regions.begin()->second;
  EXPECT_NEAR(r.profile.per_thread.at(0).lock_wait_s, us(381), 1e-12);
  ASSERT_EQ(r.locks.locks.size(), 1u);
  // Contention: the kept wait's excess over the fastest (0 µs, thread 1's): 181 µs.
  EXPECT_NEAR(r.locks.locks[0].contention_s, us(181), 1e-12);
  EXPECT_NEAR(r.locks.locks[0].hold_s, us(200 * 1 + 1 + 181), 1e-12);
}

TEST(LockSampling, AnEstimatePastTheRegionIsHeldToIt) {
  // 2 records standing for 100 000 operations each, in a 1 ms region: the estimate (0.2 s of
  // waiting, 0.2 s held) cannot be; the split and the lock's hold time keep to the region.
  const RunLog log = one_thread_region({{200, 201, 202, 100000}, {300, 301, 302, 100000}}, 0);
  Symbolizer symbols({});
  const RunAnalysis a = analyze_run(build_timeline(log), log.meta, symbols);
  const RegionRun& r = a.regions.begin()->second;
  const ThreadSplit& s = r.profile.per_thread.at(0);
  EXPECT_NEAR(s.lock_wait_s, us(1000), 1e-12);
  EXPECT_NEAR(s.work_s, 0, 1e-12);
  EXPECT_NEAR(r.locks.locks[0].hold_s, r.profile.time_s, 1e-12);
}

// --- random logs -----------------------------------------------------------------------------

struct Generated {
  RunLog log;
  uint32_t regions = 0;
};

// A run of `threads` threads through several region instances (two callsites); each thread's
// part is a sequence of lock operations at two sites (recorded with weights up to 65536, some
// waits and holds stretched by a preemption up to most of the part), a barrier, and unrecorded
// operations written at the part's end.
Generated random_run(std::mt19937_64& rng, uint32_t threads) {
  Generated g;
  LogBuilder b(threads, 0);
  RunLog log = b.log();
  std::vector<Stream> s;
  for (uint32_t i = 0; i < threads; ++i) s.emplace_back(log.threads[i]);
  auto uniform = [&](uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng); };
  s[0].thread_begin(0).initial_task(1, 1, 2);
  for (uint32_t i = 1; i < threads; ++i) s[i].thread_begin(1, ompt_thread_worker);
  uint64_t t = 10;
  const uint32_t instances = static_cast<uint32_t>(uniform(1, 6));
  const uint32_t weights[] = {1, 16, 1024, 65536};
  for (uint32_t k = 0; k < instances; ++k) {
    const uint32_t id = 100 + 10 * k;
    const uint64_t callsite = 0x4000 + 0x100 * (k % 2);
    s[0].parallel_begin(t, id, 2, threads, callsite);
    uint64_t end = t + 1;
    std::vector<uint64_t> last(threads);
    for (uint32_t i = 0; i < threads; ++i) {
      uint64_t c = t + uniform(0, 5);
      s[i].implicit_begin(c, id, id + 1 + i, threads, static_cast<uint16_t>(i));
      const uint32_t ops = static_cast<uint32_t>(uniform(0, 150));
      for (uint32_t op = 0; op < ops; ++op) {
        c += uniform(0, 20);
        const bool preempted = uniform(0, 99) < 3;
        const uint64_t wait = preempted ? uniform(100, 3000) : uniform(0, 2);
        const uint64_t hold = uniform(0, 99) < 3 ? uniform(100, 3000) : uniform(0, 3);
        const uint64_t site = uniform(0, 1) ? 0xD0 : 0xD8;
        const uint64_t lock = 0xA0 + uniform(0, 40);
        s[i].acquire(c, ompt_mutex_lock, lock, site)
            .acquired(c + wait, ompt_mutex_lock, lock, site, weights[uniform(0, 3)])
            .released(c + wait + hold, ompt_mutex_lock, lock, site);
        c += wait + hold;
      }
      c += uniform(0, 50);
      s[i].sync_begin(c, ompt_sync_region_barrier_implicit_parallel);
      last[i] = c;
      end = std::max(end, c + 1);
    }
    for (uint32_t i = 0; i < threads; ++i) {
      s[i].sync_end(end, ompt_sync_region_barrier_implicit_parallel);
      if (uniform(0, 1)) log.threads[i].events.push_back(lock_ops(end, 0xD0, static_cast<uint32_t>(uniform(1, 100000))));
      s[i].implicit_end(end, id, id + 1 + i, static_cast<uint16_t>(i));
    }
    s[0].parallel_end(end + 1, id, 2, callsite);
    t = end + 2 + uniform(0, 30);
    ++g.regions;
  }
  for (uint32_t i = 0; i < threads; ++i) s[i].thread_end(t);
  log.meta.clock_end = {(t + 1) * 1000, (t + 1) * 1000 + 1};
  log.meta.finalized = true;
  g.log = std::move(log);
  return g;
}

void expect_split_adds_up(const ThreadSplit& s, double region_s, const char* where) {
  EXPECT_GE(s.work_s, 0) << where;
  EXPECT_GE(s.barrier_wait_s, 0) << where;
  EXPECT_GE(s.lock_wait_s, 0) << where;
  EXPECT_GE(s.fork_join_s, 0) << where;
  EXPECT_GE(s.task_s, 0) << where;
  EXPECT_LE(s.task_s, s.work_s) << where;
  EXPECT_NEAR(s.work_s + s.barrier_wait_s + s.lock_wait_s + s.fork_join_s, region_s, 1e-9 * std::max(1.0, region_s)) << where;
}

TEST(LockSampling, RandomSampledRunsKeepEveryInvariant) {
  std::mt19937_64 rng(16);
  for (int run = 0; run < 300; ++run) {
    const Generated g = random_run(rng, static_cast<uint32_t>(1 + run % 4));
    const Timeline t = build_timeline(g.log);
    ASSERT_EQ(t.regions.size(), g.regions);
    for (const RegionInstance& r : t.regions)
      for (const ThreadInRegion& part : r.threads)
        expect_split_adds_up(split_thread_time(r, part), r.end - r.begin, "instance");
    Symbolizer symbols({});
    const RunAnalysis a = analyze_run(t, g.log.meta, symbols);
    for (const auto& [key, r] : a.regions) {
      for (const ThreadSplit& s : r.profile.per_thread) expect_split_adds_up(s, r.profile.time_s, key.text.c_str());
      for (const LockCost& c : r.locks.locks) {
        EXPECT_LE(c.hold_s, r.profile.time_s + 1e-12) << key.text;
        EXPECT_GE(c.algorithm_s, 0);
        EXPECT_GE(c.contention_s, 0);
        EXPECT_NEAR(c.algorithm_s + c.contention_s, c.acquire_s, 1e-9 * std::max(1.0, c.acquire_s));
      }
    }
    if (HasFailure()) {
      ADD_FAILURE() << "random run " << run;
      return;
    }
  }
}

}  // namespace
}  // namespace ompscope::analysis
