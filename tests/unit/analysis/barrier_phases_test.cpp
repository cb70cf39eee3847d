// barrier_phases: the barrier definitions of docs/design.md on hand-built region instances.
//   w_k         = arrival_k − thread k's own previous departure (or its start)
//   imbalance   = max_k w_k − mean_k w_k
//   walkthrough = first departure − last arrival
//   startup     = last departure − first departure, charged to the releasing barrier
//   join barrier: imbalance counted, departures ignored; fork = last start − begin,
//                 join = end − last arrival
#include "analysis/barrier_phases.h"

#include <gtest/gtest.h>

#include "region_builder.h"

namespace ompscope::analysis {
namespace {

using testing::barrier;
using testing::instance;
using testing::join_barrier;
using testing::member;

TEST(BarrierPhases, ThreeThreadsOneLoopBarrierAndTheJoinBarrier) {
  // Region 0 → 200 s. Starts 1, 2, 4 (fork 4).
  // Loop barrier: arrivals 31, 52, 94 → w = 30, 50, 90; departures 100, 101, 103.
  // Join barrier: arrivals 150, 171, 193 → w = 50, 70, 90 (each from its own departure);
  //               departures 194, 198, 200 are not observable and must be ignored.
  const RegionInstance r = instance(1, 0xA, 0, 200,
                                    {member(0, 1, 200, {barrier(31, 100, true), join_barrier(150, 194)}),
                                     member(1, 2, 200, {barrier(52, 101, true), join_barrier(171, 198)}),
                                     member(2, 4, 200, {barrier(94, 103, true), join_barrier(193, 200)})});
  const BarrierPhases p = barrier_phases(r);
  EXPECT_DOUBLE_EQ(p.imbalance_s, (90 - 170.0 / 3) + (90 - 70));
  EXPECT_DOUBLE_EQ(p.walkthrough_s, 100 - 94);  // the join's departures add nothing
  EXPECT_DOUBLE_EQ(p.startup_s, 103 - 100);
  EXPECT_DOUBLE_EQ(p.fork_s, 4 - 0);
  EXPECT_DOUBLE_EQ(p.join_s, 200 - 193);
  EXPECT_EQ(p.barriers, 2u);
  EXPECT_EQ(p.imbalanced_after_loop, 1u);
  EXPECT_EQ(p.skipped_with_tasks, 0u);
}

// A thread switched out just before its part (ThreadInRegion::start_off_cpu_s: another process
// held its CPU) starts late: that much of the fork is the machine's, counted with the waits for
// switched-out threads (descheduled_s), never as the runtime's fork. Starts 1 and 4: fork 4, of
// which thread 1's 2.5 s off the CPU; off the CPU longer than its delay, only the delay; a thread
// that starts at once has nothing to give.
TEST(BarrierPhases, AForkHeldBackByAThreadSwitchedOutIsTheMachinesTime) {
  RegionInstance r = instance(1, 0xA, 0, 200, {member(0, 1, 200, {join_barrier(150, 200)}),
                                               member(1, 4, 200, {join_barrier(171, 200)})});
  r.threads[1].start_off_cpu_s = 2.5f;
  BarrierPhases p = barrier_phases(r);
  EXPECT_DOUBLE_EQ(p.fork_s, 4 - 2.5);
  EXPECT_DOUBLE_EQ(p.descheduled_s, 2.5);
  r.threads[1].start_off_cpu_s = 30;
  p = barrier_phases(r);
  EXPECT_DOUBLE_EQ(p.fork_s, 0);
  EXPECT_DOUBLE_EQ(p.descheduled_s, 4);
  r.threads[1].start_off_cpu_s = 0;
  r.threads[0].start_off_cpu_s = 30;  // the master started at 1: at most 1 of it after the fork
  p = barrier_phases(r);
  EXPECT_DOUBLE_EQ(p.fork_s, 4 - 1);
  EXPECT_DOUBLE_EQ(p.descheduled_s, 1);
}

// The primary thread switched out while it waited at the join barrier (SyncVisit::off_cpu)
// ends the region late: that much of the join is the machine's (descheduled_s). Arrivals 150
// and 171, the region's end 200 (join 29): the master off its CPU 20 s of its visit leaves 9
// to the join; 40 s, more than the delay after the last arrival, leaves none. A worker off its
// CPU in its own visit holds nothing back: it does not end the region.
TEST(BarrierPhases, AJoinHeldBackByTheMasterSwitchedOutIsTheMachinesTime) {
  SyncVisit master = join_barrier(150, 200), worker = join_barrier(171, 200);
  const auto phases = [&] {
    return barrier_phases(instance(1, 0xA, 0, 200, {member(0, 0, 200, {master}), member(1, 0, 200, {worker})}));
  };
  master.write_readings().off_cpu = 20;
  BarrierPhases p = phases();
  EXPECT_DOUBLE_EQ(p.join_s, 29 - 20);
  EXPECT_DOUBLE_EQ(p.descheduled_s, 20);
  master.write_readings().off_cpu = 40;
  p = phases();
  EXPECT_DOUBLE_EQ(p.join_s, 0);
  EXPECT_DOUBLE_EQ(p.descheduled_s, 29);
  master.write_readings().off_cpu = 0;
  worker.write_readings().off_cpu = 25;
  p = phases();
  EXPECT_DOUBLE_EQ(p.join_s, 29);
  EXPECT_DOUBLE_EQ(p.descheduled_s, 0);
}

TEST(BarrierPhases, AThreadReleasedLateShowsNoImbalanceInTheNextSegment) {
  // Both threads start at 0. Barrier 1: arrivals 10, 20; thread 0 leaves at 21 but thread 1
  // only at 31 (released 10 s late: startup of barrier 1). Both then work exactly 20 s and
  // arrive at barrier 2 at 41 and 51: equal work, so barrier 2 has no imbalance. Measuring
  // the segment from the first departure (21) would wrongly show w = 20, 30 there.
  const RegionInstance r = instance(1, 0xA, 0, 61,
                                    {member(0, 0, 61, {barrier(10, 21), barrier(41, 52), join_barrier(60, 61)}),
                                     member(1, 0, 61, {barrier(20, 31), barrier(51, 52), join_barrier(60, 61)})});
  const BarrierPhases p = barrier_phases(r);
  EXPECT_DOUBLE_EQ(p.imbalance_s, 20 - 15);  // barrier 1 only: w = 10, 20
  EXPECT_DOUBLE_EQ(p.startup_s, 31 - 21);    // charged to barrier 1, which released the threads
  EXPECT_DOUBLE_EQ(p.walkthrough_s, (21 - 20) + (52 - 51));
  EXPECT_DOUBLE_EQ(p.join_s, 61 - 60);
  EXPECT_DOUBLE_EQ(p.fork_s, 0);
  EXPECT_EQ(p.barriers, 3u);
  EXPECT_EQ(p.imbalanced_after_loop, 0u);
}

// A thread switched out while it waited in a barrier (SyncVisit::off_cpu, from its CPU time
// across the visit and its involuntary switches) holds the release back: the part of the
// barrier's cost (last departure − last arrival) it explains is descheduled_s, taken from the
// release skew first, then the walkthrough; never barrier overhead. Barrier 1: arrivals 10, 20,
// departures 21, 31 (cost 11: walkthrough 1, skew 10); thread 1 was off its CPU 8 s of its visit:
// skew 2 left. Barrier 2: arrivals 41, 51, departures 60, 62 (cost 11: walkthrough 9, skew 2);
// thread 0 off its CPU 30 s, of which at most 60 − 51 = 9 after the last arrival: skew 0,
// walkthrough 2. Off-CPU time before the last arrival cannot delay the release.
TEST(BarrierPhases, AThreadOffItsCpuInTheBarrierIsDescheduledNotBarrierCost) {
  SyncVisit a0 = barrier(10, 21), a1 = barrier(20, 31), b0 = barrier(41, 60), b1 = barrier(51, 62);
  a1.write_readings().off_cpu = 8;
  b0.write_readings().off_cpu = 30;
  const RegionInstance r = instance(1, 0xA, 0, 71,
                                    {member(0, 0, 71, {a0, b0, join_barrier(70, 71)}),
                                     member(1, 0, 71, {a1, b1, join_barrier(70, 71)})});
  const BarrierPhases p = barrier_phases(r);
  EXPECT_DOUBLE_EQ(p.descheduled_s, 8 + 9);
  EXPECT_DOUBLE_EQ(p.startup_s, (10 - 8) + 0);
  EXPECT_DOUBLE_EQ(p.walkthrough_s, 1 + (9 - 7));
  // The barrier's cost is kept whole: overhead + descheduled = last departure − last arrival.
  EXPECT_DOUBLE_EQ(p.startup_s + p.walkthrough_s + p.descheduled_s, (31 - 20) + (62 - 51));
  // Without the kernel's reading, all of it is the barrier's, as before.
  const RegionInstance plain = instance(1, 0xA, 0, 71,
                                        {member(0, 0, 71, {barrier(10, 21), barrier(41, 60), join_barrier(70, 71)}),
                                         member(1, 0, 71, {barrier(20, 31), barrier(51, 62), join_barrier(70, 71)})});
  const BarrierPhases q = barrier_phases(plain);
  EXPECT_DOUBLE_EQ(q.descheduled_s, 0);
  EXPECT_DOUBLE_EQ(q.startup_s + q.walkthrough_s, 22);
}

TEST(BarrierPhases, AForkThatCreatesThreadsIsTeamCreationNotForkCost) {
  // Region 10 → 3000. The master starts at 10; worker 1 existed before the region (it began at
  // 2) and starts at 12; workers 2 and 3 were created by this fork (they began at 11 and 15) and
  // start at 2500 and 2600: the whole start-up of this instance is the team's one-time creation.
  ThreadInRegion w2 = member(2, 2500, 3000, {join_barrier(2990, 3000)});
  ThreadInRegion w3 = member(3, 2600, 3000, {join_barrier(2990, 3000)});
  ThreadInRegion w1 = member(1, 12, 3000, {join_barrier(2990, 3000)});
  w1.thread_begin = 2;
  w2.thread_begin = 11;
  w3.thread_begin = 15;
  const RegionInstance r =
      instance(1, 0xA, 10, 3000, {member(0, 10, 3000, {join_barrier(2990, 3000)}), w1, w2, w3});
  const BarrierPhases p = barrier_phases(r);
  EXPECT_DOUBLE_EQ(p.fork_s, 0);
  EXPECT_DOUBLE_EQ(p.team_creation_s, 2600 - 10);
  // The next instance of the same team creates nothing: its start-up is fork cost.
  RegionInstance next = r;
  next.begin = 3100;
  for (ThreadInRegion& t : next.threads) t.thread_begin = -1, t.start = 3100 + t.index;
  const BarrierPhases q = barrier_phases(next);
  EXPECT_DOUBLE_EQ(q.fork_s, 3);
  EXPECT_DOUBLE_EQ(q.team_creation_s, 0);
}

TEST(BarrierPhases, JoinBarrierImbalanceCountsAndItsDeparturesAreIgnored) {
  // Region 10 → 50; threads start at 12 and 14 (fork 4); join arrivals 30 (w 18) and 44 (w 30).
  const RegionInstance r = instance(1, 0xA, 10, 50,
                                    {member(0, 12, 50, {join_barrier(30, 31)}),  // depart 31: noise
                                     member(1, 14, 50, {join_barrier(44, 50)})});
  const BarrierPhases p = barrier_phases(r);
  EXPECT_DOUBLE_EQ(p.imbalance_s, 30 - 24);
  EXPECT_DOUBLE_EQ(p.walkthrough_s, 0);
  EXPECT_DOUBLE_EQ(p.startup_s, 0);
  EXPECT_DOUBLE_EQ(p.fork_s, 14 - 10);
  EXPECT_DOUBLE_EQ(p.join_s, 50 - 44);
  EXPECT_EQ(p.barriers, 1u);
}

TEST(BarrierPhases, BarrierWhereTasksRanIsSkipped) {
  // Barrier 1: thread 1 runs 5 s of tasks inside it → left to the task analysis: no imbalance,
  // walkthrough or startup from it. The join barrier is analysed from the departures of barrier 1.
  const RegionInstance r = instance(1, 0xA, 0, 70,
                                    {member(0, 0, 70, {barrier(10, 30), join_barrier(50, 70)}),
                                     member(1, 0, 70, {barrier(20, 32, false, 5), join_barrier(62, 70)})});
  const BarrierPhases p = barrier_phases(r);
  EXPECT_EQ(p.barriers, 2u);
  EXPECT_EQ(p.skipped_with_tasks, 1u);
  EXPECT_DOUBLE_EQ(p.imbalance_s, 30 - 25);  // join only: w = 50 − 30 = 20, 62 − 32 = 30
  EXPECT_DOUBLE_EQ(p.walkthrough_s, 0);
  EXPECT_DOUBLE_EQ(p.startup_s, 0);
  EXPECT_DOUBLE_EQ(p.join_s, 70 - 62);
}

TEST(BarrierPhases, JoinBarrierWhereTasksRanIsSkippedAndOnlyTheTimeAfterTheLastTaskIsJoin) {
  // Threads run tasks in the join barrier until 65 and 68; the region ends at 70.
  const RegionInstance r = instance(1, 0xA, 0, 70,
                                    {member(0, 0, 70, {join_barrier(10, 65, false, 40)}),
                                     member(1, 0, 70, {join_barrier(30, 68, false, 30)})});
  const BarrierPhases p = barrier_phases(r);
  EXPECT_EQ(p.barriers, 1u);
  EXPECT_EQ(p.skipped_with_tasks, 1u);
  EXPECT_DOUBLE_EQ(p.imbalance_s, 0);
  EXPECT_DOUBLE_EQ(p.join_s, 70 - 68);
}

TEST(BarrierPhases, TaskwaitsNeitherCountAsBarriersNorEndASegment) {
  // Thread 0 waits in a taskwait (5 → 8) during its segment: its work is still 10 − 0.
  const RegionInstance r =
      instance(1, 0xA, 0, 20,
               {member(0, 0, 20, {testing::visit(SyncKind::Taskwait, 5, 8), barrier(10, 20)}),
                member(1, 0, 20, {testing::visit(SyncKind::Other, 6, 7), barrier(14, 20)})});
  const BarrierPhases p = barrier_phases(r);
  EXPECT_EQ(p.barriers, 1u);
  EXPECT_DOUBLE_EQ(p.imbalance_s, 14 - 12);
  EXPECT_DOUBLE_EQ(p.walkthrough_s, 20 - 14);
  EXPECT_DOUBLE_EQ(p.startup_s, 0);
}

TEST(BarrierPhases, OnlyBarriersEveryThreadReachedAreMatched) {
  // Thread 1's log lacks the second barrier: only the first one can be matched across the team.
  const RegionInstance r = instance(1, 0xA, 0, 40,
                                    {member(0, 0, 40, {barrier(10, 20), barrier(30, 40)}),
                                     member(1, 0, 40, {barrier(16, 20)})});
  const BarrierPhases p = barrier_phases(r);
  EXPECT_EQ(p.barriers, 1u);
  EXPECT_DOUBLE_EQ(p.imbalance_s, 16 - 13);
}

TEST(BarrierPhases, MpiCallsInASegmentAreNeitherWorkNorImbalance) {
  // FUNNELED from the master (docs/mpi.md): thread 0 computes 40 s, exchanges halos in MPI for
  // 60 s and arrives at the loop's barrier at 100; thread 1 computes 40 s and waits there. Both
  // used the CPU all along (MPI libraries poll). Counted as work, that was 30 s of imbalance
  // (w = 100, 40), all of it in CPU time; without the MPI calls both segments are 40 s.
  SyncVisit a = barrier(100, 101, true), b = barrier(40, 101, true);
  a.write_readings().mpi = 60;
  a.write_readings().cpu = 100;
  b.write_readings().cpu = 40;
  const RegionInstance r = instance(1, 0xA, 0, 111, {member(0, 0, 111, {a, join_barrier(110, 111)}),
                                                     member(1, 0, 111, {b, join_barrier(110, 111)})});
  const BarrierPhases p = barrier_phases(r);
  EXPECT_DOUBLE_EQ(p.imbalance_s, 0);  // loop barrier: w = 40, 40; join: 9, 9
  EXPECT_DOUBLE_EQ(p.cpu_imbalance_s, 0);
  EXPECT_EQ(p.imbalanced_after_loop, 0u);
  ASSERT_EQ(p.positions.size(), 1u);
  EXPECT_DOUBLE_EQ(p.positions[0].cpu[0], 40);
  EXPECT_DOUBLE_EQ(p.positions[0].cpu[1], 40);
}

// A two-thread loop of `iterations` iterations whose threads work w0 and w1 s before its
// barrier, then the join barrier with equal segments.
RegionInstance loop_of(uint32_t iterations, double w0, double w1) {
  SyncVisit a = barrier(w0, 10, true), b = barrier(w1, 10, true);
  a.loop_iterations = b.loop_iterations = iterations;
  return instance(1, 0xA, 0, 12, {member(0, 0, 12, {a, join_barrier(11, 12)}),
                                  member(1, 0, 12, {b, join_barrier(11, 12)})});
}

TEST(BarrierPhases, AnIterationCountTheTeamDoesNotDivideOrNoLargerThanTheTeamIsIndivisibleImbalance) {
  // 3 iterations of 1 s on 2 threads: 2 and 1. Imbalance 2 − 1.5 = 0.5, all of it
  // (ceil(3/2) − 3/2) × 3 s / 3 = 0.5: no schedule runs them in less than 2 s.
  const BarrierPhases odd = barrier_phases(loop_of(3, 2, 1));
  EXPECT_DOUBLE_EQ(odd.imbalance_s, 0.5);
  EXPECT_DOUBLE_EQ(odd.indivisible_s, 0.5);
  EXPECT_EQ(odd.loops_with_iterations, 1u);
  EXPECT_DOUBLE_EQ(odd.loop_iterations, 3);
  EXPECT_DOUBLE_EQ(odd.loop_work_s, 3);
  EXPECT_DOUBLE_EQ(odd.measured_loop_work_s, 0);  // no thread's CPU time was read
  // One iteration on 2 threads: the other thread has nothing, whatever the iteration costs.
  EXPECT_DOUBLE_EQ(barrier_phases(loop_of(1, 1, 0)).indivisible_s, 0.5);
  // 4 iterations, split 3 s and 1 s: they differ in cost, and 4 divides by 2: a schedule's.
  const BarrierPhases even = barrier_phases(loop_of(4, 3, 1));
  EXPECT_DOUBLE_EQ(even.imbalance_s, 1);
  EXPECT_DOUBLE_EQ(even.indivisible_s, 0);
  // 5 iterations, split 4 s and 1 s: of the 1.5 s imbalance, (3 − 2.5) × 5 / 5 = 0.5 s indivisible.
  EXPECT_DOUBLE_EQ(barrier_phases(loop_of(5, 4, 1)).indivisible_s, 0.5);
  // 2 iterations on 2 threads: each runs one whatever the schedule, so the whole imbalance is
  // indivisible, whether the iteration on thread 0 costs more or its CPU is slower (1.1 s vs 1 s).
  const BarrierPhases pair = barrier_phases(loop_of(2, 1.1, 1));
  EXPECT_NEAR(pair.imbalance_s, 0.05, 1e-12);
  EXPECT_NEAR(pair.indivisible_s, 0.05, 1e-12);
  // Never more than the barrier's imbalance: 3 iterations that took the same time on both threads.
  EXPECT_DOUBLE_EQ(barrier_phases(loop_of(3, 1.5, 1.5)).indivisible_s, 0);
  // Where the CPU time was read, the loop's work counts as measured too.
  SyncVisit a = barrier(2, 10, true), b = barrier(1, 10, true);
  a.loop_iterations = b.loop_iterations = 3;
  a.write_readings().cpu = 2;
  b.write_readings().cpu = 1;
  const BarrierPhases read = barrier_phases(instance(1, 0xA, 0, 12, {member(0, 0, 12, {a, join_barrier(11, 12)}),
                                                                     member(1, 0, 12, {b, join_barrier(11, 12)})}));
  EXPECT_DOUBLE_EQ(read.measured_loop_work_s, 3);
}

TEST(BarrierPhases, ScaledPhasesKeepTheirSamplesAndTheTeamCreation) {
  BarrierPhases p = barrier_phases(loop_of(3, 2, 1));
  p.team_creation_s = 1;
  p.positions.clear();
  p.positions.push_back({.instances = 1});
  const BarrierPhases q = p * 4;
  EXPECT_DOUBLE_EQ(q.imbalance_s, 2);
  EXPECT_DOUBLE_EQ(q.indivisible_s, 2);
  EXPECT_DOUBLE_EQ(q.loop_work_s, 12);
  EXPECT_EQ(q.loops_with_iterations, 4u);
  EXPECT_EQ(q.barriers, 8u);
  EXPECT_DOUBLE_EQ(q.team_creation_s, 1);  // once per run
  ASSERT_EQ(q.positions.size(), 1u);       // the samples as read
  EXPECT_DOUBLE_EQ(q.positions[0].instances, 1);
}

TEST(BarrierPhases, RegionWithoutThreadsHasNoPhases) {
  const BarrierPhases p = barrier_phases(instance(1, 0xA, 0, 10, {}));
  EXPECT_EQ(p.barriers, 0u);
  EXPECT_DOUBLE_EQ(p.imbalance_s + p.walkthrough_s + p.startup_s + p.fork_s + p.join_s, 0);
}

// --- consistent CPU-time imbalance ------------------------------------------------------------

// A two-thread loop barrier whose segments used `cpu0` and `cpu1` s of CPU time (and as much
// wall time), then the join barrier with equal segments.
RegionInstance loop_with_cpu(double cpu0, double cpu1) {
  SyncVisit a = barrier(cpu0, 10, true), b = barrier(cpu1, 10, true);
  a.write_readings().cpu = cpu0;
  b.write_readings().cpu = cpu1;
  return instance(1, 0xA, 0, 12, {member(0, 0, 12, {a, join_barrier(11, 12)}),
                                  member(1, 0, 12, {b, join_barrier(11, 12)})});
}

BarrierPhases phases_of(const std::vector<std::pair<double, double>>& cpus) {
  BarrierPhases out;
  for (const auto& [c0, c1] : cpus) {
    const BarrierPhases p = barrier_phases(loop_with_cpu(c0, c1));
    out.cpu_imbalance_s += p.cpu_imbalance_s;
    out.positions.add(p.positions);
  }
  return out;
}

// The positions' sums in rows as wide as each one's widest team, a row for each position read
// only: a wider team lays the rows out again, each keeping its own width and sums; adding position
// by position adds row to row, and a position between two held ones takes its place between them.
TEST(PositionSums, RowsKeepTheirWidthAndSumsWhenAWiderTeamComes) {
  PositionSums p;
  p.push_back({.instances = 1, .cpu = {1, 2}, .cpu_squared = {1, 4}, .cpu_imbalance_s = 0.5});
  p.add(2, 1, 1.5, std::vector<double>{1, 2, 3, 4}, std::vector<double>{1, 4, 9, 16});
  ASSERT_EQ(p.size(), 2u);  // position 1 was not read: no row
  EXPECT_EQ(p[0].position, 0u);
  EXPECT_EQ(p[0].cpu.size(), 2u);  // as wide as its own team, not the widest
  EXPECT_DOUBLE_EQ(p[0].cpu[1], 2);
  EXPECT_DOUBLE_EQ(p[0].cpu_squared[1], 4);
  EXPECT_EQ(p[1].position, 2u);
  EXPECT_EQ(p[1].cpu.size(), 4u);
  EXPECT_DOUBLE_EQ(p[1].cpu[3], 4);
  EXPECT_DOUBLE_EQ(p[1].cpu_imbalance_s, 1.5);

  PositionSums q;
  q.push_back({.instances = 2, .cpu = {10, 20, 30}, .cpu_squared = {100, 400, 900}, .cpu_imbalance_s = 1});
  q.add(p);
  ASSERT_EQ(q.size(), 2u);
  EXPECT_EQ(q[0].cpu.size(), 3u);
  EXPECT_DOUBLE_EQ(q[0].instances, 3);
  EXPECT_DOUBLE_EQ(q[0].cpu[0], 11);
  EXPECT_DOUBLE_EQ(q[0].cpu[1], 22);
  EXPECT_DOUBLE_EQ(q[0].cpu[2], 30);
  EXPECT_DOUBLE_EQ(q[0].cpu_squared[1], 404);
  EXPECT_DOUBLE_EQ(q[0].cpu_imbalance_s, 1.5);
  EXPECT_EQ(q[1].position, 2u);
  EXPECT_EQ(q[1].cpu.size(), 4u);
  EXPECT_DOUBLE_EQ(q[1].cpu_squared[3], 16);
  // A position between two held ones: a row between theirs, theirs unchanged.
  q.add(1, 1, 0.75, std::vector<double>{7, 8}, std::vector<double>{49, 64});
  ASSERT_EQ(q.size(), 3u);
  EXPECT_EQ(q[1].position, 1u);
  EXPECT_DOUBLE_EQ(q[1].cpu[1], 8);
  EXPECT_DOUBLE_EQ(q[1].cpu_imbalance_s, 0.75);
  EXPECT_DOUBLE_EQ(q[0].cpu[1], 22);
  EXPECT_EQ(q[2].position, 2u);
  EXPECT_DOUBLE_EQ(q[2].cpu_squared[3], 16);
  q.clear();
  EXPECT_TRUE(q.empty());
  // Cleared, it takes rows of any width again (its memory serves the next instance's).
  q.add(0, 1, 0.25, std::vector<double>{5, 6}, std::vector<double>{25, 36});
  ASSERT_EQ(q.size(), 1u);
  EXPECT_EQ(q[0].cpu.size(), 2u);
  EXPECT_DOUBLE_EQ(q[0].cpu[1], 6);
  EXPECT_DOUBLE_EQ(q[0].cpu_squared[0], 25);
  EXPECT_DOUBLE_EQ(q[0].cpu_imbalance_s, 0.25);
}

// Added as an rvalue, the sums are taken whole where there are none yet (the same rows, its arrays
// moved, the source left empty), and added row to row where there are.
TEST(PositionSums, AMovedSumIsTakenWholeByAnEmptyOne) {
  PositionSums p;
  p.push_back({.instances = 1, .cpu = {1, 2}, .cpu_squared = {1, 4}, .cpu_imbalance_s = 0.5});
  p.push_back({.instances = 1, .cpu = {3, 4}, .cpu_squared = {9, 16}, .cpu_imbalance_s = 0.25});
  const double* rows = p[0].cpu.data();
  PositionSums q;
  q.add(std::move(p));
  EXPECT_TRUE(p.empty());  // NOLINT(bugprone-use-after-move): cleared by the move, reusable
  ASSERT_EQ(q.size(), 2u);
  EXPECT_EQ(q[0].cpu.data(), rows);  // its arrays, not a copy
  EXPECT_DOUBLE_EQ(q[1].cpu[1], 4);
  EXPECT_DOUBLE_EQ(q[1].cpu_imbalance_s, 0.25);
  PositionSums r;
  r.push_back({.instances = 2, .cpu = {10, 20}, .cpu_squared = {100, 400}, .cpu_imbalance_s = 1});
  r.add(std::move(q));
  ASSERT_EQ(r.size(), 2u);
  EXPECT_DOUBLE_EQ(r[0].instances, 3);
  EXPECT_DOUBLE_EQ(r[0].cpu[1], 22);
  EXPECT_DOUBLE_EQ(r[0].cpu_imbalance_s, 1.5);
  EXPECT_DOUBLE_EQ(r[1].cpu[0], 3);
}

TEST(ConsistentCpuImbalance, EachBarrierPositionKeepsEachThreadsCpuTime) {
  const BarrierPhases p = barrier_phases(loop_with_cpu(4, 6));
  ASSERT_EQ(p.positions.size(), 1u);  // the join barrier's CPU time was not read
  EXPECT_DOUBLE_EQ(p.positions[0].instances, 1);
  EXPECT_DOUBLE_EQ(p.positions[0].cpu[0], 4);
  EXPECT_DOUBLE_EQ(p.positions[0].cpu[1], 6);
  EXPECT_DOUBLE_EQ(p.positions[0].cpu_squared[1], 36);
  EXPECT_DOUBLE_EQ(p.positions[0].cpu_imbalance_s, 1);  // 6 − 5
}

TEST(ConsistentCpuImbalance, EachBarriersShareCarriesItsCpuTimesForItsConstruct) {
  // What each barrier adds (the construct that owns it is diagnosed on it) holds its CPU times as
  // one position, so a construct's own hint can tell iterations that cost more from a slow thread
  // that moves; the join barrier, whose CPU time was not read, holds none.
  std::vector<BarrierPhases> each;
  barrier_phases(loop_with_cpu(4, 6), [&each](const BarrierPhases& one) { each.push_back(one); });
  ASSERT_EQ(each.size(), 2u);
  ASSERT_EQ(each[0].positions.size(), 1u);
  EXPECT_DOUBLE_EQ(each[0].positions[0].instances, 1);
  EXPECT_DOUBLE_EQ(each[0].positions[0].cpu[1], 6);
  EXPECT_DOUBLE_EQ(each[0].positions[0].cpu_squared[0], 16);
  EXPECT_DOUBLE_EQ(each[0].positions[0].cpu_imbalance_s, 1);
  EXPECT_TRUE(each[1].positions.empty());
}

TEST(ConsistentCpuImbalance, TheSameThreadSlowerInEveryInstanceIsAllConsistent) {
  // Thread 1 uses 2 s more CPU than thread 0 each time (±0.1 s): 1 s of imbalance per instance.
  const BarrierPhases p = phases_of({{4, 6}, {4.1, 6.1}, {3.9, 5.9}, {4, 6}});
  EXPECT_NEAR(consistent_cpu_imbalance({&p}), 4, 1e-9);
}

TEST(ConsistentCpuImbalance, ASlowestThreadThatChangesIsNotConsistent) {
  // The same 1 s of imbalance per instance, but thread 0 and thread 1 take turns at being slow:
  // the means are equal, nothing is the loop's.
  const BarrierPhases p = phases_of({{4, 6}, {6, 4}, {4, 6}, {6, 4}});
  EXPECT_DOUBLE_EQ(consistent_cpu_imbalance({&p}), 0);
}

TEST(ConsistentCpuImbalance, AnImbalanceWithinItsNoiseIsNotConsistent) {
  // Means 5.25 and 4.75 (0.25 s of imbalance per instance), but each thread's CPU time varies
  // between instances with a standard deviation of 1.5 s: the standard error of the imbalance is
  // sqrt(2.25 / 2 / 4) = 0.53 s, and 0.25 s is under twice it.
  const BarrierPhases p = phases_of({{4, 6}, {6, 4}, {4, 6}, {7, 3}});
  EXPECT_DOUBLE_EQ(consistent_cpu_imbalance({&p}), 0);
}

TEST(ConsistentCpuImbalance, RepeatsArePooledAndTheResultIsPerRun) {
  // Two runs of two instances each: thread 1 always 2 s slower: 2 × 1 s per run.
  const BarrierPhases a = phases_of({{4, 6}, {4.2, 6.2}}), b = phases_of({{3.8, 5.8}, {4, 6}});
  EXPECT_NEAR(consistent_cpu_imbalance({&a, &b}), 2, 1e-9);
}

TEST(ConsistentCpuImbalance, RunsThatReadDifferentPositionsArePooledPositionByPosition) {
  // The capture reads some barriers only: run a read positions 0 and 2, run b positions 1 and 2,
  // each read position 4 times in a and b alike where both read it. Position 0 (a only): the
  // slowest thread changes, nothing consistent. Position 1 (b only): thread 1 always 2 s slower,
  // 4 s. Position 2: a's 2 instances and b's 2 pooled, thread 1 always 2 s slower (±0.1 s), 4 s.
  // 8 s over 2 runs: 4. Matched by their rank among the read rows, a's 0 would pool with b's 1.
  BarrierPhases a, b;
  const auto read = [](BarrierPhases& into, size_t position, double c0, double c1) {
    const std::vector<double> cpu{c0, c1}, squared{c0 * c0, c1 * c1};
    into.positions.add(position, 1, std::max(c0, c1) - (c0 + c1) / 2, cpu, squared);
  };
  for (int k = 0; k < 2; ++k) {
    read(a, 0, 6, 4), read(a, 0, 4, 6);
    read(a, 2, 4 + 0.1 * k, 6 + 0.1 * k);
    read(b, 1, 4, 6), read(b, 1, 4, 6);
    read(b, 2, 3.9 + 0.1 * k, 5.9 + 0.1 * k);
  }
  ASSERT_EQ(a.positions.size(), 2u);
  EXPECT_EQ(a.positions[1].position, 2u);
  EXPECT_NEAR(consistent_cpu_imbalance({&a, &b}), 4, 1e-9);
}

TEST(ConsistentCpuImbalance, SampledOutInstancesCarryTheShareTheReadOnesShow) {
  // Four read instances, thread 1 always 2 s slower: 4 s consistent of 4 s. The run's phases also
  // stand for sampled-out instances with 12 s more CPU-time imbalance and no samples: the
  // consistent part is the same share of all of it, 16 s (it went to threads slowed unevenly).
  BarrierPhases p = phases_of({{4, 6}, {4.2, 6.2}, {3.8, 5.8}, {4, 6}});
  EXPECT_NEAR(consistent_cpu_imbalance({&p}), 4, 1e-9);
  p.cpu_imbalance_s += 12;
  EXPECT_NEAR(consistent_cpu_imbalance({&p}), 16, 1e-9);
}

TEST(ConsistentCpuImbalance, WithFewerThanThreeInstancesThereIsNoSpreadToJudgeBy) {
  const BarrierPhases p = phases_of({{4, 6}, {6, 4}});
  EXPECT_DOUBLE_EQ(consistent_cpu_imbalance({&p}), 2);  // as measured
  EXPECT_DOUBLE_EQ(consistent_cpu_imbalance({}), 0);
}

}  // namespace
}  // namespace ompscope::analysis
