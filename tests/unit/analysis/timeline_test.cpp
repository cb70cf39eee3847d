// build_timeline: the raw per-thread records of a run → region instances, barrier visits,
// lock acquisitions and task fragments. Each test is a small program's event stream, written
// in the order OMPT fires, with every resulting interval stated exactly.
#include "analysis/timeline.h"

#include <cmath>
#include <map>
#include <gtest/gtest.h>

#include "analysis/region_profile.h"

#include "event_log_builder.h"
#include "scenarios.h"

namespace ompscope::analysis {
namespace {

using testing::LogBuilder;
using testing::us;

const RegionInstance& region_by_id(const Timeline& t, uint32_t id) {
  for (const RegionInstance& r : t.regions)
    if (r.parallel_id == id) return r;
  ADD_FAILURE() << "no region " << id;
  static const RegionInstance none;
  return none;
}

const TaskInstance& task_by_id(const Timeline& t, uint32_t id) {
  for (const TaskInstance& task : t.tasks)
    if (task.id == id) return task;
  ADD_FAILURE() << "no task " << id;
  static const TaskInstance none;
  return none;
}

void expect_visit(const SyncVisit& v, SyncKind kind, double arrive_us, double depart_us, double tasks_us = 0) {
  EXPECT_EQ(v.kind, kind);
  EXPECT_US(v.arrive, arrive_us);
  EXPECT_US(v.depart, depart_us);
  EXPECT_US(v.tasks, tasks_us);
}

// --- parallel regions --------------------------------------------------------------------------

TEST(BuildTimeline, AWorkerCreatedByTheFirstForkCarriesItsBeginIntoThatRegionOnly) {
  // The worker begins at 120, during the fork of region 10 (100 → 3000), and starts its
  // implicit task at 2600; region 20 (3100 → 3200) finds it existing.
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(2, 4000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(100, 10, 2, 2, 0xA0)
      .implicit_begin(101, 10, 11, 2, 0)
      .sync_begin(2900, join)
      .sync_end(3000, join)
      .implicit_end(3000, 10, 11, 0)
      .parallel_end(3000, 10, 2, 0xA0)
      .parallel_begin(3100, 20, 2, 2, 0xA0)
      .implicit_begin(3101, 20, 21, 2, 0)
      .sync_begin(3190, join)
      .sync_end(3200, join)
      .implicit_end(3200, 20, 21, 0)
      .parallel_end(3200, 20, 2, 0xA0)
      .thread_end(4000);
  b.thread(1)
      .thread_begin(120, ompt_thread_worker)
      .implicit_begin(2600, 10, 12, 2, 1)
      .sync_begin(2950, join)
      .sync_end(3000, join)
      .implicit_end(3000, 0, 12, 1)
      .implicit_begin(3102, 20, 22, 2, 1)
      .sync_begin(3195, join)
      .sync_end(3200, join)
      .implicit_end(3200, 0, 22, 1)
      .thread_end(4000);
  const Timeline t = build_timeline(b.log());
  const RegionInstance& first = region_by_id(t, 10);
  const RegionInstance& second = region_by_id(t, 20);
  EXPECT_US(first.threads.at(1).thread_begin, 120);
  EXPECT_EQ(second.threads.at(1).thread_begin, -1);
  EXPECT_EQ(second.threads.at(0).thread_begin, -1);
}

TEST(BuildTimeline, TwoThreadRegionWithLoopBarrierAndJoinBarrier) {
  const Timeline t = build_timeline(testing::two_thread_loop_log());

  EXPECT_US(t.start, 0);
  EXPECT_US(t.end, 1010);  // finalize's clock point, later than the last event (1001)
  EXPECT_EQ(t.events, 24u);
  ASSERT_EQ(t.regions.size(), 1u);
  const RegionInstance& r = t.regions[0];
  EXPECT_EQ(r.parallel_id, 10u);
  EXPECT_EQ(r.codeptr, testing::kRegionCode);
  EXPECT_EQ(r.requested_threads, 2u);
  EXPECT_EQ(r.team_size, 2u);
  EXPECT_EQ(r.master_thread, 0u);
  EXPECT_EQ(r.parent_parallel_id, 0u);
  EXPECT_US(r.begin, 100);
  EXPECT_US(r.end, 455);
  EXPECT_TRUE(r.complete);

  ASSERT_EQ(r.threads.size(), 2u);
  const ThreadInRegion& master = r.threads[0];
  EXPECT_EQ(master.thread, 0u);
  EXPECT_EQ(master.index, 0u);
  EXPECT_US(master.start, 102);
  EXPECT_US(master.end, 450);
  EXPECT_US(master.thread_begin, 0);  // its first region: both threads began before it
  EXPECT_US(r.threads[1].thread_begin, 50);
  EXPECT_US(master.lock_wait, 0);
  EXPECT_US(master.tasks_outside_syncs, 0);
  ASSERT_EQ(master.syncs.size(), 2u);
  expect_visit(master.syncs[0], SyncKind::Barrier, 300, 320);
  EXPECT_EQ(master.syncs[0].codeptr, testing::kLoopBarrierCode);
  EXPECT_TRUE(master.syncs[0].follows_loop);
  expect_visit(master.syncs[1], SyncKind::JoinBarrier, 400, 450);
  EXPECT_EQ(master.syncs[1].codeptr, testing::kJoinCode);
  EXPECT_FALSE(master.syncs[1].follows_loop);

  const ThreadInRegion& worker = r.threads[1];
  EXPECT_EQ(worker.thread, 1u);
  EXPECT_EQ(worker.index, 1u);
  EXPECT_US(worker.start, 104);
  ASSERT_EQ(worker.syncs.size(), 2u);
  expect_visit(worker.syncs[0], SyncKind::Barrier, 200, 310);
  EXPECT_TRUE(worker.syncs[0].follows_loop);
  EXPECT_FALSE(worker.syncs[1].follows_loop);
}

// The kernel's accounting is read at the implicit task's begin, and inside each barrier visit
// just after the arrival and just before the departure: each stretch of work is measured from
// the reading that starts it to the one that ends it, never across a barrier's wait (threads spin
// there) nor from the late end of a join barrier into the next region.
TEST(BuildTimeline, ThreadUsageIsSummedOverTheStretchesOfWorkAndGivenToEachBarrierVisit) {
  const auto loop = ompt_sync_region_barrier_implicit_workshare;
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(1, 2000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(100, 10, 2, 1, 0xA0)
      .implicit_begin(101, 10, 11, 1, 0)
      .usage(102, 0, /*cpu*/ 1000, /*system*/ 50, /*minor*/ 7, /*major*/ 1, /*switches*/ 3, /*voluntary*/ 65530)
      .sync_begin(400, loop)
      .usage(401, 1, 1250, 60, 17, 1, 4, 65533)  // 299 us of work: 250 on the CPU, 10 in the kernel
      .usage(450, 0, 1290, 60, 17, 1, 4, 65533)  // 40 us spinning in the barrier: not counted
      .sync_end(451, loop)
      .sync_begin(600, join)
      .usage(601, 1, 1390, 61, 20, 2, 9, 4)  // 151 us: 100 on the CPU, 1 in the kernel; 7 sleeps, wrapped
      .usage(900, 0, 1700, 61, 20, 2, 9, 4)  // the join barrier's departure starts nothing
      .sync_end(901, join)
      .implicit_end(902, 10, 11, 0)
      .parallel_end(903, 10, 2, 0xA0);
  const Timeline t = build_timeline(b.log());
  ASSERT_EQ(t.regions.size(), 1u);
  const ThreadInRegion& part = t.regions[0].threads.at(0);
  EXPECT_US(part.usage().wall_s, 299 + 151);
  EXPECT_US(part.usage().cpu_s, 250 + 100);
  EXPECT_US(part.usage().system_s, 10 + 1);
  EXPECT_DOUBLE_EQ(part.usage().minor_faults, 13);
  EXPECT_DOUBLE_EQ(part.usage().major_faults, 1);
  EXPECT_DOUBLE_EQ(part.usage().switches, 6);
  EXPECT_DOUBLE_EQ(part.usage().voluntary_switches, 3 + 7);  // 16 bits each: differences modulo 2^16
  EXPECT_US(part.usage().off_cpu_s(), 100);
  ASSERT_EQ(part.syncs.size(), 2u);
  EXPECT_US(part.syncs[0].readings().cpu, 250);
  EXPECT_US(part.syncs[1].readings().cpu, 100);
}

// A part's start after its thread was switched out: between the thread's last arrival (at the
// join barrier of the region before, 601) and the reading at this part's start (1500), 200 µs on
// the CPU of 899 and 2 involuntary switches: 699 µs off the CPU (start_off_cpu_s; libomp's worker
// leaves that join barrier only when the next fork wakes it). The first part, with no reading
// before it, and a part whose gap holds no involuntary switch get none; a reading inside a part
// (a barrier's departure) is never its start's.
TEST(BuildTimeline, APartKnowsHowLongItsThreadWasSwitchedOutBeforeItStarted) {
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(1, 5000);
  testing::Stream thread = b.thread(0);  // a handle on the thread's records, held by value
  thread.thread_begin(0).initial_task(0, 1, 2);
  // One region (id, id + 1 its implicit task) forked at `fork`, its part begun at `start`; the
  // readings at the part's start, at the join barrier's arrival and at its departure: (time, CPU
  // time in µs, involuntary switches) each.
  struct Reading {
    uint64_t t, cpu_us;
    uint32_t switches;
  };
  const auto region = [&](uint32_t id, uint64_t fork, uint64_t start, Reading at_start, Reading arrival, Reading departure) {
    thread.parallel_begin(fork, id, 2, 1, 0xA0)
        .implicit_begin(start, id, id + 1, 1, 0)
        .usage(at_start.t, 0, at_start.cpu_us, 61, 20, 2, at_start.switches)
        .sync_begin(arrival.t - 1, join)
        .usage(arrival.t, 1, arrival.cpu_us, 61, 20, 2, arrival.switches)
        .usage(departure.t, 0, departure.cpu_us, 61, 20, 2, departure.switches)
        .sync_end(departure.t + 1, join)
        .implicit_end(departure.t + 2, id, id + 1, 0)
        .parallel_end(departure.t + 3, id, 2, 0xA0);
  };
  region(10, 100, 101, {102, 1000, 3}, {601, 1360, 3}, {900, 1460, 3});
  region(20, 1000, 1499, {1500, 1560, 5}, {2001, 1800, 5}, {2400, 1900, 5});
  region(30, 3000, 3001, {3002, 2000, 5}, {3500, 2100, 5}, {3600, 2110, 5});
  const Timeline t = build_timeline(b.log());
  ASSERT_EQ(t.regions.size(), 3u);
  EXPECT_FLOAT_EQ(t.regions[0].threads.at(0).start_off_cpu_s, 0);
  EXPECT_FLOAT_EQ(t.regions[1].threads.at(0).start_off_cpu_s, 699e-6f);
  EXPECT_FLOAT_EQ(t.regions[2].threads.at(0).start_off_cpu_s, 0);  // no involuntary switch since 2001
}

// A barrier visit's time off the CPU: between the readings at its arrival and its departure,
// where the thread was switched out involuntarily (another process held its CPU), the wall time
// its CPU time does not cover. Loop barrier 401 → 450: 10 µs on the CPU, 2 involuntary switches:
// 39 µs off. Join barrier 601 → 900: 100 µs on the CPU of 299 but no involuntary switch (a
// voluntary sleep in the runtime's wait is the barrier's own): 0.
TEST(BuildTimeline, ABarrierVisitKnowsHowLongItsThreadWasSwitchedOutInIt) {
  const auto loop = ompt_sync_region_barrier_implicit_workshare;
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(1, 2000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(100, 10, 2, 1, 0xA0)
      .implicit_begin(101, 10, 11, 1, 0)
      .usage(102, 0, 1000, 50, 7, 1, 3)
      .sync_begin(400, loop)
      .usage(401, 1, 1250, 60, 17, 1, 4)
      .usage(450, 0, 1260, 60, 17, 1, 6)
      .sync_end(451, loop)
      .sync_begin(600, join)
      .usage(601, 1, 1360, 61, 20, 2, 6)
      .usage(900, 0, 1460, 61, 20, 2, 6)
      .sync_end(901, join)
      .implicit_end(902, 10, 11, 0)
      .parallel_end(903, 10, 2, 0xA0);
  const Timeline t = build_timeline(b.log());
  const ThreadInRegion& part = t.regions.at(0).threads.at(0);
  ASSERT_EQ(part.syncs.size(), 2u);
  EXPECT_US(part.syncs[0].readings().off_cpu, 49 - 10);
  EXPECT_US(part.syncs[1].readings().off_cpu, 0);
}

// A task region (KASTORS jacobi: one thread creates under `master`, the team runs the tasks in
// the region's join barrier): the worker has no work stretch at all, so its work usage read
// nothing (cpu 0, as every task region's worker read in the KASTORS runs), while it ran
// 300 µs of task bodies. The readings around the barrier visits in which tasks ran are its task
// usage: the master's visit (readings 301 → 700) ran task 50 (100 µs), 350 µs of its 399 on the
// CPU and 2 involuntary switches: 49 µs off; the worker's (123 → 623) ran 51 and 52 (300 µs), 150
// µs of 500 on the CPU, 20 in the kernel, 3 involuntary switches: 350 µs off. A visit with no task in it (the worker's
// earlier loop barrier) and a voluntary sleep (no involuntary switch) count nothing off the CPU.
TEST(BuildTimeline, TheBarrierVisitsInWhichTasksRanGiveTheTaskBodiesTheirKernelAccounting) {
  const auto loop = ompt_sync_region_barrier_implicit_workshare;
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(2, 2000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(100, 10, 2, 2, 0xA0)
      .implicit_begin(100, 10, 11, 2, 0)
      .usage(101, 0, 1000, 50, 0, 0, 0)
      .task_create(150, 50, 11, 0xE1)
      .task_create(160, 51, 11, 0xE1)
      .task_create(170, 52, 11, 0xE1)
      .sync_begin(300, join)
      .usage(301, 1, 1190, 50, 0, 0, 0)  // 200 µs of work: 190 on the CPU
      .task_schedule(400, 11, ompt_task_switch, 50)
      .task_schedule(500, 50, ompt_task_complete, 11)
      .usage(700, 0, 1540, 50, 0, 0, 2)  // 399 µs: 350 on the CPU, 2 switches
      .sync_end(701, join)
      .implicit_end(702, 10, 11, 0)
      .parallel_end(703, 10, 2, 0xA0)
      .thread_end(2000);
  b.thread(1)
      .thread_begin(50, ompt_thread_worker)
      .implicit_begin(100, 10, 12, 2, 1)
      .usage(101, 0, 5000, 100, 10, 0, 1)
      .sync_begin(102, loop)
      .usage(103, 1, 5001, 100, 10, 0, 1)  // 2 µs of work
      .usage(120, 0, 5003, 100, 10, 0, 1)  // a barrier of spinning: no task, not the tasks'
      .sync_end(121, loop)
      .sync_begin(122, join)
      .usage(123, 1, 5004, 100, 10, 0, 1)  // 3 µs of work, 1 on the CPU
      .task_schedule(200, 12, ompt_task_switch, 51)
      .task_schedule(350, 51, ompt_task_complete, 12)
      .task_schedule(400, 12, ompt_task_switch, 52)
      .task_schedule(550, 52, ompt_task_complete, 12)
      .usage(523 + 100, 0, 5154, 120, 14, 0, 4)  // 500 µs: 150 on the CPU, 20 in the kernel
      .sync_end(624, join)
      .implicit_end(625, 0, 12, 1)
      .thread_end(2000);
  const Timeline t = build_timeline(b.log());
  const RegionInstance& r = region_by_id(t, 10);
  ASSERT_EQ(r.threads.size(), 2u);
  const ThreadInRegion& master = r.threads[0];
  const ThreadInRegion& worker = r.threads[1];
  EXPECT_US(master.usage().wall_s, 200);
  EXPECT_US(master.usage().cpu_s, 190);
  EXPECT_US(master.task_visits().tasks_s, 100);
  EXPECT_US(master.task_visits().usage.cpu_s, 350);
  EXPECT_US(master.task_visits().usage.off_cpu_s(), 399 - 350);
  EXPECT_US(master.task_visits().usage.wall_s, 399);
  EXPECT_DOUBLE_EQ(master.task_visits().usage.switches, 2);
  EXPECT_US(worker.usage().wall_s, 2 + 3);
  EXPECT_US(worker.usage().cpu_s, 1 + 1);
  EXPECT_US(worker.task_visits().tasks_s, 300);
  EXPECT_US(worker.task_visits().usage.cpu_s, 150);
  EXPECT_US(worker.task_visits().usage.system_s, 20);
  EXPECT_DOUBLE_EQ(worker.task_visits().usage.minor_faults, 4);
  EXPECT_DOUBLE_EQ(worker.task_visits().usage.switches, 3);
  EXPECT_US(worker.task_visits().usage.off_cpu_s(), 500 - 150);
  // The split carries it beside the work usage.
  const ThreadSplit split = split_thread_time(r, worker);
  EXPECT_US(split.task_usage.cpu_s, 150);
  EXPECT_US(split.task_usage_tasks_s, 300);
}

// Hardware counters (docs/lost-time.md, "Hardware counters") follow the usage record of the same
// edge; a stretch gets their differences where both its edges read them. The instruction count
// crosses 2^32 (it is 64 bits in the record), the miss count wraps its 32 bits.
TEST(BuildTimeline, HardwareCountersAreSummedOverTheStretchesWhoseBothEdgesReadThem) {
  const auto loop = ompt_sync_region_barrier_implicit_workshare;
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  const uint64_t i0 = (uint64_t{1} << 32) - 1000;
  LogBuilder b(1, 2000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(100, 10, 2, 1, 0xA0)
      .implicit_begin(101, 10, 11, 1, 0)
      .usage(102, 0, 1000, 50)
      .counters(102, 0, /*cycles*/ 5000, /*instructions*/ i0, /*misses*/ 0xFFFFFFF0u)
      .sync_begin(400, loop)
      .usage(401, 1, 1250, 60)                 // 299 us of work
      .counters(401, 1, 905000, i0 + 1800000, 0x10u)  // 900000 cycles, 1.8 M instructions, 32 misses
      .usage(450, 0, 1290, 60)
      .counters(450, 0, 1000000, i0 + 1900000, 0x20u)  // the barrier's spinning: not counted
      .sync_end(451, loop)
      .sync_begin(600, join)
      .usage(601, 1, 1390, 61)                 // 151 us without its end's counters (one failed read)
      .usage(900, 0, 1700, 61)
      .sync_end(901, join)
      .implicit_end(902, 10, 11, 0)
      .parallel_end(903, 10, 2, 0xA0);
  const Timeline t = build_timeline(b.log());
  ASSERT_EQ(t.regions.size(), 1u);
  const WorkUsage& u = t.regions[0].threads.at(0).usage();
  EXPECT_US(u.wall_s, 299 + 151);
  EXPECT_US(u.counted_s, 299);
  EXPECT_DOUBLE_EQ(u.cycles, 900000);
  EXPECT_DOUBLE_EQ(u.instructions, 1800000);
  EXPECT_DOUBLE_EQ(u.llc_misses, 32);
  EXPECT_TRUE(u.counted());
}

// A team of one (OMP_NUM_THREADS=1) has no barrier: its work ends at the implicit task's end.
// After a join barrier, the reading at the implicit task's end measures nothing.
TEST(BuildTimeline, ABodyReadAtItsEdgesKnowsItsTimeOffTheCpuAndLeavesTheReadingsOut) {
  // The worker runs three tasks in the join barrier: 51 read at its edges (2 µs per reading),
  // switched out involuntarily twice for 48 of its 136 µs between them; 52 read, never switched
  // out; 53 not read. The stretches of work and the barrier visit's accounting are what they
  // were without the body readings.
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(2, 2000);
  b.usage_reading_us(2);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(100, 10, 2, 2, 0xA0)
      .implicit_begin(100, 10, 11, 2, 0)
      .task_create(150, 51, 11, 0xE1)
      .task_create(160, 52, 11, 0xE1)
      .task_create(170, 53, 11, 0xE1)
      .sync_begin(1000, join)
      .sync_end(1001, join)
      .implicit_end(1002, 10, 11, 0)
      .parallel_end(1003, 10, 2, 0xA0)
      .thread_end(2000);
  b.thread(1)
      .thread_begin(50, ompt_thread_worker)
      .implicit_begin(100, 10, 12, 2, 1)
      .usage(101, 0, 5000, 100, 10, 0, 1)
      .sync_begin(122, join)
      .usage(123, 1, 5020, 100, 10, 0, 1)
      .task_schedule(200, 12, ompt_task_switch, 51)
      .usage(202, kUsageBodyStarts, 5100, 100, 10, 0, 1)
      .usage(340, kUsageBodyEnds, 5190, 100, 10, 0, 3)  // 138 µs, 90 on the CPU, 2 switches: 48 off
      .task_schedule(341, 51, ompt_task_complete, 12)
      .task_schedule(400, 12, ompt_task_switch, 52)
      .usage(402, kUsageBodyStarts, 5250, 100, 10, 0, 3)
      .usage(500, kUsageBodyEnds, 5348, 100, 10, 0, 3)
      .task_schedule(501, 52, ompt_task_complete, 12)
      .task_schedule(600, 12, ompt_task_switch, 53)
      .task_schedule(700, 53, ompt_task_complete, 12)
      .usage(723, 0, 5500, 120, 14, 0, 4)  // the visit: 600 µs, 480 on the CPU, 3 switches
      .sync_end(724, join)
      .implicit_end(725, 0, 12, 1)
      .thread_end(2000);
  const Timeline t = build_timeline(b.log());
  const auto fragment = [&](uint32_t id) {
    const auto it = std::find_if(t.tasks.begin(), t.tasks.end(), [&](const TaskInstance& k) { return k.id == id; });
    EXPECT_NE(it, t.tasks.end());
    EXPECT_EQ(it->fragments.size(), 1u);
    return it->fragments.at(0);
  };
  const TaskFragment read = fragment(51), quiet = fragment(52), unread = fragment(53);
  EXPECT_US(read.begin, 202);  // after the first reading
  EXPECT_US(read.end, 338);    // before the second
  EXPECT_NEAR(read.off_cpu_s, 48e-6, 1e-9);  // a float: 7 digits
  EXPECT_US(quiet.begin, 402);
  EXPECT_US(quiet.end, 498);
  EXPECT_EQ(quiet.off_cpu_s, 0.0f);
  EXPECT_US(unread.begin, 600);
  EXPECT_US(unread.end, 700);
  EXPECT_EQ(unread.off_cpu_s, 0.0f);
  const ThreadInRegion& worker = region_by_id(t, 10).threads.at(1);
  EXPECT_US(worker.usage().wall_s, 22);
  EXPECT_US(worker.usage().cpu_s, 20);
  EXPECT_US(worker.task_visits().usage.wall_s, 600);
  EXPECT_US(worker.task_visits().usage.cpu_s, 480);
  EXPECT_DOUBLE_EQ(worker.task_visits().usage.switches, 3);
}

TEST(BuildTimeline, ATeamOfOneEndsItsWorkAtTheImplicitTasksEnd) {
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(1, 2000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(100, 10, 2, 1, 0xA0)
      .implicit_begin(101, 10, 11, 1, 0)
      .usage(102, 0, 1000, 50)
      .usage(402, 1, 1290, 60)
      .implicit_end(403, 10, 11, 0)
      .parallel_end(404, 10, 2, 0xA0)
      .parallel_begin(500, 20, 2, 1, 0xA0)
      .implicit_begin(501, 20, 21, 1, 0)
      .usage(502, 0, 2000, 60)
      .sync_begin(600, join)
      .usage(601, 1, 2090, 60)
      .usage(700, 0, 2100, 60)
      .sync_end(701, join)
      .usage(702, 1, 2101, 60)  // not work: the region's work ended at the join barrier
      .implicit_end(703, 20, 21, 0)
      .parallel_end(704, 20, 2, 0xA0);
  const Timeline t = build_timeline(b.log());
  ASSERT_EQ(t.regions.size(), 2u);
  EXPECT_US(t.regions[0].threads.at(0).usage().wall_s, 300);
  EXPECT_US(t.regions[0].threads.at(0).usage().cpu_s, 290);
  EXPECT_US(t.regions[0].threads.at(0).usage().system_s, 10);
  EXPECT_US(t.regions[1].threads.at(0).usage().wall_s, 99);
  EXPECT_US(t.regions[1].threads.at(0).usage().cpu_s, 90);
}

TEST(BuildTimeline, CumulativeUsageCountersAreDifferencedModuloTheirWidth) {
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(1, 2000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(100, 10, 2, 1, 0xA0)
      .implicit_begin(101, 10, 11, 1, 0)
      .usage(102, 0, 1000, 0xFFFFFFF0u, 0xFFFFFFFEu, 0xFFFF, 0xFFFFFFFFu)
      .sync_begin(400, join)
      .usage(401, 1, 1200, 0x10, 3, 1, 1)
      .sync_end(500, join)
      .implicit_end(500, 10, 11, 0)
      .parallel_end(500, 10, 2, 0xA0);
  const Timeline t = build_timeline(b.log());
  const ThreadInRegion& part = t.regions.at(0).threads.at(0);
  EXPECT_US(part.usage().system_s, 0x20);
  EXPECT_DOUBLE_EQ(part.usage().minor_faults, 5);
  EXPECT_DOUBLE_EQ(part.usage().major_faults, 2);
  EXPECT_DOUBLE_EQ(part.usage().switches, 2);
}

TEST(BuildTimeline, WithoutUsageRecordsNothingIsRead) {
  const Timeline t = build_timeline(testing::two_thread_loop_log());
  for (const ThreadInRegion& part : t.regions.at(0).threads) {
    EXPECT_EQ(part.usage().wall_s, 0);
    for (const SyncVisit& v : part.syncs) EXPECT_EQ(v.readings().cpu, -1);
  }
}

TEST(BuildTimeline, LateJoinBarrierEndAndImplicitTaskEndAreClampedToRegionEnd) {
  // The worker's join-barrier end and implicit-task end arrive at 900 µs, long after the
  // master's parallel end at 455 µs (docs/runtime-quirks.md Q1): the idle time is not barrier wait.
  const Timeline t = build_timeline(testing::two_thread_loop_log());
  ASSERT_EQ(t.regions.size(), 1u);
  const ThreadInRegion& worker = t.regions[0].threads.at(1);
  EXPECT_US(worker.end, 455);
  ASSERT_EQ(worker.syncs.size(), 2u);
  expect_visit(worker.syncs[1], SyncKind::JoinBarrier, 350, 455);
}

TEST(BuildTimeline, Libomp14ImplicitBarrierKindsGiveTheSameVisits) {
  // libomp 14 reports loop and join barriers alike as barrier_implicit: the last one is the join.
  const Timeline t = build_timeline(testing::two_thread_loop_log(/*libomp14=*/true));
  ASSERT_EQ(t.regions.size(), 1u);
  for (const ThreadInRegion& p : t.regions[0].threads) {
    ASSERT_EQ(p.syncs.size(), 2u) << "thread " << p.thread;
    EXPECT_EQ(p.syncs[0].kind, SyncKind::Barrier);
    EXPECT_EQ(p.syncs[1].kind, SyncKind::JoinBarrier);
  }
  expect_visit(t.regions[0].threads[1].syncs[1], SyncKind::JoinBarrier, 350, 455);
}

TEST(BuildTimeline, WorksharingAndMaskedConstructsAreMatchedPerThreadAndKeptWithTheirRegion) {
  testing::LogBuilder b(1);
  b.thread(0)
      .thread_begin(0)
      .parallel_begin(10, 5, 1, 1, 0x1)
      .implicit_begin(11, 5, 6, 1, 0)
      .work_begin(100, ompt_work_single_executor, 0x10)
      .work_begin(150, ompt_work_taskloop, 0x20)
      .work_end(200, ompt_work_taskloop)
      .work_end(300, ompt_work_single_executor)
      .masked_begin(310, 0x40)
      .masked_end(350)
      .work_begin(400, ompt_work_loop, 0x30)
      .sync_begin(500, ompt_sync_region_barrier_implicit);
  const Timeline t = build_timeline(b.log());
  ASSERT_EQ(t.work.size(), 4u);
  EXPECT_EQ(t.work[0].work, ompt_work_taskloop);
  EXPECT_US(t.work[0].begin, 150);
  EXPECT_EQ(t.work[1].codeptr, 0x10u);
  EXPECT_US(t.work[1].end, 300);
  EXPECT_EQ(t.work[1].parallel_id, 5u);
  EXPECT_EQ(t.work[2].work, kWorkMasked);  // a masked construct is kept the same way
  EXPECT_EQ(t.work[2].codeptr, 0x40u);
  EXPECT_US(t.work[2].end, 350);
  EXPECT_EQ(t.work[3].work, ompt_work_loop);  // cut short: ends at the thread's last event
  EXPECT_US(t.work[3].end, 500);
}

TEST(BuildTimeline, ThreadSummariesSpanEachThreadsEvents) {
  const Timeline t = build_timeline(testing::two_thread_loop_log());
  ASSERT_EQ(t.threads.size(), 2u);
  EXPECT_EQ(t.threads[0].thread, 0u);
  EXPECT_US(t.threads[0].first, 0);
  EXPECT_US(t.threads[0].last, 1000);
  EXPECT_EQ(t.threads[1].thread, 1u);
  EXPECT_US(t.threads[1].first, 50);
  EXPECT_US(t.threads[1].last, 1001);
}

TEST(BuildTimeline, ExplicitBarrierBeforeJoinStaysABarrier) {
  // `parallel { ...; #pragma omp barrier; ... }`: explicit barrier then the join barrier.
  LogBuilder b(1, 100);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(10, 10, 2, 1, 0x10)
      .implicit_begin(10, 10, 11, 1, 0)
      .sync_begin(20, ompt_sync_region_barrier_explicit, 0x11)
      .sync_end(21, ompt_sync_region_barrier_explicit, 0x11)
      .sync_begin(30, ompt_sync_region_taskwait, 0x12)
      .sync_end(31, ompt_sync_region_taskwait, 0x12)
      .sync_begin(40, ompt_sync_region_barrier_implicit_parallel, 0x13)
      .sync_end(41, ompt_sync_region_barrier_implicit_parallel, 0x13)
      .implicit_end(41, 10, 11, 0)
      .parallel_end(42, 10, 2, 0x10)
      .thread_end(100);
  const Timeline t = build_timeline(b.log());
  ASSERT_EQ(t.regions.size(), 1u);
  const auto& syncs = t.regions[0].threads.at(0).syncs;
  ASSERT_EQ(syncs.size(), 3u);
  expect_visit(syncs[0], SyncKind::Barrier, 20, 21);
  expect_visit(syncs[1], SyncKind::Taskwait, 30, 31);
  expect_visit(syncs[2], SyncKind::JoinBarrier, 40, 41);
}

TEST(BuildTimeline, NestedRegionsKnowTheirParentAndKeepTheirOwnVisits) {
  // Region 10 (2 threads) on threads 0 and 1. Inside it, thread 0 opens region 20 (threads 0
  // and 2) and thread 1 opens a serialised region 30 (team of 1).
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(3, 1000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(100, 10, 2, 2, 0xA0)
      .implicit_begin(101, 10, 11, 2, 0)
      .parallel_begin(110, 20, 11, 2, 0xB0)
      .implicit_begin(111, 20, 21, 2, 0)
      .sync_begin(140, join)
      .sync_end(150, join)
      .implicit_end(150, 20, 21, 0)
      .parallel_end(151, 20, 11, 0xB0)
      .sync_begin(200, join)
      .sync_end(210, join)
      .implicit_end(210, 10, 11, 0)
      .parallel_end(211, 10, 2, 0xA0)
      .thread_end(1000);
  b.thread(1)
      .thread_begin(50, ompt_thread_worker)
      .implicit_begin(103, 10, 12, 2, 1)
      .parallel_begin(120, 30, 12, 1, 0xC0)
      .implicit_begin(121, 30, 31, 1, 0)
      .sync_begin(125, join)
      .sync_end(126, join)
      .implicit_end(126, 30, 31, 0)
      .parallel_end(127, 30, 12, 0xC0)
      .sync_begin(190, join)
      .sync_end(300, join)  // late (docs/runtime-quirks.md Q1)
      .implicit_end(300, 0, 12, 1)
      .thread_end(1000);
  b.thread(2)
      .thread_begin(60, ompt_thread_worker)
      .implicit_begin(112, 20, 22, 2, 1)
      .sync_begin(135, join)
      .sync_end(400, join)  // late (docs/runtime-quirks.md Q1)
      .implicit_end(400, 0, 22, 1)
      .thread_end(1000);
  const Timeline t = build_timeline(b.log());

  ASSERT_EQ(t.regions.size(), 3u);
  EXPECT_EQ(t.regions[0].parallel_id, 10u);  // ordered by begin
  EXPECT_EQ(t.regions[1].parallel_id, 20u);
  EXPECT_EQ(t.regions[2].parallel_id, 30u);

  const RegionInstance& outer = region_by_id(t, 10);
  EXPECT_EQ(outer.parent_parallel_id, 0u);
  EXPECT_US(outer.begin, 100);
  EXPECT_US(outer.end, 211);
  ASSERT_EQ(outer.threads.size(), 2u);
  // The master's part in the outer region holds only the outer join barrier.
  ASSERT_EQ(outer.threads[0].syncs.size(), 1u);
  expect_visit(outer.threads[0].syncs[0], SyncKind::JoinBarrier, 200, 210);
  EXPECT_US(outer.threads[0].end, 210);
  ASSERT_EQ(outer.threads[1].syncs.size(), 1u);
  expect_visit(outer.threads[1].syncs[0], SyncKind::JoinBarrier, 190, 211);
  EXPECT_US(outer.threads[1].end, 211);

  const RegionInstance& inner = region_by_id(t, 20);
  EXPECT_EQ(inner.parent_parallel_id, 10u);
  EXPECT_EQ(inner.master_thread, 0u);
  EXPECT_EQ(inner.codeptr, 0xB0u);
  EXPECT_EQ(inner.team_size, 2u);
  EXPECT_US(inner.begin, 110);
  EXPECT_US(inner.end, 151);
  ASSERT_EQ(inner.threads.size(), 2u);
  EXPECT_EQ(inner.threads[0].thread, 0u);
  EXPECT_EQ(inner.threads[1].thread, 2u);
  EXPECT_US(inner.threads[0].start, 111);
  EXPECT_US(inner.threads[1].start, 112);
  expect_visit(inner.threads[0].syncs.at(0), SyncKind::JoinBarrier, 140, 150);
  expect_visit(inner.threads[1].syncs.at(0), SyncKind::JoinBarrier, 135, 151);
  EXPECT_US(inner.threads[1].end, 151);

  const RegionInstance& serialised = region_by_id(t, 30);
  EXPECT_EQ(serialised.parent_parallel_id, 10u);
  EXPECT_EQ(serialised.master_thread, 1u);
  EXPECT_EQ(serialised.requested_threads, 1u);
  EXPECT_EQ(serialised.team_size, 1u);
  EXPECT_US(serialised.begin, 120);
  EXPECT_US(serialised.end, 127);
  expect_visit(serialised.threads.at(0).syncs.at(0), SyncKind::JoinBarrier, 125, 126);
}

// --- locks -------------------------------------------------------------------------------------

// One 2-thread region (id 10, 100 → 500 µs) with the given lock events inside it; the master
// also takes lock 0x55 once in serial code before the region.
TEST(BuildTimeline, TaskLevelCountsGoToThePartTheyWereWrittenIn) {
  // Thread 0 in region 10 writes the counts of its tasks there as nested region 20 begins (5
  // levels in one record, then 2 from level 6, zeros left out), and region 20's at its end; thread
  // 1 its own at region 10's end; the serial code's counts belong to no region.
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(2, 1000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .task_levels(50, 1, {9})
      .parallel_begin(100, 10, 2, 2, 0xA0)
      .implicit_begin(101, 10, 11, 2, 0)
      .task_levels(110, 1, {2, 4, 0, 16, 32})
      .task_levels(110, 6, {64, 7})
      .parallel_begin(110, 20, 11, 1, 0xB0)
      .implicit_begin(111, 20, 21, 1, 0)
      .task_levels(140, 1, {3})
      .implicit_end(140, 20, 21, 0)
      .parallel_end(141, 20, 11, 0xB0)
      .sync_begin(200, join)
      .sync_end(210, join)
      .implicit_end(210, 10, 11, 0)
      .parallel_end(211, 10, 2, 0xA0)
      .thread_end(1000);
  b.thread(1)
      .thread_begin(50, ompt_thread_worker)
      .implicit_begin(103, 10, 12, 2, 1)
      .sync_begin(200, join)
      .sync_end(210, join)
      .task_levels(210, 2, {5})
      .implicit_end(210, 10, 12, 1)
      .thread_end(1000);
  const Timeline t = build_timeline(b.log());
  std::vector<std::tuple<uint32_t, uint32_t, uint64_t>> got;
  for (const TaskLevelCount& c : t.task_levels) got.emplace_back(c.parallel_id, c.level, c.tasks);
  std::sort(got.begin(), got.end());
  const std::vector<std::tuple<uint32_t, uint32_t, uint64_t>> expected = {
      {10, 1, 2}, {10, 2, 4}, {10, 2, 5}, {10, 4, 16}, {10, 5, 32}, {10, 6, 64}, {10, 7, 7}, {20, 1, 3}};
  EXPECT_EQ(got, expected);
}

TEST(BuildTimeline, LockAndCriticalAcquisitions) {
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(2, 1000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .acquire(10, ompt_mutex_lock, 0x55, 0xD0)
      .acquired(12, ompt_mutex_lock, 0x55, 0xD0)
      .released(20, ompt_mutex_lock, 0x55, 0xD0)
      .parallel_begin(100, 10, 2, 2, 0xA0)
      .implicit_begin(100, 10, 11, 2, 0)
      .acquire(200, ompt_mutex_critical, 0x99, 0xC1)
      .acquired(201, ompt_mutex_critical, 0x99, 0xC1)
      .released(230, ompt_mutex_critical, 0x99, 0xC1)
      .acquire(300, ompt_mutex_lock, 0x55, 0xD1)
      .acquired(302, ompt_mutex_lock, 0x55, 0xD1)
      .released(310, ompt_mutex_lock, 0x55, 0xD1)
      .sync_begin(400, join)
      .sync_end(500, join)
      .implicit_end(500, 10, 11, 0)
      .parallel_end(500, 10, 2, 0xA0)
      .thread_end(1000);
  b.thread(1)
      .thread_begin(50, ompt_thread_worker)
      .implicit_begin(100, 10, 12, 2, 1)
      .acquire(205, ompt_mutex_critical, 0x99, 0xC1)
      .acquired(230, ompt_mutex_critical, 0x99, 0xC1)
      .released(240, ompt_mutex_critical, 0x99, 0)  // non-master critical release: codeptr 0 (docs/runtime-quirks.md Q2)
      .sync_begin(450, join)
      .sync_end(600, join)
      .implicit_end(600, 0, 12, 1)
      .thread_end(1000);
  const Timeline t = build_timeline(b.log());

  ASSERT_EQ(t.locks.size(), 4u);  // ordered by request
  const LockAcquisition& serial = t.locks[0];
  EXPECT_EQ(serial.thread, 0u);
  EXPECT_EQ(serial.wait_id, 0x55u);
  EXPECT_EQ(serial.codeptr, 0xD0u);
  EXPECT_EQ(serial.mutex_kind, ompt_mutex_lock);
  EXPECT_EQ(serial.parallel_id, 0u);  // serial code
  EXPECT_US(serial.request, 10);
  EXPECT_US(serial.acquired, 12);
  EXPECT_US(serial.released, 20);

  const LockAcquisition& c0 = t.locks[1];
  EXPECT_EQ(c0.thread, 0u);
  EXPECT_EQ(c0.wait_id, 0x99u);
  EXPECT_EQ(c0.mutex_kind, ompt_mutex_critical);
  EXPECT_EQ(c0.parallel_id, 10u);
  EXPECT_US(c0.request, 200);
  EXPECT_US(c0.acquired, 201);
  EXPECT_US(c0.released, 230);

  const LockAcquisition& c1 = t.locks[2];
  EXPECT_EQ(c1.thread, 1u);
  EXPECT_EQ(c1.wait_id, 0x99u);
  EXPECT_EQ(c1.codeptr, 0xC1u);  // the acquiring callsite, not the release's 0
  EXPECT_EQ(c1.parallel_id, 10u);
  EXPECT_US(c1.request, 205);
  EXPECT_US(c1.acquired, 230);
  EXPECT_US(c1.released, 240);

  const LockAcquisition& l = t.locks[3];
  EXPECT_EQ(l.thread, 0u);
  EXPECT_EQ(l.codeptr, 0xD1u);
  EXPECT_US(l.request, 300);
  EXPECT_US(l.acquired, 302);
  EXPECT_US(l.released, 310);

  // Lock wait inside the region, per thread: acquire request → acquired.
  ASSERT_EQ(t.regions.size(), 1u);
  EXPECT_US(t.regions[0].threads.at(0).lock_wait, 1 + 2);
  EXPECT_US(t.regions[0].threads.at(1).lock_wait, 25);
}

// A nest lock taken twice by its owner: omp_set_nest_lock fires mutex_acquire each time, then
// mutex_acquired the first time and nest_lock(begin) the second; the inner unset fires
// nest_lock(end), the outer one mutex_released.
LogBuilder nest_lock_log() {
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(1, 1000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(50, 10, 2, 1, 0xA0)
      .implicit_begin(50, 10, 11, 1, 0)
      .acquire(100, ompt_mutex_nest_lock, 0x66, 0xE0)
      .acquired(105, ompt_mutex_nest_lock, 0x66, 0xE0)
      .acquire(120, ompt_mutex_nest_lock, 0x66, 0xE1)
      .nest_lock(121, ompt_scope_begin, 0x66, 0xE1)
      .nest_lock(130, ompt_scope_end, 0x66, 0xE2)
      .released(150, ompt_mutex_nest_lock, 0x66, 0xE3)
      .sync_begin(200, join)
      .sync_end(210, join)
      .implicit_end(210, 10, 11, 0)
      .parallel_end(210, 10, 2, 0xA0)
      .thread_end(1000);
  return b;
}

TEST(BuildTimeline, NestLockReacquiredByItsOwnerIsASecondImmediateAcquisition) {
  const Timeline t = build_timeline(nest_lock_log().log());
  ASSERT_EQ(t.locks.size(), 2u);
  const LockAcquisition& outer = t.locks[0];
  EXPECT_EQ(outer.mutex_kind, ompt_mutex_nest_lock);
  EXPECT_EQ(outer.codeptr, 0xE0u);
  EXPECT_US(outer.request, 100);
  EXPECT_US(outer.acquired, 105);
  EXPECT_US(outer.released, 150);  // the outer unset releases the lock
  const LockAcquisition& again = t.locks[1];
  EXPECT_EQ(again.wait_id, 0x66u);
  EXPECT_EQ(again.codeptr, 0xE1u);
  EXPECT_US(again.request, 120);
  EXPECT_US(again.acquired, 121);
  // No hold time of its own: the outer acquisition already holds the lock over it.
  EXPECT_US(again.released, 121);
}

// ThreadInRegion::lock_wait is "acquire request → acquired, summed": the re-acquisition's
// 1 µs (request 120 → nest_lock begin 121) belongs in it as it does in the LockAcquisition.
// DISABLED: timeline.cpp ThreadWalk::on(), case NestLockNext, sets acquired/released but
// never adds t − request to the part's lock_wait (only MutexAcquired does), so the region
// profile's lock wait (5 µs) disagrees with lock_costs' acquire_s (6 µs).
TEST(BuildTimeline, NestLockReacquisitionCountsInLockWait) {
  const Timeline t = build_timeline(nest_lock_log().log());
  ASSERT_EQ(t.regions.size(), 1u);
  EXPECT_US(t.regions[0].threads.at(0).lock_wait, 5 + 1);
}

// --- tasks -------------------------------------------------------------------------------------

TEST(BuildTimeline, TaskCreatedOnOneThreadRunsOnAnotherAndInsideABarrier) {
  // Master (implicit task 11) creates tasks 50 and 51. The worker (implicit task 12) runs task
  // 50 outside any barrier; the master runs task 51 while it waits in an explicit barrier.
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  const auto barrier = ompt_sync_region_barrier_explicit;
  LogBuilder b(2, 1000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(100, 10, 2, 2, 0xA0)
      .implicit_begin(100, 10, 11, 2, 0)
      .task_create(150, 50, 11, 0xE1)
      .task_create(160, 51, 11, 0xE2, ompt_task_explicit | ompt_task_untied)
      .sync_begin(200, barrier, 0xB1)
      .task_schedule(210, 11, ompt_task_switch, 51)
      .task_schedule(260, 51, ompt_task_complete, 11)
      .sync_end(300, barrier, 0xB1)
      .sync_begin(400, join)
      .sync_end(410, join)
      .implicit_end(410, 10, 11, 0)
      .parallel_end(410, 10, 2, 0xA0)
      .thread_end(1000);
  b.thread(1)
      .thread_begin(50, ompt_thread_worker)
      .implicit_begin(100, 10, 12, 2, 1)
      .task_schedule(170, 12, ompt_task_switch, 50)
      .task_schedule(190, 50, ompt_task_complete, 12)
      .sync_begin(195, barrier, 0xB1)
      .sync_end(300, barrier, 0xB1)
      .sync_begin(380, join)
      .sync_end(800, join)
      .implicit_end(800, 0, 12, 1)
      .thread_end(1000);
  const Timeline t = build_timeline(b.log());

  ASSERT_EQ(t.tasks.size(), 2u);  // ordered by creation
  const TaskInstance& t50 = t.tasks[0];
  EXPECT_EQ(t50.id, 50u);
  EXPECT_EQ(t50.parent, 11u);
  EXPECT_EQ(t50.parallel_id, 10u);
  EXPECT_EQ(t50.creator_thread, 0u);
  EXPECT_EQ(t50.codeptr, 0xE1u);
  EXPECT_EQ(t50.flags, static_cast<uint32_t>(ompt_task_explicit));
  EXPECT_US(t50.created, 150);
  EXPECT_US(t50.completed, 190);
  ASSERT_EQ(t50.fragments.size(), 1u);
  EXPECT_EQ(t50.fragments[0].thread, 1u);
  EXPECT_US(t50.fragments[0].begin, 170);
  EXPECT_US(t50.fragments[0].end, 190);
  EXPECT_US(t50.exclusive(), 20);

  const TaskInstance& t51 = t.tasks[1];
  EXPECT_EQ(t51.id, 51u);
  EXPECT_EQ(t51.flags, static_cast<uint32_t>(ompt_task_explicit | ompt_task_untied));
  EXPECT_US(t51.completed, 260);
  ASSERT_EQ(t51.fragments.size(), 1u);
  EXPECT_EQ(t51.fragments[0].thread, 0u);
  EXPECT_US(t51.exclusive(), 50);

  ASSERT_EQ(t.regions.size(), 1u);
  const ThreadInRegion& master = t.regions[0].threads.at(0);
  // 100 µs in the barrier, 50 of them running task 51: that part is not waiting.
  expect_visit(master.syncs.at(0), SyncKind::Barrier, 200, 300, /*tasks=*/50);
  EXPECT_US(master.tasks_outside_syncs, 0);
  const ThreadInRegion& worker = t.regions[0].threads.at(1);
  expect_visit(worker.syncs.at(0), SyncKind::Barrier, 195, 300, 0);
  EXPECT_US(worker.tasks_outside_syncs, 20);
  // Each thread completed one task: 51 on the master, 50 on the worker.
  EXPECT_EQ(master.tasks_completed, 1u);
  EXPECT_EQ(worker.tasks_completed, 1u);

  // In the thread's split: barrier wait = (100 − 50) + join 10; the tasks are work.
  const ThreadSplit ms = split_thread_time(t.regions[0], master);
  EXPECT_US(ms.barrier_wait_s, 50 + 10);
  EXPECT_US(ms.task_s, 50);
  EXPECT_US(ms.work_s, 310 - 60);
  const ThreadSplit ws = split_thread_time(t.regions[0], worker);
  EXPECT_US(ws.barrier_wait_s, 105 + (410 - 380));
  EXPECT_US(ws.task_s, 20);
}

TEST(BuildTimeline, SampledOutTasksInABarrierAreCountedAndTimedFromTheRecordedOnes) {
  // Task sampling: the master records the creations of 50 (in the prefix) and 51 (standing for
  // 4). The worker runs 50 (120 → 130) outside the barrier, then in the barrier 51 (200 → 220)
  // and a batch of 3 light tasks from 230 (two of them created by the first), counted at its
  // next record (300). The master runs a
  // batch of 5 from 205, counted at 260. A light task lasts as long as the region's recorded
  // tasks of the sampled phase, 51's 20 µs: the worker's batch 3 × 20 µs, the master's 5 × 20
  // µs cut to the 55 µs until its record.
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  const auto barrier = ompt_sync_region_barrier_explicit;
  LogBuilder b(2, 1000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(100, 10, 2, 2, 0xA0)
      .implicit_begin(100, 10, 11, 2, 0)
      .task_create(110, 50, 11, 0xE1, ompt_task_explicit, 1)
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
  const Timeline t = build_timeline(b.log());

  EXPECT_EQ(t.light_tasks, 8u);
  EXPECT_EQ(task_by_id(t, 51).weight, 4u);
  std::vector<const TaskInstance*> batches;
  for (const TaskInstance& task : t.tasks)
    if (task.light) batches.push_back(&task);
  ASSERT_EQ(batches.size(), 2u);
  const TaskInstance& on_master = batches[0]->creator_thread == 0 ? *batches[0] : *batches[1];
  const TaskInstance& on_worker = batches[0]->creator_thread == 0 ? *batches[1] : *batches[0];
  EXPECT_EQ(on_master.light, 5u);
  EXPECT_EQ(on_master.count(), 5u);
  EXPECT_EQ(on_master.parallel_id, 10u);
  ASSERT_EQ(on_master.fragments.size(), 1u);
  EXPECT_US(on_master.fragments[0].begin, 205);
  EXPECT_US(on_master.fragments[0].end, 260);
  EXPECT_EQ(on_worker.light, 3u);
  EXPECT_EQ(on_worker.light_children, 2u);
  EXPECT_EQ(on_master.light_children, 0u);
  ASSERT_EQ(on_worker.fragments.size(), 1u);
  EXPECT_EQ(on_worker.fragments[0].thread, 1u);
  EXPECT_US(on_worker.fragments[0].begin, 230);
  EXPECT_US(on_worker.fragments[0].end, 290);

  // The batches are task time, not waiting, in the barrier they ran in.
  const ThreadInRegion& master = t.regions.at(0).threads.at(0);
  expect_visit(master.syncs.at(0), SyncKind::Barrier, 200, 300, /*tasks=*/55);
  const ThreadInRegion& worker = t.regions.at(0).threads.at(1);
  expect_visit(worker.syncs.at(0), SyncKind::Barrier, 195, 300, /*tasks=*/20 + 60);
  EXPECT_US(worker.tasks_outside_syncs, 10);
  // Tasks each thread ran: the master its batch of 5; the worker 50, 51 and its batch of 3.
  EXPECT_EQ(master.tasks_completed, 5u);
  EXPECT_EQ(worker.tasks_completed, 1u + 1u + 3u);
  EXPECT_DOUBLE_EQ(split_thread_time(t.regions.at(0), worker).tasks, 5);
}

TEST(BuildTimeline, LightTasksLastAsLongAsTheRecordedOnesOfTheThreadThatRanThem) {
  // 16 creations of the sampled phase (each standing for 16). The master runs 8 of them, 10 µs
  // each; the worker steals the other 8, which take it 40 µs each (their data is in the
  // master's cache). Each thread then runs a batch of 10 light tasks in the barrier: the
  // master's last 10 × 10 µs, the worker's 10 × 40 µs, not 10 × the region's 25 µs.
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  const auto barrier = ompt_sync_region_barrier_explicit;
  LogBuilder b(2, 3000);
  testing::Stream master = b.thread(0);
  master.thread_begin(0).initial_task(0, 1, 2).parallel_begin(100, 10, 2, 2, 0xA0).implicit_begin(100, 10, 11, 2, 0);
  for (uint32_t i = 0; i < 16; ++i) master.task_create(110 + i, 100 + i, 11, 0xE1, ompt_task_explicit, 16);
  for (uint32_t i = 0; i < 8; ++i)
    master.task_schedule(200 + 20 * i, 11, ompt_task_switch, 100 + i).task_schedule(210 + 20 * i, 100 + i, ompt_task_complete, 11);
  master.sync_begin(400, barrier)
      .light_tasks(2000, 400, 10)
      .sync_end(2000, barrier)
      .sync_begin(2100, join)
      .sync_end(2110, join)
      .implicit_end(2110, 10, 11, 0)
      .parallel_end(2110, 10, 2, 0xA0)
      .thread_end(3000);
  testing::Stream worker = b.thread(1);
  worker.thread_begin(50, ompt_thread_worker).implicit_begin(100, 10, 12, 2, 1).sync_begin(150, barrier);
  for (uint32_t i = 0; i < 8; ++i)
    worker.task_schedule(200 + 50 * i, 12, ompt_task_switch, 108 + i).task_schedule(240 + 50 * i, 108 + i, ompt_task_complete, 12);
  worker.light_tasks(2000, 600, 10)
      .sync_end(2000, barrier)
      .sync_begin(2100, join)
      .sync_end(2110, join)
      .implicit_end(2110, 0, 12, 1)
      .thread_end(3000);
  const Timeline t = build_timeline(b.log());

  ASSERT_EQ(t.light_tasks, 20u);
  for (const TaskInstance& task : t.tasks) {
    if (!task.light) continue;
    ASSERT_EQ(task.fragments.size(), 1u);
    const TaskFragment& f = task.fragments[0];
    if (f.thread == 0) {
      EXPECT_US(f.begin, 400);
      EXPECT_US(f.end, 400 + 10 * 10);
    } else {
      EXPECT_US(f.begin, 600);
      EXPECT_US(f.end, 600 + 10 * 40);
    }
  }
  EXPECT_EQ(t.regions.at(0).threads.at(0).tasks_completed, 8u + 10u);
  EXPECT_EQ(t.regions.at(0).threads.at(1).tasks_completed, 8u + 10u);
}

TEST(BuildTimeline, LightTasksLastAsLongAsTheTimedOnesWhereEnoughWereTimed) {
  // 16 recorded creations of the sampled phase (each standing for 16), run by the master, 10 µs
  // each: the tool's records inside each window. Its light tasks ran in 3 batches of 20, which
  // timed 2, 3 and 3 of them start to end: 8 bodies of 4 µs on average (2 × 3 µs, then 3 × 4 µs,
  // 3 × 4.67 µs). The batches last 20 × 4 µs, not 20 × 10. With only 7 timed (the last batch
  // timed 2), the recorded ones stand for them again.
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  const auto barrier = ompt_sync_region_barrier_explicit;
  for (const uint16_t last_timed : {3, 2}) {
    const uint32_t last_ns = last_timed == 3 ? 14000 : 9333;
    LogBuilder b(1, 5000);
    testing::Stream master = b.thread(0);
    master.thread_begin(0).initial_task(0, 1, 2).parallel_begin(100, 10, 1, 2, 0xA0).implicit_begin(100, 10, 11, 1, 0);
    for (uint32_t i = 0; i < 16; ++i) master.task_create(110 + i, 100 + i, 11, 0xE1, ompt_task_explicit, 16);
    for (uint32_t i = 0; i < 16; ++i)
      master.task_schedule(200 + 20 * i, 11, ompt_task_switch, 100 + i).task_schedule(210 + 20 * i, 100 + i, ompt_task_complete, 11);
    master.sync_begin(600, barrier)
        .light_tasks(1000, 600, 20, 0, 2, 6000)
        .light_tasks(1500, 1100, 20, 0, 3, 12000)
        .light_tasks(2000, 1600, 20, 0, last_timed, last_ns)
        .sync_end(2000, barrier)
        .sync_begin(2100, join)
        .sync_end(2110, join)
        .implicit_end(2110, 10, 11, 0)
        .parallel_end(2110, 10, 1, 0xA0)
        .thread_end(3000);
    const Timeline t = build_timeline(b.log());

    ASSERT_EQ(t.light_tasks, 60u);
    const double body = last_timed == 3 ? (6000.0 + 12000 + 14000) / 8 / 1000 : 10;
    size_t batches = 0;
    for (const TaskInstance& task : t.tasks) {
      if (!task.light) continue;
      ASSERT_EQ(task.fragments.size(), 1u);
      EXPECT_NEAR((task.fragments[0].end - task.fragments[0].begin) * 1e6, 20 * body, 1e-6) << last_timed;
      ++batches;
    }
    EXPECT_EQ(batches, 3u);
  }
}

TEST(BuildTimeline, EachBatchTakesTheTimedMeanOfItsOwnRegionInstanceAndThread) {
  // Two instances of two threads, then serial code, every batch of 10 light tasks timed by the
  // capture: the master's 2 µs a task in the first, 3 µs in the second and 5 µs in serial code;
  // the worker's 6 µs in the first, 9 µs in the second from only 2 timed, too few for its own,
  // where the instance's (3 × 8 + 9 × 2) / 10 = 4.2 µs stands. Where a batch were taken for
  // another instance's or thread's (the initial task for a region, say), its length would say so.
  LogBuilder b(2, 5000);
  testing::Stream master = b.thread(0), worker = b.thread(1);
  master.thread_begin(0).initial_task(0, 1, 2)
      .parallel_begin(100, 10, 2, 2, 0xA0).implicit_begin(100, 10, 11, 2, 0)
      .light_tasks(300, 100, 10, 0, 8, 16000)
      .implicit_end(400, 10, 11, 0).parallel_end(400, 10, 2, 0xA0)
      .parallel_begin(500, 20, 2, 2, 0xB0).implicit_begin(500, 20, 21, 2, 0)
      .light_tasks(700, 500, 10, 0, 8, 24000)
      .implicit_end(800, 20, 21, 0).parallel_end(800, 20, 2, 0xB0)
      .light_tasks(1000, 900, 10, 0, 8, 40000)
      .thread_end(2000);
  worker.thread_begin(90, ompt_thread_worker)
      .implicit_begin(100, 10, 12, 2, 1).light_tasks(300, 100, 10, 0, 8, 48000).implicit_end(400, 10, 12, 1)
      .implicit_begin(500, 20, 22, 2, 1).light_tasks(700, 500, 10, 0, 2, 18000).implicit_end(800, 20, 22, 1)
      .thread_end(2000);
  const Timeline t = build_timeline(b.log());

  ASSERT_EQ(t.light_tasks, 50u);
  std::map<std::pair<uint32_t, long>, double> length;  // by (thread, start), in µs
  for (const TaskInstance& task : t.tasks) {
    if (!task.light) continue;
    ASSERT_EQ(task.fragments.size(), 1u);
    length[{task.creator_thread, std::lround(task.created * 1e6)}] = (task.fragments[0].end - task.fragments[0].begin) * 1e6;
  }
  const std::map<std::pair<uint32_t, long>, double> expected{
      {{0, 100}, 20}, {{0, 500}, 30}, {{0, 900}, 50}, {{1, 100}, 60}, {{1, 500}, 42}};
  ASSERT_EQ(length.size(), expected.size());
  for (const auto& [at, us] : expected) EXPECT_NEAR(length[at], us, 1e-6) << "thread " << at.first << " at " << at.second;
}

TEST(BuildTimeline, AnUntiedLightTaskHandedBackToItsRecordedCreatorRunsUntilItCompletesIntoIt) {
  // BOTS sparselu's shape on libomp: a recorded untied task P (90) creates untied light tasks
  // and runs each at once. libomp runs an untied task as parts: started from P, it hands its
  // continuation back to P (a switch, recorded since P is; its batch written just before, 1 µs
  // after the start), then runs it unrecorded and completes into P 50 µs later. The capture timed
  // one task in each batch (the one before: its end came after its own batch was written), 50 µs.
  // Each batch lasts the 50 µs the timed ones say, not the 1 µs until its record. Where P goes on
  // before the continuation runs (the last one), the batch keeps its window: what ran after P's
  // record is not known to be the batch's.
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(1, 5000);
  testing::Stream master = b.thread(0);
  master.thread_begin(0).initial_task(0, 1, 2).parallel_begin(100, 10, 1, 2, 0xA0).implicit_begin(100, 10, 11, 1, 0);
  master.task_create(105, 90, 11, 0xE0, ompt_task_explicit | ompt_task_untied).task_schedule(110, 11, ompt_task_switch, 90);
  for (uint32_t i = 0; i < 10; ++i) {
    const uint64_t start = 200 + 100 * i;
    master.task_schedule(start, 90, ompt_task_switch, 0)
        .light_tasks(start + 1, start, 1, 0, 1, 50000)
        .task_schedule(start + 1, 0, ompt_task_switch, 90);
    if (i == 9)  // P goes on first (its own record), then switches to the continuation
      master.task_create(start + 2, 91, 90, 0xE1).task_schedule(start + 3, 90, ompt_task_switch, 0);
    master.task_schedule(start + 51, 0, ompt_task_complete, 90);
  }
  master.task_schedule(1300, 90, ompt_task_complete, 11)
      .sync_begin(1400, join)
      .sync_end(1410, join)
      .implicit_end(1410, 10, 11, 0)
      .parallel_end(1410, 10, 1, 0xA0)
      .thread_end(2000);
  const Timeline t = build_timeline(b.log());

  ASSERT_EQ(t.light_tasks, 10u);
  size_t batches = 0;
  for (const TaskInstance& task : t.tasks) {
    if (!task.light) continue;
    ASSERT_EQ(task.fragments.size(), 1u);
    const double start = 200 + 100 * static_cast<double>(batches);
    EXPECT_US(task.fragments[0].begin, start);
    EXPECT_US(task.fragments[0].end, batches < 9 ? start + 50 : start + 1) << batches;
    EXPECT_DOUBLE_EQ(task.completed, task.fragments[0].end);
    ++batches;
  }
  EXPECT_EQ(batches, 10u);
  // P's own work: from its start to its first light task, between the light tasks, and after
  // the last; not the light tasks' bodies.
  const TaskInstance& producer = task_by_id(t, 90);
  EXPECT_NEAR(producer.exclusive() * 1e6, 90 + 9 * 49 + 2 + 149, 1e-6);
  // Both are task time in the implicit task's part (no visit was open).
  EXPECT_NEAR(t.regions.at(0).threads.at(0).tasks_outside_syncs * 1e6, (90 + 9 * 49 + 2 + 149) + (9 * 50 + 1), 1e-6);
}

TEST(BuildTimeline, ABodyReadAtItsEdgesIsNoSampleOfTheLightOnesUnlessItIsLong) {
  // The master runs 9 recorded tasks of the sampled phase (each standing for 16): 8 of 10 µs,
  // and one read at its edges whose fragment holds 16 µs, most of it what its second reading
  // cost beyond the cheapest (2 µs). Its batch of 10 light tasks lasts 10 × 10 µs, not 10 × the
  // mean with the read body in. A read body of 500 µs (250 readings) is a sample like any other.
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  const auto barrier = ompt_sync_region_barrier_explicit;
  for (const uint64_t read_body : {16, 500}) {
    LogBuilder b(1, 5000);
    b.usage_reading_us(2);
    testing::Stream master = b.thread(0);
    master.thread_begin(0).initial_task(0, 1, 2).parallel_begin(100, 10, 1, 2, 0xA0).implicit_begin(100, 10, 11, 1, 0);
    for (uint32_t i = 0; i < 9; ++i) master.task_create(110 + i, 100 + i, 11, 0xE1, ompt_task_explicit, 16);
    for (uint32_t i = 0; i < 8; ++i)
      master.task_schedule(200 + 20 * i, 11, ompt_task_switch, 100 + i).task_schedule(210 + 20 * i, 100 + i, ompt_task_complete, 11);
    master.task_schedule(360, 11, ompt_task_switch, 108)
        .usage(362, kUsageBodyStarts, 1000, 0)
        .usage(364 + read_body, kUsageBodyEnds, 1000 + read_body, 0)
        .task_schedule(365 + read_body, 108, ompt_task_complete, 11)
        .sync_begin(1000, barrier)
        .light_tasks(3000, 1000, 10)
        .sync_end(3000, barrier)
        .sync_begin(3100, join)
        .sync_end(3110, join)
        .implicit_end(3110, 10, 11, 0)
        .parallel_end(3110, 10, 1, 0xA0)
        .thread_end(5000);
    const Timeline t = build_timeline(b.log());
    const auto batch = std::find_if(t.tasks.begin(), t.tasks.end(), [](const TaskInstance& k) { return k.light > 0; });
    ASSERT_NE(batch, t.tasks.end());
    ASSERT_EQ(batch->fragments.size(), 1u);
    const TaskFragment& f = batch->fragments[0];
    EXPECT_US(f.begin, 1000);
    if (read_body == 16) {
      EXPECT_US(f.end, 1000 + 10 * 10);
    } else {
      EXPECT_GT(f.end - f.begin, 10 * 10e-6 * 1.5);  // the long one pulls the mean up: a sample
    }
  }
}

TEST(BuildTimeline, ABatchOfARecursiveTreeLastsWhatTheTreesTasksTakeForTheTasksItCreated) {
  // The tree's first 40 subtrees recorded in full (weight 1): each root's own work is 26 µs, 10 of
  // its own and 8 for each of its two children, which take 10 µs each. Then a root of the sampled
  // phase (standing for 16) runs 50 µs, its children all light. A batch of 10 light tasks that
  // created 6 lasts 10 × 10 + 6 × 8 µs by the line of the bodies on the tasks created, not 10 ×
  // the sampled phase's 50 µs: light tasks are the tree's lower levels, creating fewer tasks.
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(1, 30000);
  testing::Stream s = b.thread(0);
  s.thread_begin(0).initial_task(0, 1, 2).parallel_begin(100, 10, 1, 1, 0xA0).implicit_begin(100, 10, 11, 1, 0);
  uint64_t now = 200;
  for (uint32_t r = 0; r < 40; ++r, now += 50) {
    const uint32_t root = 100 + r, first = 1000 + 2 * r;
    s.task_create(now, root, 11, 0xE1).task_schedule(now + 1, 11, ompt_task_switch, root);
    s.task_create(now + 2, first, root, 0xE1).task_create(now + 3, first + 1, root, 0xE1);
    s.task_schedule(now + 27, root, ompt_task_complete, 11);
    s.task_schedule(now + 28, 11, ompt_task_switch, first).task_schedule(now + 38, first, ompt_task_complete, 11);
    s.task_schedule(now + 39, 11, ompt_task_switch, first + 1).task_schedule(now + 49, first + 1, ompt_task_complete, 11);
  }
  s.task_create(now, 5000, 11, 0xE1, ompt_task_explicit, 16)
      .task_schedule(now + 1, 11, ompt_task_switch, 5000)
      .task_schedule(now + 51, 5000, ompt_task_complete, 11)
      .sync_begin(now + 60, join)
      .light_tasks(now + 2000, now + 70, 10, 6)
      .sync_end(now + 2000, join)
      .implicit_end(now + 2000, 10, 11, 0)
      .parallel_end(now + 2000, 10, 1, 0xA0)
      .thread_end(30000);
  const Timeline t = build_timeline(b.log());
  const TaskInstance& batch = t.tasks.back();
  ASSERT_EQ(batch.light, 10u);
  EXPECT_EQ(batch.light_children, 6u);
  EXPECT_US(batch.fragments.at(0).begin, now + 70);
  EXPECT_US(batch.fragments.at(0).end, now + 70 + 10 * 10 + 6 * 8);
}

TEST(BuildTimeline, ARecordedTaskDelayedByTheMachineDoesNotLengthenTheLightOnes) {
  // 100 recorded tasks of the sampled phase, each standing for 16: 99 take 10 µs, one was
  // preempted for 10 ms. A batch of 10 light tasks lasts 10 × 10 µs: bodies above the weighted
  // 99th percentile count as that percentile. The plain mean (109.9 µs) would make it 1.1 ms.
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(1, 30000);
  testing::Stream s = b.thread(0);
  s.thread_begin(0).initial_task(0, 1, 2).parallel_begin(100, 10, 1, 1, 0xA0).implicit_begin(100, 10, 11, 1, 0);
  for (uint32_t i = 0; i < 100; ++i) s.task_create(110 + i, 100 + i, 11, 0xE1, ompt_task_explicit, 16);
  uint64_t now = 300;
  for (uint32_t i = 0; i < 100; ++i) {
    const uint64_t body = i == 50 ? 10000 : 10;
    s.task_schedule(now, 11, ompt_task_switch, 100 + i).task_schedule(now + body, 100 + i, ompt_task_complete, 11);
    now += body + 5;
  }
  s.sync_begin(now, join)
      .light_tasks(now + 5000, now + 10, 10)
      .sync_end(now + 5000, join)
      .implicit_end(now + 5000, 10, 11, 0)
      .parallel_end(now + 5000, 10, 1, 0xA0)
      .thread_end(30000);
  const Timeline t = build_timeline(b.log());
  const TaskInstance& batch = t.tasks.back();
  ASSERT_EQ(batch.light, 10u);
  EXPECT_US(batch.fragments.at(0).begin, now + 10);
  EXPECT_US(batch.fragments.at(0).end, now + 10 + 10 * 10);
}

TEST(BuildTimeline, ARecordedTaskSuspendedForALightOneIsNotChargedForIt) {
  // Task 60 (recorded) starts a light task at 210 in its taskwait (the capture writes the switch
  // with no next task) and resumes at 240, after the batch record; it completes at 250.
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(1, 1000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(100, 10, 1, 1, 0xA0)
      .implicit_begin(100, 10, 11, 1, 0)
      .task_create(150, 60, 11, 0xF1)
      .task_schedule(200, 11, ompt_task_switch, 60)
      .task_schedule(210, 60, ompt_task_switch, 0)
      .light_tasks(240, 210, 1)
      .task_schedule(240, 0, ompt_task_complete, 60)
      .task_schedule(250, 60, ompt_task_complete, 11)
      .sync_begin(300, join)
      .sync_end(310, join)
      .implicit_end(310, 10, 11, 0)
      .parallel_end(310, 10, 1, 0xA0)
      .thread_end(1000);
  const Timeline t = build_timeline(b.log());
  EXPECT_US(task_by_id(t, 60).exclusive(), 10 + 10);
  EXPECT_EQ(t.light_tasks, 1u);
  // The light task is as long as the only recorded one: 20 µs of the 30 until the record.
  const TaskInstance& batch = t.tasks.back();
  ASSERT_EQ(batch.light, 1u);
  EXPECT_US(batch.fragments.at(0).begin, 210);
  EXPECT_US(batch.fragments.at(0).end, 230);
}

TEST(BuildTimeline, SuspendedTaskIsNotChargedForTheTaskThatRanInItsPlace) {
  // The f1/f2 example: two identical tasks of 80 µs each on one thread. f1 (60) runs 40 µs,
  // is suspended (taskyield) while f2 (61) runs its 80 µs, then finishes its last 40 µs.
  // Both must get the same exclusive time, although f1 spans 160 µs from start to end.
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(1, 1000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(50, 10, 2, 1, 0xA0)
      .implicit_begin(50, 10, 11, 1, 0)
      .task_create(100, 60, 11, 0xF1)
      .task_create(101, 61, 11, 0xF1)
      .task_schedule(110, 11, ompt_task_switch, 60)
      .task_schedule(150, 60, ompt_task_yield, 61)
      .task_schedule(230, 61, ompt_task_complete, 60)
      .task_schedule(270, 60, ompt_task_complete, 11)
      .sync_begin(300, join)
      .sync_end(310, join)
      .implicit_end(310, 10, 11, 0)
      .parallel_end(310, 10, 2, 0xA0)
      .thread_end(1000);
  const Timeline t = build_timeline(b.log());

  const TaskInstance& f1 = task_by_id(t, 60);
  const TaskInstance& f2 = task_by_id(t, 61);
  EXPECT_US(f1.exclusive(), 80);
  EXPECT_US(f2.exclusive(), 80);
  EXPECT_DOUBLE_EQ(f1.exclusive(), f2.exclusive());
  ASSERT_EQ(f1.fragments.size(), 2u);
  EXPECT_US(f1.fragments[0].begin, 110);
  EXPECT_US(f1.fragments[0].end, 150);
  EXPECT_US(f1.fragments[1].begin, 230);
  EXPECT_US(f1.fragments[1].end, 270);
  EXPECT_US(f1.completed, 270);
  ASSERT_EQ(f2.fragments.size(), 1u);
  EXPECT_US(f2.fragments[0].begin, 150);
  EXPECT_US(f2.fragments[0].end, 230);
  EXPECT_US(f2.completed, 230);
  // Outside any barrier: all 160 µs of task execution are the thread's own work.
  ASSERT_EQ(t.regions.size(), 1u);
  EXPECT_US(t.regions[0].threads.at(0).tasks_outside_syncs, 160);
}

TEST(BuildTimeline, TaskTimeInsideATaskwaitIsSubtractedFromItsWaiting) {
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(1, 1000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(50, 10, 2, 1, 0xA0)
      .implicit_begin(50, 10, 11, 1, 0)
      .task_create(60, 70, 11, 0xF1)
      .task_create(61, 71, 11, 0xF1)
      .sync_begin(100, ompt_sync_region_taskwait, 0xF2)
      .task_schedule(100, 11, ompt_task_switch, 70)
      .task_schedule(130, 70, ompt_task_complete, 71)
      .task_schedule(170, 71, ompt_task_complete, 11)
      .sync_end(175, ompt_sync_region_taskwait, 0xF2)
      .sync_begin(300, join)
      .sync_end(310, join)
      .implicit_end(310, 10, 11, 0)
      .parallel_end(310, 10, 2, 0xA0)
      .thread_end(1000);
  const Timeline t = build_timeline(b.log());
  ASSERT_EQ(t.regions.size(), 1u);
  const ThreadInRegion& p = t.regions[0].threads.at(0);
  ASSERT_EQ(p.syncs.size(), 2u);
  expect_visit(p.syncs[0], SyncKind::Taskwait, 100, 175, /*tasks=*/30 + 40);
  EXPECT_US(task_by_id(t, 70).exclusive(), 30);
  EXPECT_US(task_by_id(t, 71).exclusive(), 40);
}

// The recursive-task pattern (fib): a thread waiting in a barrier (100 → 200) runs task T
// (110 → 170); T waits in a taskwait (120 → 160) during which its child C runs (130 → 150).
//   B.tasks  = T + C = 60: both ran while the thread was in the barrier.
//   TW.tasks = C = 20 only: T is the task *waiting* in TW; its 110 → 120 before TW began, and
//              its resumed 150 → 160 inside TW, are not tasks run inside the visit. TW waits 20.
//   task_s   = 60: each µs of task execution counted once, however deep the syncs are nested.
// DISABLED: timeline.cpp ThreadWalk::close_fragment() adds each fragment's whole duration to
// every open sync, including a taskwait opened by the very task that is running (TW.tasks =
// 40 → TW waiting 0), and region_profile.cpp split_thread_time() sums v.tasks over nested
// visits, so C is counted twice and T once more (task_s = 100 > the 60 µs of tasks run).
// Fix: remember at SyncBegin which task owns the visit (running_task_, 0 = implicit) and add a
// fragment only to visits opened while that fragment's task was not the owner and not before
// the fragment began (i.e. add min(dt, t − visit.arrive) to visits not owned by the running
// task); in split_thread_time count task time once (e.g. sum v.tasks only over visits not
// nested in another visit of the same part, or keep a per-part task total in the timeline).
TEST(BuildTimeline, TaskwaitInsideATaskInsideABarrierCountsOnlyTheTasksRunInsideIt) {
  const RunLog log = testing::task_with_taskwait_in_barrier_log();
  const Timeline t = build_timeline(log);
  EXPECT_US(task_by_id(t, 80).exclusive(), 40);
  EXPECT_US(task_by_id(t, 81).exclusive(), 20);
  ASSERT_EQ(t.regions.size(), 1u);
  const RegionInstance& r = t.regions[0];
  const ThreadInRegion& p = r.threads.at(0);
  const SyncVisit* tw = nullptr;
  const SyncVisit* bar = nullptr;
  for (const SyncVisit& v : p.syncs) {
    if (v.kind == SyncKind::Taskwait) tw = &v;
    if (v.kind == SyncKind::Barrier) bar = &v;
  }
  ASSERT_TRUE(tw && bar);
  expect_visit(*bar, SyncKind::Barrier, 100, 200, /*tasks=*/60);
  expect_visit(*tw, SyncKind::Taskwait, 120, 160, /*tasks=*/20);
  EXPECT_EQ(tw->task, 80u);   // T waits in it: the task graph joins T's children there
  EXPECT_EQ(bar->task, 0u);   // the implicit task's
  EXPECT_EQ(p.implicit_task, 11u);
  EXPECT_US(split_thread_time(r, p).task_s, 60);
}

// --- a program that died -----------------------------------------------------------------------

// The program dies at 290 µs inside region 10: no ParallelEnd, no ThreadEnd, no finalize.
// Master: takes lock 0x88 (200 → 205), creates task 70, enters an explicit barrier at 240 and
// runs task 70 in it from 250; task 70 creates task 71 at 290, the last event of the run.
// Worker: asks for lock 0x88 at 230 and never gets it: its stream stops there.
LogBuilder died_log() {
  LogBuilder b(2, /*finalize_us=*/0);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(100, 10, 2, 2, 0xA0)
      .implicit_begin(101, 10, 11, 2, 0)
      .acquire(200, ompt_mutex_lock, 0x88, 0xD0)
      .acquired(205, ompt_mutex_lock, 0x88, 0xD0)
      .task_create(210, 70, 11, 0xE0)
      .sync_begin(240, ompt_sync_region_barrier_explicit, 0xB0)
      .task_schedule(250, 11, ompt_task_switch, 70)
      .task_create(290, 71, 70, 0xE1);
  b.thread(1)
      .thread_begin(50, ompt_thread_worker)
      .implicit_begin(102, 10, 12, 2, 1)
      .acquire(230, ompt_mutex_lock, 0x88, 0xD0);
  return b;
}

TEST(BuildTimeline, LogCutShortStillYieldsTheRegionWithIntervalsClosedAtTheLastEvent) {
  const Timeline t = build_timeline(died_log().log());
  EXPECT_US(t.end, 290);
  ASSERT_EQ(t.regions.size(), 1u);
  const RegionInstance& r = t.regions[0];
  EXPECT_FALSE(r.complete);
  EXPECT_US(r.begin, 100);
  EXPECT_US(r.end, 290);
  ASSERT_EQ(r.threads.size(), 2u);

  const ThreadInRegion& master = r.threads[0];
  EXPECT_US(master.start, 101);
  EXPECT_US(master.end, 290);
  ASSERT_EQ(master.syncs.size(), 1u);
  // The barrier it never left is closed at the end; the task it was running inside it is not waiting.
  expect_visit(master.syncs[0], SyncKind::Barrier, 240, 290, /*tasks=*/40);
  EXPECT_US(master.lock_wait, 5);

  const TaskInstance& t70 = task_by_id(t, 70);
  EXPECT_EQ(t70.completed, -1);  // never completed
  ASSERT_EQ(t70.fragments.size(), 1u);
  EXPECT_US(t70.fragments[0].begin, 250);
  EXPECT_US(t70.fragments[0].end, 290);
  const TaskInstance& t71 = task_by_id(t, 71);
  EXPECT_EQ(t71.parent, 70u);
  EXPECT_EQ(t71.completed, -1);
  EXPECT_TRUE(t71.fragments.empty());

  // The master's lock is held until the end.
  ASSERT_EQ(t.locks.size(), 2u);
  EXPECT_EQ(t.locks[0].thread, 0u);
  EXPECT_US(t.locks[0].request, 200);
  EXPECT_US(t.locks[0].acquired, 205);
  EXPECT_US(t.locks[0].released, 290);
  EXPECT_EQ(t.locks[1].thread, 1u);
  EXPECT_US(t.locks[1].request, 230);
}

// A thread whose stream stops before the run's last event was blocked (here: waiting for the
// lock the master holds) when the program died; the process dies as a whole, so its open
// intervals last until the run's last event (290 µs), not until its own last event (230 µs):
// otherwise a deadlock-like wait shows as zero lock wait.
// DISABLED: timeline.cpp ThreadWalk::finish() closes open intervals at the thread's own last_
// (230), and leaves lock_wait unchanged for an acquisition never acquired. Fix: compute
// run_end = log.seconds(log.last_ticks()) before the walks, pass it to finish(), close parts,
// syncs, running tasks and locks there, and add (run_end − request) to the part's lock_wait
// for a request still waiting.
TEST(BuildTimeline, LogCutShortClosesABlockedThreadsIntervalsAtTheRunsLastEvent) {
  const Timeline t = build_timeline(died_log().log());
  ASSERT_EQ(t.regions.size(), 1u);
  const ThreadInRegion& worker = t.regions[0].threads.at(1);
  EXPECT_US(worker.end, 290);
  EXPECT_US(worker.lock_wait, 290 - 230);
  ASSERT_EQ(t.locks.size(), 2u);
  EXPECT_US(t.locks[1].acquired, 290);
  EXPECT_US(t.locks[1].released, 290);
}

TEST(BuildTimeline, EmptyLogGivesAnEmptyTimeline) {
  LogBuilder b(0, 0);
  const Timeline t = build_timeline(b.log());
  EXPECT_TRUE(t.regions.empty());
  EXPECT_TRUE(t.locks.empty());
  EXPECT_TRUE(t.tasks.empty());
  EXPECT_TRUE(t.threads.empty());
  EXPECT_EQ(t.events, 0u);
  EXPECT_US(t.end, 0);
}

}  // namespace
}  // namespace ompscope::analysis
