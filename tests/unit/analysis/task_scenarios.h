// Hand-built event logs of 2-thread tasking regions, one per tasking pathology in miniature.
// Every interval is stated, so the task figures, the task graph and the diagnoses built from
// them have exact expected values (µs). Region 10 runs 0 → 90 µs unless said otherwise; the
// master's implicit task is 11 (thread 0), the worker's 12 (thread 1).
#pragma once
#include "event_log_builder.h"

namespace ompscope::analysis::testing {

inline constexpr uint64_t kTaskRegionCode = 0x5000;
inline constexpr uint64_t kTaskCode = 0x5010;

namespace task_scenario_detail {

inline constexpr auto kJoin = ompt_sync_region_barrier_implicit_parallel;
inline constexpr auto kSingleBarrier = ompt_sync_region_barrier_implicit_workshare;

inline void open_region(LogBuilder& b) {
  b.thread(0).thread_begin(0).initial_task(0, 1, 2).parallel_begin(0, 10, 2, 2, kTaskRegionCode).implicit_begin(0, 10, 11, 2, 0);
  b.thread(1).thread_begin(0, ompt_thread_worker).implicit_begin(0, 10, 12, 2, 1);
}

inline void close_region(LogBuilder& b, uint64_t barrier_end, uint64_t end) {
  b.thread(0)
      .sync_end(barrier_end, kSingleBarrier)
      .sync_begin(barrier_end, kJoin)
      .sync_end(end, kJoin)
      .implicit_end(end, 10, 11, 0)
      .parallel_end(end, 10, 2, kTaskRegionCode)
      .thread_end(end + 10);
  b.thread(1)
      .sync_end(barrier_end, kSingleBarrier)
      .sync_begin(barrier_end, kJoin)
      .sync_end(end, kJoin)
      .implicit_end(end, 10, 12, 1)
      .thread_end(end + 10);
}

}  // namespace task_scenario_detail

// A creator that prepares each task's input: the master works 0 → 30, creates task 50, works
// 30 → 60, creates task 51, then waits in its taskwait 60 → 72 and the single's barrier 72 → 73.
// The worker waits in the single's barrier from 1 and runs 50 (31 → 41) and 51 (61 → 71).
// Both leave the join barrier at 80.
inline RunLog creator_with_preparation_log() {
  using namespace task_scenario_detail;
  LogBuilder b(2, 100);
  open_region(b);
  b.thread(0)
      .task_create(30, 50, 11, kTaskCode)
      .task_create(60, 51, 11, kTaskCode)
      .sync_begin(60, ompt_sync_region_taskwait)
      .sync_end(72, ompt_sync_region_taskwait)
      .sync_begin(72, kSingleBarrier);
  b.thread(1)
      .sync_begin(1, kSingleBarrier)
      .task_schedule(31, 12, ompt_task_switch, 50)
      .task_schedule(41, 50, ompt_task_complete, 12)
      .task_schedule(61, 12, ompt_task_switch, 51)
      .task_schedule(71, 51, ompt_task_complete, 12);
  close_region(b, 73, 80);
  return b.log();
}

// Three equal tasks (40 µs) on two threads: the master creates 50, 51, 52 at 1, 2, 3 and runs
// 52 (4 → 44) in its taskwait (3 → 83); the worker, in the single's barrier from 0, runs 50
// (2 → 42) and then 51 (43 → 83) while the master has nothing left to run. Single's barrier
// ends at 84, the join barrier at 90.
inline RunLog three_tasks_on_two_threads_log() {
  using namespace task_scenario_detail;
  LogBuilder b(2, 100);
  open_region(b);
  b.thread(0)
      .task_create(1, 50, 11, kTaskCode)
      .task_create(2, 51, 11, kTaskCode)
      .task_create(3, 52, 11, kTaskCode)
      .sync_begin(3, ompt_sync_region_taskwait)
      .task_schedule(4, 11, ompt_task_switch, 52)
      .task_schedule(44, 52, ompt_task_complete, 11)
      .sync_end(83, ompt_sync_region_taskwait)
      .sync_begin(83, kSingleBarrier);
  b.thread(1)
      .sync_begin(0, kSingleBarrier)
      .task_schedule(2, 12, ompt_task_switch, 50)
      .task_schedule(42, 50, ompt_task_complete, 12)
      .task_schedule(43, 12, ompt_task_switch, 51)
      .task_schedule(83, 51, ompt_task_complete, 12);
  close_region(b, 84, 90);
  return b.log();
}

// Twenty tiny tasks: the master creates 100..119 at 1, 2, ..., 20 and waits in its taskwait
// from 21; the worker, in the single's barrier from 0, runs them one after another: task i
// from 22 + 3i for 1 µs, then 2 µs pass before the next starts. The last ends at 80; the
// single's barrier ends at 81, the join barrier at 90.
inline RunLog twenty_tiny_tasks_log() {
  using namespace task_scenario_detail;
  LogBuilder b(2, 100);
  open_region(b);
  Stream master = b.thread(0);
  for (uint32_t i = 0; i < 20; ++i) master.task_create(1 + i, 100 + i, 11, kTaskCode);
  master.sync_begin(21, ompt_sync_region_taskwait).sync_end(80, ompt_sync_region_taskwait).sync_begin(80, kSingleBarrier);
  Stream worker = b.thread(1);
  worker.sync_begin(0, kSingleBarrier);
  for (uint32_t i = 0; i < 20; ++i)
    worker.task_schedule(22 + 3 * i, 12, ompt_task_switch, 100 + i).task_schedule(23 + 3 * i, 100 + i, ompt_task_complete, 12);
  close_region(b, 81, 90);
  return b.log();
}

// The same run recorded by a capture sampling tasks (the first 4 tasks of the site in full, then
// one in 4): tasks 100..103 are recorded, then 107, 111, 115 and 119, each standing for itself and
// the three light ones created before it. The worker writes one batch record per run of light
// tasks, at its next record: 104..106 started at 34, counted at 43 when 107 starts.
inline RunLog twenty_tiny_tasks_sampled_log() {
  using namespace task_scenario_detail;
  LogBuilder b(2, 100);
  open_region(b);
  auto recorded = [](uint32_t i) { return i < 4 || i % 4 == 3; };
  Stream master = b.thread(0);
  for (uint32_t i = 0; i < 20; ++i)
    if (recorded(i)) master.task_create(1 + i, 100 + i, 11, kTaskCode, ompt_task_explicit, i < 4 ? 1 : 4);
  master.sync_begin(21, ompt_sync_region_taskwait).sync_end(80, ompt_sync_region_taskwait).sync_begin(80, kSingleBarrier);
  Stream worker = b.thread(1);
  worker.sync_begin(0, kSingleBarrier);
  for (uint32_t i = 0; i < 20; ++i) {
    if (!recorded(i)) continue;
    if (i >= 4) worker.light_tasks(22 + 3 * i, 22 + 3 * (i - 3), 3);
    worker.task_schedule(22 + 3 * i, 12, ompt_task_switch, 100 + i).task_schedule(23 + 3 * i, 100 + i, ompt_task_complete, 12);
  }
  close_region(b, 81, 90);
  return b.log();
}

// A two-level task tree on the master, the worker idle in the single's barrier: task 100 (created
// by the implicit task at 1) runs 3 → 16 and creates 200 at 4 and 201 at 6, then waits for them
// in its taskwait 7 → 15, running 201 (8 → 9) and 200 (11 → 12) in it. Gaps: the implicit task's
// taskwait 2 → 3 before 100 (a dispatch), 7 → 8 and 9 → 11 in 100's taskwait (dispatches), and
// 12 → 15, leaving the taskwait after both children were done (its cost).
inline RunLog two_level_tree_log() {
  using namespace task_scenario_detail;
  LogBuilder b(2, 100);
  open_region(b);
  b.thread(0)
      .task_create(1, 100, 11, kTaskCode)
      .sync_begin(2, ompt_sync_region_taskwait)
      .task_schedule(3, 11, ompt_task_switch, 100)
      .task_create(4, 200, 100, kTaskCode + 1)
      .task_create(6, 201, 100, kTaskCode + 1)
      .sync_begin(7, ompt_sync_region_taskwait)
      .task_schedule(8, 100, ompt_task_switch, 201)
      .task_schedule(9, 201, ompt_task_complete, 100)
      .task_schedule(11, 100, ompt_task_switch, 200)
      .task_schedule(12, 200, ompt_task_complete, 100)
      .sync_end(15, ompt_sync_region_taskwait)
      .task_schedule(16, 100, ompt_task_complete, 11)
      .sync_end(17, ompt_sync_region_taskwait)
      .sync_begin(17, kSingleBarrier);
  b.thread(1).sync_begin(0, kSingleBarrier);
  close_region(b, 18, 20);
  return b.log();
}

// A tied task waiting for a child another thread runs (BOTS strassen in miniature): task 100
// (created by the master's implicit task at 1, run 3 → 32) creates 200 at 4 and 201 at 5 and waits
// in its taskwait 6 → 31. The worker (in the single's barrier from 0) takes 200 at 6 and runs it
// until 30; 200 creates 300 at 7. The master runs 201 (7 → 9) from its own queue, then waits
// 9 → 25 before it takes 300 from the worker's queue (25 → 26), then waits for 200. `flags` are
// task 100's (ompt_task_untied or not).
inline RunLog tied_task_waits_for_a_stolen_child_log(uint32_t flags) {
  using namespace task_scenario_detail;
  LogBuilder b(2, 100);
  open_region(b);
  b.thread(0)
      .task_create(1, 100, 11, kTaskCode, flags)
      .sync_begin(2, ompt_sync_region_taskwait)
      .task_schedule(3, 11, ompt_task_switch, 100)
      .task_create(4, 200, 100, kTaskCode + 1)
      .task_create(5, 201, 100, kTaskCode + 1)
      .sync_begin(6, ompt_sync_region_taskwait)
      .task_schedule(7, 100, ompt_task_switch, 201)
      .task_schedule(9, 201, ompt_task_complete, 100)
      .task_schedule(25, 100, ompt_task_switch, 300)
      .task_schedule(26, 300, ompt_task_complete, 100)
      .sync_end(31, ompt_sync_region_taskwait)
      .task_schedule(32, 100, ompt_task_complete, 11)
      .sync_end(33, ompt_sync_region_taskwait)
      .sync_begin(33, kSingleBarrier);
  b.thread(1)
      .sync_begin(0, kSingleBarrier)
      .task_schedule(6, 12, ompt_task_switch, 200)
      .task_create(7, 300, 200, kTaskCode + 2)
      .task_schedule(30, 200, ompt_task_complete, 12);
  close_region(b, 34, 40);
  return b.log();
}

// A sampled recursive tree: task 100 (created by the master at 1, run 3 → 16) creates 200 at 4
// and waits for it in its taskwait 5 → 15 doing nothing else; the worker runs 200 (6 → 14, a
// leaf), then two light tasks from 15 on, counted at 30 just before it leaves the single's
// barrier. 100's own work is 3 µs (13 run, 10 waited), 200's 8 µs.
inline RunLog sampled_tree_whose_recorded_tasks_wait_log() {
  using namespace task_scenario_detail;
  LogBuilder b(2, 100);
  open_region(b);
  b.thread(0)
      .task_create(1, 100, 11, kTaskCode)
      .sync_begin(2, ompt_sync_region_taskwait)
      .task_schedule(3, 11, ompt_task_switch, 100)
      .task_create(4, 200, 100, kTaskCode + 1)
      .sync_begin(5, ompt_sync_region_taskwait)
      .sync_end(15, ompt_sync_region_taskwait)
      .task_schedule(16, 100, ompt_task_complete, 11)
      .sync_end(17, ompt_sync_region_taskwait)
      .sync_begin(17, kSingleBarrier);
  b.thread(1)
      .sync_begin(0, kSingleBarrier)
      .task_schedule(6, 12, ompt_task_switch, 200)
      .task_schedule(14, 200, ompt_task_complete, 12)
      .light_tasks(30, 15, 2);
  close_region(b, 30, 40);
  return b.log();
}

// One dependence chain on 2 threads: the master creates tasks 50, 51, … (`tasks` of them) at 1,
// 2, … µs, each with depend(inout) on one address (and, where `runtime_edges`, the runtime's
// edge from the one before), then waits in the single's barrier from `tasks` + 1. Each task
// runs 30 µs, the first from 10, each next one on the other thread the moment the one before
// completes: task k (from 0) 10 + 30k → 40 + 30k, on the worker for even k, the master for odd.
// Both leave the single's barrier at 10 + 30 × tasks, the join barrier 10 µs later.
inline constexpr uint64_t kChainAddress = 0x7f0000001000;
inline RunLog one_chain_log(uint32_t tasks, bool clauses = true, bool runtime_edges = true) {
  using namespace task_scenario_detail;
  const uint64_t end = 10 + 30ull * tasks;
  LogBuilder b(2, end + 100);
  open_region(b);
  Stream master = b.thread(0), worker = b.thread(1);
  worker.sync_begin(0, kSingleBarrier);
  for (uint32_t k = 0; k < tasks; ++k) {
    master.task_create(1 + k, 50 + k, 11, kTaskCode);
    if (clauses) master.depends(1 + k, 50 + k, kChainAddress, ompt_dependence_type_inout);
    if (runtime_edges && k > 0) master.task_dependence(1 + k, 50 + k - 1, 50 + k);
  }
  master.sync_begin(1 + tasks, kSingleBarrier);
  for (uint32_t k = 0; k < tasks; ++k) {
    Stream& s = k % 2 ? master : worker;
    const uint32_t self = k % 2 ? 11 : 12;
    s.task_schedule(10 + 30 * k, self, ompt_task_switch, 50 + k).task_schedule(40 + 30 * k, 50 + k, ompt_task_complete, self);
  }
  close_region(b, end, end + 10);
  return b.log();
}

}  // namespace ompscope::analysis::testing
