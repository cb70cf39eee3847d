// The barrier phases of docs/design.md ("Metrics") for one region instance. For each barrier, matched across
// the team by its position in each thread's sequence:
//   segment work  w_k = arrival_k − that thread's previous departure (or its start)
//   imbalance        = max_k w_k − mean_k w_k
//   walkthrough      = first departure − last arrival
//   startup          = last departure − first departure (charged to the releasing barrier;
//                      the next segment is measured from each thread's own departure)
// The join barrier's departures are not observable (workers go idle): its imbalance counts,
// its walkthrough and the region's start-up skew are fork/join cost. A fork that creates threads
// (libomp creates its workers at the first one: ~2.5 ms on a 2-vCPU VM, against 1–4 µs for
// later forks) starts late once: that is team creation, kept apart from the fork cost.
#pragma once
#include <vector>

#include "analysis/timeline.h"

namespace ompscope::analysis {

struct BarrierPhases {
  double imbalance_s = 0;
  double walkthrough_s = 0;
  double startup_s = 0;
  double fork_s = 0;     // last thread start − region begin, if the fork created no thread
  double team_creation_s = 0;  // the same, if it did: once per run, so no change to the regions
                               // wins it back
  double join_s = 0;     // region end − last arrival at the join barrier
  // Of imbalance_s, the part at barriers where every thread's CPU time in the segment was read
  // (ThreadUsage), and the imbalance of those CPU times (each barrier's at most its wall
  // imbalance): the rest of the wall imbalance is threads that were not running (descheduled).
  double measured_imbalance_s = 0;
  double cpu_imbalance_s = 0;
  // At the imbalanced barriers right after a loop whose iteration count is known: the loops'
  // iterations and the team's work in their segments (the cost per iteration sizes a chunk).
  double loop_iterations = 0;
  double loop_work_s = 0;
  uint32_t barriers = 0;            // barriers analysed (join included)
  uint32_t imbalanced_after_loop = 0;  // of the barriers with imbalance, those right after a loop
  uint32_t skipped_with_tasks = 0;  // barriers where threads ran tasks: left to the task analysis
};

// `each`, when given, receives what each barrier adds, in the order of the threads' barrier
// visits (barriers, join included), so a caller can charge each barrier to its construct.
BarrierPhases barrier_phases(const RegionInstance& region, std::vector<BarrierPhases>* each = nullptr);

}  // namespace ompscope::analysis
