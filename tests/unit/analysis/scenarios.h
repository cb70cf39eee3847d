// Event logs shared by several test files: each one a small program whose every interval is
// known, so the timeline, the profile and the per-run analysis can be checked on one story.
#pragma once
#include "event_log_builder.h"

namespace ompscope::analysis::testing {

inline constexpr uint64_t kRegionCode = 0x4000;
inline constexpr uint64_t kLoopBarrierCode = 0x4020;
inline constexpr uint64_t kJoinCode = 0x4030;

// A 2-thread `parallel { for ...; }` run once, program finalized at 1010 µs.
//
//   master (thread 0, index 0)            worker (thread 1, index 1)
//     0  thread begin, initial task         50  thread begin
//   100  parallel begin (region 10)
//   102  implicit task begin               104  implicit task begin
//   105  loop                              106  loop
//   300  loop end, loop barrier arrive     200  loop end, loop barrier arrive
//   320  loop barrier depart               310  loop barrier depart
//   400  join barrier arrive               350  join barrier arrive (codeptr 0: docs/runtime-quirks.md Q2)
//   450  join barrier depart, task end
//   455  parallel end
//                                          900  join barrier end, implicit task end: late (docs/runtime-quirks.md Q1)
//  1000  initial task end, thread end     1001  thread end
//
// `libomp14`: every implicit barrier is reported as the deprecated barrier_implicit (libomp 14);
// otherwise as implicit_workshare / implicit_parallel (libomp 19).
inline RunLog two_thread_loop_log(bool libomp14 = false) {
  const auto loop_kind = libomp14 ? ompt_sync_region_barrier_implicit : ompt_sync_region_barrier_implicit_workshare;
  const auto join_kind = libomp14 ? ompt_sync_region_barrier_implicit : ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(2, 1010);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(100, 10, 2, 2, kRegionCode)
      .implicit_begin(102, 10, 11, 2, 0)
      .work_begin(105)
      .work_end(300)
      .sync_begin(300, loop_kind, kLoopBarrierCode)
      .sync_end(320, loop_kind, kLoopBarrierCode)
      .sync_begin(400, join_kind, kJoinCode)
      .sync_end(450, join_kind, kJoinCode)
      .implicit_end(450, 10, 11, 0)
      .parallel_end(455, 10, 2, kRegionCode)
      .initial_task_end(1000, 1, 2)
      .thread_end(1000);
  b.thread(1)
      .thread_begin(50, ompt_thread_worker)
      .implicit_begin(104, 10, 12, 2, 1)
      .work_begin(106)
      .work_end(200)
      .sync_begin(200, loop_kind, kLoopBarrierCode)
      .sync_end(310, loop_kind, kLoopBarrierCode)
      .sync_begin(350, join_kind, 0)
      .sync_end(900, join_kind, 0)
      .implicit_end(900, 0, 12, 1)
      .thread_end(1001);
  return b.log();
}

// One thread, one region 0xA0 (50 → 310). The implicit task 11 creates task 80 at 60 and waits
// in a barrier 100 → 200; inside it task 80 runs 110 → 170, creates 81 at 115 and waits for it
// in a taskwait 120 → 160 while 81 runs 130 → 150. Join barrier 300 → 310.
inline RunLog task_with_taskwait_in_barrier_log() {
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  LogBuilder b(1, 1000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(50, 10, 2, 1, 0xA0)
      .implicit_begin(50, 10, 11, 1, 0)
      .task_create(60, 80, 11, 0xF1)
      .sync_begin(100, ompt_sync_region_barrier_explicit, 0xB1)
      .task_schedule(110, 11, ompt_task_switch, 80)
      .task_create(115, 81, 80, 0xF2)
      .sync_begin(120, ompt_sync_region_taskwait, 0xF3)
      .task_schedule(130, 80, ompt_task_switch, 81)
      .task_schedule(150, 81, ompt_task_complete, 80)
      .sync_end(160, ompt_sync_region_taskwait, 0xF3)
      .task_schedule(170, 80, ompt_task_complete, 11)
      .sync_end(200, ompt_sync_region_barrier_explicit, 0xB1)
      .sync_begin(300, join)
      .sync_end(310, join)
      .implicit_end(310, 10, 11, 0)
      .parallel_end(310, 10, 2, 0xA0)
      .thread_end(1000);
  return b.log();
}

}  // namespace ompscope::analysis::testing
