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
#include <functional>
#include <span>
#include <vector>

#include "analysis/timeline.h"

namespace ompscope::analysis {

// Per position of a barrier in its instance (the instance's first barrier, its second, ...),
// over the instances where every thread's CPU time in the segment before it was read: each
// thread's CPU time there summed and summed squared, and their imbalance summed. They tell an
// imbalance the same threads show in every instance (their iterations cost more) from one that
// moves between threads (threads slowed unevenly): consistent_cpu_imbalance.
// Only the positions read are held, a row each in the order of their positions: past an
// instance's first barriers the capture reads the kernel's accounting at about 1 in 200
// (capture/thread_usage.h), and a row for every position, read or not, held 9 of the 21 MB a
// region of 100 000 barriers peaked at (many_barriers). The threads' sums of every row sit in two
// arrays, each row as wide as its widest team: two vectors per position were two allocations per
// barrier and per thread's row.
class PositionSums {
 public:
  // One position as a value, to build one from (tests, a barrier's own share).
  struct Position {
    double instances = 0;
    std::vector<double> cpu, cpu_squared;  // by thread
    double cpu_imbalance_s = 0;
  };
  // One position as held: which barrier it is, and its threads' sums, as wide as its widest team.
  struct View {
    size_t position = 0;
    double instances = 0;
    std::span<const double> cpu, cpu_squared;
    double cpu_imbalance_s = 0;
  };
  size_t size() const { return at_.size(); }  // the positions held (read), not the barriers
  bool empty() const { return at_.empty(); }
  void clear();  // its arrays' memory kept, for the next instance's
  View operator[](size_t row) const;  // the row-th position held, in order of position
  // Adds to position `b` `instances`, a CPU-time imbalance and each thread's CPU time and its
  // square (a row made for it where it has none).
  void add(size_t b, double instances, double cpu_imbalance_s, std::span<const double> cpu,
           std::span<const double> cpu_squared);
  // At the position after the last one held (0 where none is).
  void push_back(const Position& p) {
    add(empty() ? 0 : at_.back().position + 1, p.instances, p.cpu_imbalance_s, p.cpu, p.cpu_squared);
  }
  // Position by position.
  void add(const PositionSums& o);
  // The same; where this holds none yet, o's arrays are taken as they are (a region's first
  // instance: many_barriers' positions were held twice, the instance's and the region's).
  void add(PositionSums&& o);

 private:
  struct At {
    size_t position = 0;
    double instances = 0;
    double cpu_imbalance_s = 0;
    size_t threads = 0;  // its row's width
  };
  size_t row_of(size_t b);  // position b's row, made (in order) where it has none
  void widen(size_t threads);
  std::vector<At> at_;  // by position
  std::vector<double> cpu_, squared_;  // [row × stride_ + thread]
  size_t stride_ = 0;
};

struct BarrierPhases {
  double imbalance_s = 0;
  double walkthrough_s = 0;
  double startup_s = 0;
  double fork_s = 0;     // last thread start − region begin, if the fork created no thread
  double team_creation_s = 0;  // the same, if it did: once per run, so no change to the regions
                               // wins it back
  double join_s = 0;     // region end − last arrival at the join barrier
  // Of the inner barriers' cost (last departure − last arrival), what a thread switched out
  // involuntarily in its visit explains (SyncVisit::off_cpu after the last arrival): taken out of
  // startup_s first, then walkthrough_s. A barrier held back by another process holding a
  // thread's CPU is time off the CPU (work inflation's), not the runtime's barrier.
  double descheduled_s = 0;
  // Of imbalance_s, the part at barriers where every thread's CPU time in the segment was read
  // (ThreadUsage), and the imbalance of those CPU times (each barrier's at most its wall
  // imbalance): the rest of the wall imbalance is threads that were not running (descheduled).
  double measured_imbalance_s = 0;
  double cpu_imbalance_s = 0;
  // At the imbalanced barriers right after a loop whose iteration count is known: the loops'
  // iterations and the team's work in their segments (the cost per iteration sizes a chunk).
  double loop_iterations = 0;
  double loop_work_s = 0;
  // Of loop_work_s, at the barriers where every thread's CPU time was read (the CPU-time
  // imbalance's own instances: threads read it in a subset, capture/thread_usage.h).
  double measured_loop_work_s = 0;
  uint32_t loops_with_iterations = 0;  // the imbalanced barriers right after a loop of known count
  // Of imbalance_s, what no schedule can even out at those barriers: a loop of L iterations on n
  // threads leaves its busiest thread ceil(L/n) of them against L/n on average, at the mean cost
  // per iteration (ceil(L/n) - L/n) x work / L, never more than the barrier's imbalance. Exact
  // where iterations cost alike; where L <= n each thread runs one iteration at most whatever the
  // schedule, and the whole imbalance is indivisible (costlier iterations or slower CPUs alike).
  double indivisible_s = 0;
  uint32_t barriers = 0;            // barriers analysed (join included)
  uint32_t imbalanced_after_loop = 0;  // of the barriers with imbalance, those right after a loop
  // Of those, the ones after a loop the runtime reported as scheduled dynamically or guided
  // (libomp 19; SyncVisit::loop_schedule): a hint must not propose what the loop already has.
  uint32_t imbalanced_after_dynamic = 0;
  uint32_t imbalanced_after_guided = 0;
  uint32_t skipped_with_tasks = 0;  // barriers where threads ran tasks: left to the task analysis
  // The CPU-time samples of each barrier position (PositionSums).
  using Position = PositionSums::Position;
  PositionSums positions;
};

// `each`, when given, is called with what each barrier adds, in the order of the threads' barrier
// visits (barriers, join included), so a caller can charge each barrier to its construct (a
// region of 100 000 barriers held them all as a vector: 160 bytes and three allocations each).
BarrierPhases barrier_phases(const RegionInstance& region,
                             const std::function<void(const BarrierPhases& one)>& each = nullptr);

// Adds `p` to `into`, field by field (the per-position sums included): one region's barriers, or
// a region's and its sampled-out instances', or one barrier's share to the construct that owns it.
void add_phases(BarrierPhases& into, const BarrierPhases& p);
// The same, taking p's per-position sums where `into` holds none yet.
void add_phases(BarrierPhases& into, BarrierPhases&& p);

// `p` standing for f times the instances it was measured on (sampled-out instances that behave
// alike): its sums and counts times f; team creation (once per run) and the samples of CPU time
// (positions) as they were.
BarrierPhases operator*(BarrierPhases p, double f);

// Per instance, over the positions read: the team's CPU time in the stretches before its barriers,
// and the least one thread spent there (the least at each position, summed: never above any one
// thread's own sum). A thread's share of a smaller team's work is weighed against `fastest`
// (split_barrier_waits): a loop whose iterations differ in cost leaves some thread below it.
struct SegmentCpu {
  double team = 0, fastest = 0;
};
SegmentCpu segment_cpu_per_instance(const PositionSums& positions);

// Of the CPU-time imbalance at the barriers of one region's runs (repeats of one thread count),
// the part the same threads show consistently, per run: at each barrier position, the imbalance
// of the threads' mean CPU times where it stands out from their spread between instances (more
// than twice its standard error; with fewer than 3 instances there is no spread to judge by, and
// the imbalance counts as consistent), never more than the imbalance measured there. With a
// static schedule a thread runs the same iterations in every instance, so costlier iterations
// show up on the same thread each time; threads slowed unevenly (a contended cache line, the
// kernel's locks, the memory bus) take turns at being the slowest (docs/lost-time.md).
double consistent_cpu_imbalance(const std::vector<const BarrierPhases*>& runs);

}  // namespace ompscope::analysis
