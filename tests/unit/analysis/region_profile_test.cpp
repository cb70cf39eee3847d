// split_thread_time / profile_program: each thread's time in a region splits into work,
// barrier wait (minus tasks run inside), lock wait and fork/join; the program's time into
// regions and serial code.
#include "analysis/region_profile.h"

#include <gtest/gtest.h>

#include "event_log_builder.h"
#include "region_builder.h"
#include "scenarios.h"

namespace ompscope::analysis {
namespace {

using testing::barrier;
using testing::instance;
using testing::join_barrier;
using testing::member;
using testing::visit;

TEST(SplitThreadTime, WorkBarrierWaitLockWaitAndForkJoinAddUpToTheRegionTime) {
  // Region 0 → 100. The thread starts at 2 and ends at 97 (95 inside).
  //   barrier 30 → 40 with 4 of tasks run inside: 6 waiting
  //   taskwait 50 → 55: 5 waiting
  //   an "other" sync 60 → 62 (e.g. ordered): not waiting
  //   join barrier 80 → 97: 17 waiting
  //   lock wait 3, tasks outside syncs 6
  const RegionInstance r = instance(
      1, 0xA, 0, 100,
      {member(3, 2, 97,
              {barrier(30, 40, false, 4), visit(SyncKind::Taskwait, 50, 55), visit(SyncKind::Other, 60, 62),
               join_barrier(80, 97)},
              /*lock_wait=*/3, /*tasks_outside_syncs=*/6)});
  const ThreadSplit s = split_thread_time(r, r.threads[0]);
  EXPECT_EQ(s.thread, 3u);  // index in the team
  EXPECT_DOUBLE_EQ(s.barrier_wait_s, 6 + 5 + 17);
  EXPECT_DOUBLE_EQ(s.lock_wait_s, 3);
  EXPECT_DOUBLE_EQ(s.task_s, 6 + 4);
  EXPECT_DOUBLE_EQ(s.work_s, 95 - 28 - 3);  // tasks are work
  EXPECT_DOUBLE_EQ(s.fork_join_s, 100 - 95);
  EXPECT_DOUBLE_EQ(s.outside_s, 0);
  EXPECT_DOUBLE_EQ(s.work_s + s.barrier_wait_s + s.lock_wait_s + s.fork_join_s, 100);
}

TEST(SplitThreadTime, ThreadsOfTheTwoThreadLogSplitExactly) {
  // From the event log of scenarios.h: master 102 → 450, worker 104 → 455 (clamped), region 100 → 455.
  const Timeline t = build_timeline(testing::two_thread_loop_log());
  ASSERT_EQ(t.regions.size(), 1u);
  const RegionInstance& r = t.regions[0];
  const ThreadSplit master = split_thread_time(r, r.threads.at(0));
  EXPECT_US(master.barrier_wait_s, (320 - 300) + (450 - 400));
  EXPECT_US(master.work_s, (450 - 102) - 70);
  EXPECT_US(master.fork_join_s, 355 - 348);
  EXPECT_US(master.lock_wait_s, 0);
  const ThreadSplit worker = split_thread_time(r, r.threads.at(1));
  // The late join-barrier end is clamped: 350 → 455, not 350 → 900.
  EXPECT_US(worker.barrier_wait_s, (310 - 200) + (455 - 350));
  EXPECT_US(worker.work_s, (455 - 104) - 215);
  EXPECT_US(worker.fork_join_s, 355 - 351);
}

// Threads 0, 1, 2; run 0 → 1000.
//   R1 (0xA, id 1): 100 → 200, thread 0 (100 → 200), thread 1 (105 → 200, join wait 150 → 200)
//   R2 (0xB, id 2) nested in R1: 120 → 140, thread 0 (120 → 140), thread 2 (125 → 140)
//   R3 (0xA, id 3): 300 → 350, thread 0 (300 → 350), thread 1 (302 → 350, join wait 340 → 350)
Timeline three_region_timeline() {
  Timeline t;
  t.start = 0;
  t.end = 1000;
  t.threads = {{0, 0, 1000}, {1, 50, 1000}, {2, 60, 1000}};
  t.regions.push_back(instance(1, 0xA, 100, 200, {member(0, 100, 200, {}), member(1, 105, 200, {join_barrier(150, 200)})}));
  t.regions.push_back(instance(2, 0xB, 120, 140, {member(0, 120, 140, {}), member(1, 125, 140, {})}, /*parent=*/1));
  t.regions.back().threads[1].thread = 2;
  t.regions.push_back(instance(3, 0xA, 300, 350, {member(0, 300, 350, {}), member(1, 302, 350, {join_barrier(340, 350)})}));
  return t;
}

TEST(ProfileProgram, RegionsAreSummedPerCallsiteAndTheProgramSplitsIntoRegionsAndSerialCode) {
  const ProgramProfile p = profile_program(three_region_timeline());
  EXPECT_DOUBLE_EQ(p.wall_s, 1000);
  EXPECT_DOUBLE_EQ(p.in_regions_s, 100 + 50);  // top-level regions only: R2 is inside R1
  EXPECT_DOUBLE_EQ(p.serial_s, 1000 - 150);

  ASSERT_EQ(p.regions.size(), 2u);  // by first appearance
  const RegionProfile& a = p.regions[0];
  EXPECT_EQ(a.codeptr, 0xAu);
  EXPECT_EQ(a.instances, 2u);
  EXPECT_DOUBLE_EQ(a.time_s, 100 + 50);
  EXPECT_EQ(a.max_team_size, 2u);
  EXPECT_FALSE(a.nested);
  EXPECT_TRUE(a.complete);
  ASSERT_EQ(a.per_thread.size(), 2u);
  EXPECT_EQ(a.per_thread[0].thread, 0u);
  EXPECT_DOUBLE_EQ(a.per_thread[0].work_s, 100 + 50);
  EXPECT_DOUBLE_EQ(a.per_thread[0].fork_join_s, 0);
  EXPECT_EQ(a.per_thread[1].thread, 1u);
  EXPECT_DOUBLE_EQ(a.per_thread[1].work_s, (95 - 50) + (48 - 10));
  EXPECT_DOUBLE_EQ(a.per_thread[1].barrier_wait_s, 50 + 10);
  EXPECT_DOUBLE_EQ(a.per_thread[1].fork_join_s, 5 + 2);

  const RegionProfile& b = p.regions[1];
  EXPECT_EQ(b.codeptr, 0xBu);
  EXPECT_EQ(b.instances, 1u);
  EXPECT_DOUBLE_EQ(b.time_s, 20);
  EXPECT_TRUE(b.nested);
  ASSERT_EQ(b.per_thread.size(), 2u);
  EXPECT_DOUBLE_EQ(b.per_thread[1].work_s, 15);
  EXPECT_DOUBLE_EQ(b.per_thread[1].fork_join_s, 5);

  // Per log thread: top-level regions only, the rest of the run is outside.
  ASSERT_EQ(p.threads.size(), 3u);
  EXPECT_EQ(p.threads[0].thread, 0u);
  EXPECT_DOUBLE_EQ(p.threads[0].work_s, 150);
  EXPECT_DOUBLE_EQ(p.threads[0].outside_s, 850);
  EXPECT_EQ(p.threads[1].thread, 1u);
  EXPECT_DOUBLE_EQ(p.threads[1].work_s, 83);
  EXPECT_DOUBLE_EQ(p.threads[1].barrier_wait_s, 60);
  EXPECT_DOUBLE_EQ(p.threads[1].fork_join_s, 7);
  EXPECT_DOUBLE_EQ(p.threads[1].outside_s, 850);
  EXPECT_EQ(p.threads[2].thread, 2u);  // only in the nested region: not counted at program level
  EXPECT_DOUBLE_EQ(p.threads[2].work_s, 0);
  EXPECT_DOUBLE_EQ(p.threads[2].outside_s, 1000);
  for (const ThreadSplit& s : p.threads)
    EXPECT_DOUBLE_EQ(s.work_s + s.barrier_wait_s + s.lock_wait_s + s.fork_join_s + s.outside_s, 1000)
        << "thread " << s.thread;
}

TEST(ProfileProgram, RegionTheProgramDiedInIsIncomplete) {
  Timeline t = three_region_timeline();
  t.regions[2].complete = false;
  const ProgramProfile p = profile_program(t);
  ASSERT_EQ(p.regions.size(), 2u);
  EXPECT_FALSE(p.regions[0].complete);
  EXPECT_TRUE(p.regions[1].complete);
}

TEST(ProfileProgram, TwoThreadLogFromEvents) {
  const ProgramProfile p = profile_program(build_timeline(testing::two_thread_loop_log()));
  EXPECT_US(p.wall_s, 1010);
  EXPECT_US(p.in_regions_s, 355);
  EXPECT_US(p.serial_s, 1010 - 355);
  ASSERT_EQ(p.regions.size(), 1u);
  EXPECT_EQ(p.regions[0].instances, 1u);
  ASSERT_EQ(p.threads.size(), 2u);
  EXPECT_US(p.threads[0].outside_s, 655);
  EXPECT_US(p.threads[1].outside_s, 655);
  EXPECT_US(p.threads[1].barrier_wait_s, 215);
}

// A rank of a hybrid program: MPI_Init (10 → 60) and an MPI_Allreduce (500 → 900) on the initial
// thread outside the region (100 → 455), and one MPI call inside it (MPI_THREAD_MULTIPLE, 200 →
// 250), which is the thread's MPI time in the region, not its work. docs/mpi.md.
TEST(ProfileProgram, MpiCallsOutsideRegionsAreMpiTimeNotSerialCode) {
  using testing::LogBuilder;
  LogBuilder b(1, 1000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .mpi_call(10, 60, MpiCallKind::Init)
      .parallel_begin(100, 10, 2, 1, 0xA0)
      .implicit_begin(102, 10, 11, 1, 0)
      .mpi_call(200, 250, MpiCallKind::Send)
      .sync_begin(400, ompt_sync_region_barrier_implicit_parallel)
      .sync_end(450, ompt_sync_region_barrier_implicit_parallel)
      .implicit_end(450, 10, 11, 0)
      .parallel_end(455, 10, 2, 0xA0)
      .mpi_call(500, 900, MpiCallKind::Allreduce)
      .initial_task_end(1000, 1, 2);
  const Timeline timeline = build_timeline(b.log());
  ASSERT_EQ(timeline.mpi.size(), 3u);
  EXPECT_US(timeline.mpi[2].begin, 500);
  EXPECT_US(timeline.mpi[2].end, 900);
  // The call inside the region belongs to the thread's part and to the segment its barrier ends.
  ASSERT_EQ(timeline.regions.size(), 1u);
  EXPECT_US(timeline.regions[0].threads[0].mpi, 50);
  ASSERT_EQ(timeline.regions[0].threads[0].syncs.size(), 1u);
  EXPECT_US(timeline.regions[0].threads[0].syncs[0].readings().mpi, 50);
  const ProgramProfile p = profile_program(timeline);
  EXPECT_US(p.wall_s, 1000);
  EXPECT_US(p.in_regions_s, 355);
  EXPECT_US(p.mpi_s, 50 + 400);  // the program's: outside regions only
  EXPECT_US(p.serial_s, 1000 - 355 - 450);
  // In the region: 348 inside (102 → 450), 50 barrier wait, 50 MPI, 248 work.
  ASSERT_EQ(p.regions.size(), 1u);
  const ThreadSplit& r = p.regions[0].per_thread.at(0);
  EXPECT_US(r.mpi_s, 50);
  EXPECT_US(r.work_s, 348 - 50 - 50);
  EXPECT_US(r.barrier_wait_s, 50);
  ASSERT_EQ(p.threads.size(), 1u);
  EXPECT_US(p.threads[0].mpi_s, 50 + 450);  // the thread's: inside and outside regions
  EXPECT_US(p.threads[0].outside_s, 1000 - 355 - 450);
  // The thread's parts add up to the run.
  const ThreadSplit& s = p.threads[0];
  EXPECT_US(s.work_s + s.barrier_wait_s + s.lock_wait_s + s.fork_join_s + s.outside_s + s.mpi_s, 1000);
}

TEST(SplitThreadTime, MpiCallsInARegionAreTheThreadsMpiTimeNotItsWork) {
  // The master exchanges halos in MPI for 60 s of its 111 s in the region (FUNNELED): its split
  // gives them as MPI, and work + barrier wait + lock wait + fork/join + MPI = the region's time.
  ThreadInRegion part = member(0, 0, 111, {barrier(100, 101, true), join_barrier(110, 111)}, 3);
  part.mpi = 60;
  const RegionInstance r = instance(1, 0xA, 0, 112, {part});
  const ThreadSplit s = split_thread_time(r, r.threads[0]);
  EXPECT_DOUBLE_EQ(s.mpi_s, 60);
  EXPECT_DOUBLE_EQ(s.barrier_wait_s, 1 + 1);
  EXPECT_DOUBLE_EQ(s.lock_wait_s, 3);
  EXPECT_DOUBLE_EQ(s.work_s, 111 - 2 - 3 - 60);
  EXPECT_DOUBLE_EQ(s.fork_join_s, 1);
  EXPECT_DOUBLE_EQ(s.work_s + s.barrier_wait_s + s.lock_wait_s + s.fork_join_s + s.mpi_s, 112);
}

TEST(ProfileProgram, AnMpiCallAcrossARegionsEdgeCountsOnlyItsPartOutside) {
  using testing::LogBuilder;
  LogBuilder b(1, 1000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(100, 10, 2, 1, 0xA0)
      .implicit_begin(102, 10, 11, 1, 0)
      .implicit_end(300, 10, 11, 0)
      .parallel_end(300, 10, 2, 0xA0)
      .parallel_begin(600, 12, 2, 1, 0xA0)
      .implicit_begin(602, 12, 13, 1, 0)
      .implicit_end(700, 12, 13, 0)
      .parallel_end(700, 12, 2, 0xA0)
      .initial_task_end(1000, 1, 2);
  // Hand-placed (the builder writes in time order): one call from 250 to 650 spans the gap
  // between the two instances (300 → 600) and a part of each.
  RunLog log = b.log();
  log.threads[0].events.insert(log.threads[0].events.end() - 1,
                               testing::event(650, EventKind::MpiCall, 0, 0, 0, 0,
                                              static_cast<uint8_t>(MpiCallKind::Wait), 250 * 1000));
  std::stable_sort(log.threads[0].events.begin(), log.threads[0].events.end(),
                   [](const Event& a, const Event& c) { return a.time < c.time; });
  const ProgramProfile p = profile_program(build_timeline(log));
  EXPECT_US(p.mpi_s, 300);
  EXPECT_US(p.serial_s, 1000 - 300 - 300);
}

TEST(ThreadSplit, PlusEqualsSumsEveryTimeAndTheTaskCountAndKeepsTheLeftThread) {
  ThreadSplit a{1, 1, 2, 3, 4, 5, 6, 7, {1, 2, 3, 4, 5, 6}};
  const ThreadSplit b{9, 10, 20, 30, 40, 50, 60, 70, {10, 20, 30, 40, 50, 60}};
  a += b;
  EXPECT_EQ(a.thread, 1u);
  EXPECT_DOUBLE_EQ(a.work_s, 11);
  EXPECT_DOUBLE_EQ(a.task_s, 22);
  EXPECT_DOUBLE_EQ(a.barrier_wait_s, 33);
  EXPECT_DOUBLE_EQ(a.lock_wait_s, 44);
  EXPECT_DOUBLE_EQ(a.fork_join_s, 55);
  EXPECT_DOUBLE_EQ(a.outside_s, 66);
  EXPECT_DOUBLE_EQ(a.tasks, 77);
  EXPECT_DOUBLE_EQ(a.usage.wall_s, 11);
  EXPECT_DOUBLE_EQ(a.usage.cpu_s, 22);
  EXPECT_DOUBLE_EQ(a.usage.system_s, 33);
  EXPECT_DOUBLE_EQ(a.usage.minor_faults, 44);
  EXPECT_DOUBLE_EQ(a.usage.major_faults, 55);
  EXPECT_DOUBLE_EQ(a.usage.switches, 66);
}

TEST(ThreadSplit, ScalingASampleScalesTheTaskCountWithTheTimes) {
  const ThreadSplit s = ThreadSplit{2, 1, 2, 3, 4, 5, 6, 7, {1, 2, 3, 4, 5, 6}} * 10;
  EXPECT_EQ(s.thread, 2u);
  EXPECT_DOUBLE_EQ(s.work_s, 10);
  EXPECT_DOUBLE_EQ(s.outside_s, 60);
  EXPECT_DOUBLE_EQ(s.tasks, 70);
  EXPECT_DOUBLE_EQ(s.usage.cpu_s, 20);
  EXPECT_DOUBLE_EQ(s.usage.switches, 60);
}

TEST(TypicalInstance, IsTheRecordedInstanceOfMedianLengthSoAOneOffDelayIsNotExtrapolated) {
  std::vector<RegionInstance> instances(5);
  const double lengths[] = {100e-6, 12e-3 /* preempted */, 90e-6, 110e-6, 0 /* empty */};
  for (size_t i = 0; i < 5; ++i) {
    instances[i].begin = 1.0;
    instances[i].end = 1.0 + lengths[i];
  }
  std::vector<const RegionInstance*> recorded;
  for (const RegionInstance& r : instances) recorded.push_back(&r);
  EXPECT_EQ(typical_instance(recorded), &instances[3]);  // of 90, 100, 110, 12000 µs: the upper median
  EXPECT_EQ(typical_instance({}), nullptr);
  EXPECT_EQ(typical_instance({&instances[4]}), nullptr);  // no length to scale by
}


// Sampled-out (light) instances are split as the recorded ones of their callsite were, in
// proportion to time, a one-off delay left out. Region 0xA, threads 0 and 1:
//   two instances of 100 where the worker works 20 and waits 80 at the join barrier;
//   one of 300 where the worker was woken late: fork/join 250, work 50;
//   one of 5000, delayed once (above 10 × the typical 300): left out of the split;
//   two light instances of 500: 1000 split as the 500 of the first three, twice over.
TEST(ProfileProgram, LightInstancesAreSplitAsTheRecordedOnesInProportionToTime) {
  Timeline t;
  t.start = 0;
  t.end = 10000;
  t.threads = {{0, 0, 10000}, {1, 0, 10000}};
  t.regions.push_back(instance(1, 0xA, 0, 100, {member(0, 0, 100, {}), member(1, 0, 100, {join_barrier(20, 100)})}));
  t.regions.push_back(instance(2, 0xA, 200, 300, {member(0, 200, 300, {}), member(1, 200, 300, {join_barrier(220, 300)})}));
  t.regions.push_back(instance(3, 0xA, 400, 700, {member(0, 400, 700, {}), member(1, 650, 700, {})}));
  t.regions.push_back(instance(4, 0xA, 1000, 6000, {member(0, 1000, 6000, {}), member(1, 1000, 6000, {})}));
  for (const double begin : {7000.0, 8000.0}) {
    t.regions.push_back(instance(5 + static_cast<uint32_t>(begin / 1000 - 7), 0xA, begin, begin + 500, {}));
    t.regions.back().light = true;
  }
  const ProgramProfile p = profile_program(t);
  ASSERT_EQ(p.regions.size(), 1u);
  const RegionProfile& r = p.regions[0];
  EXPECT_DOUBLE_EQ(r.light_time_s, 1000);
  ASSERT_EQ(r.per_thread.size(), 2u);
  EXPECT_DOUBLE_EQ(r.per_thread[0].work_s, 100 + 100 + 300 + 5000 + 2 * 500);
  EXPECT_DOUBLE_EQ(r.per_thread[1].barrier_wait_s, 160 + 2 * 160);  // one typical instance (the 300) said 160
  EXPECT_DOUBLE_EQ(r.per_thread[1].fork_join_s, 250 + 2 * 250);     // and 250 + 833
  EXPECT_DOUBLE_EQ(r.per_thread[1].work_s, 20 + 20 + 50 + 5000 + 2 * 90);
  // Each thread's split adds up to the region's time, light instances included.
  for (const ThreadSplit& s : r.per_thread)
    EXPECT_DOUBLE_EQ(s.work_s + s.barrier_wait_s + s.lock_wait_s + s.fork_join_s, r.time_s);
  // The program's threads get the same parts (the instances are top-level).
  ASSERT_EQ(p.threads.size(), 2u);
  EXPECT_DOUBLE_EQ(p.threads[1].barrier_wait_s, 480);
  EXPECT_DOUBLE_EQ(p.threads[1].fork_join_s, 750);
}

// serial_split (docs/design.md, "Serial time off the CPU"): from the process's start (0, 0) to a
// fork at 2 s with 0.5 s of CPU time and 0.25 s in the run queue: 1.25 s blocked, all serial.
// A region 2 → 3 s (busy); a join reading at 3 s (CPU 1.4 s); a fork at 8 s (CPU 1.6 s, queue
// 0.25 s: 4.8 s blocked, all serial); then a reading at 8.5 s (CPU 1.7, queue 0.5) over a
// stretch with 0.2 s of serial time: 0.25 s queued, 0.15 s blocked, of which the serial share
// 0.2 s takes 0.15 s blocked and 0.05 s queued.
TEST(SerialSplit, OffTheCpuWithoutWaitingForItIsBlockedAndOnlySerialTimeCounts) {
  const std::vector<SerialReading> readings{{2, 0.5, 0.25}, {3, 1.4, 0.25}, {8, 1.6, 0.25}, {8.5, 1.7, 0.5}};
  const std::vector<std::pair<double, double>> busy{{2, 3}, {8, 8.3}};
  const SerialSplit s = serial_split(readings, 0, busy);
  EXPECT_TRUE(s.read);
  EXPECT_NEAR(s.blocked_s, 1.25 + 4.8 + 0.15, 1e-12);
  EXPECT_NEAR(s.runqueue_s, 0.25 + 0.05, 1e-12);
}

TEST(SerialSplit, WithoutTheRunQueueAllTimeOffTheCpuIsBlockedAndNoReadingsReadNothing) {
  const SerialSplit s = serial_split({{2, 0.5, -1}}, 0, {});
  EXPECT_DOUBLE_EQ(s.blocked_s, 1.5);
  EXPECT_DOUBLE_EQ(s.runqueue_s, 0);
  EXPECT_FALSE(serial_split({}, 0, {}).read);
}

// What each blocked stretch waited for (SerialWaits): a stretch in which a child's CPU time grew
// is the child's, one with block I/O (its operations counted) is I/O, the rest neither; a stretch
// on the CPU adds nothing; the 32-bit I/O counter wraps.
TEST(SerialSplit, EachBlockedStretchIsNamedByWhatTheKernelCountedInIt) {
  auto reading = [](double time, double cpu, double children, uint32_t io) {
    SerialReading r{time, cpu, -1};
    r.waits_read = true;
    r.children_cpu_s = children;
    r.block_io = io;
    return r;
  };
  const SerialSplit s = serial_split({reading(1, 1, 0, 0xFFFFFFF0u),   // on the CPU from the start
                                      reading(3, 1, 0.004, 0xFFFFFFF8u),  // 2 s: a child ended (and I/O)
                                      reading(4, 1.5, 0.004, 0x10u),      // 0.5 s: 0x18 block operations
                                      reading(5, 1.5, 0.004, 0x10u),      // 1 s: neither (a sleep)
                                      reading(6, 2.5, 0.004, 0x10u)},     // on the CPU
                                     0, {});
  EXPECT_DOUBLE_EQ(s.blocked_s, 3.5);
  EXPECT_TRUE(s.waits.read);
  EXPECT_DOUBLE_EQ(s.waits.child_s, 2);
  EXPECT_DOUBLE_EQ(s.waits.io_s, 0.5);
  EXPECT_DOUBLE_EQ(s.waits.io_operations, 0x18);
  // Readings without the counts (a log of an older tool): nothing named.
  EXPECT_FALSE(serial_split({{2, 0.5, -1}}, 0, {}).waits.read);
}

// The initial thread's readings in a log: a sleep of 3 s between two regions is serial time
// blocked; its CPU time outside regions is not.
TEST(ProfileProgram, SerialTimeOffTheCpuIsBlocked) {
  Timeline t;
  t.start = 0;
  t.end = 10;
  t.regions.push_back(instance(1, 0xA, 1, 2, {member(0, 1, 2, {})}));
  t.regions.push_back(instance(2, 0xA, 6, 7, {member(0, 6, 7, {})}));
  t.serial_usage = {{1, 1, 0}, {2, 2, 0}, {6, 3, 0}, {7, 4, 0}, {10, 7, 0}};
  const ProgramProfile p = profile_program(t);
  EXPECT_DOUBLE_EQ(p.serial_s, 8);
  EXPECT_TRUE(p.serial_usage_read);
  EXPECT_DOUBLE_EQ(p.serial_blocked_s, 3);  // 2 → 6 s: 1 s of CPU time
  EXPECT_DOUBLE_EQ(p.serial_runqueue_s, 0);
}

}  // namespace
}  // namespace ompscope::analysis
