// The three tasking problems of docs/design.md and docs/tasks.md, judged from a region's task figures at one thread
// count (the median over its repeats). Thresholds (README "Task diagnoses"):
//   fine_grained_tasks       the mean task body is shorter than kBodyPerDispatch × the runtime's
//                            per-task cost (per_task_cost: each part measured on at least
//                            kMinDispatchGaps samples), and that cost adds up to kSignificantShare
//                            of the team's time in the region. Its time is the team's thread time
//                            outside the program's own code (see the comment in the code); in a
//                            recursive tree its hint proposes a depth cutoff (propose_cutoff) and
//                            its gain is that time less the kept tasks' cost, shared by the team;
//   task_creation_bottleneck the task graph leaves at least kSignificantShare of the team's time
//                            idle (team × span − work), its span is mostly one creator's serial
//                            work (the creation chain is at least kChainShareOfSpan of it), and
//                            that creator spends more than kBodyPerDispatch dispatch costs per
//                            task — its own preparation, not the runtime's cost (that would be
//                            fine_grained_tasks). Judged on the graph rather than on the
//                            starvation measured, which a thread descheduled by the machine hides;
//                            the measured starvation is shown beside it;
//   coarse_grained_tasks     handing the tasks (their measured bodies, in creation order) to the
//                            team's threads leaves them idle at the end for at least
//                            kSignificantShare of the team's time (the end idle of
//                            task_figures.h: predicted from the bodies, so that one thread slowed
//                            down by the machine cannot hide the pattern; the measured tail idle
//                            is shown beside it).
// Each problem's time_s is thread time; its gain_s is that time shared by the team (time_s / t):
// the wall time the region saves when the team gets that time back as work.
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

#include "analysis/report.h"
#include "analysis/task_figures.h"

namespace ompscope::analysis {

inline constexpr double kSignificantShare = 0.10;
inline constexpr double kBodyPerDispatch = 4.0;
// fine_grained_tasks: where at least this share of the tasks was sampled out (their bodies
// estimated), the runtime's cost is at least the cost measured per task times the tasks.
inline constexpr double kEstimatedBodiesShare = 0.5;
inline constexpr size_t kMinDispatchGaps = 8;
inline constexpr double kChainShareOfSpan = 0.5;

// The runtime's cost per task, each part measured where it is paid (task_figures.h), medians of
// the runs' medians; 0 where a part was not measured (fewer than kMinDispatchGaps samples).
struct PerTaskCost {
  double creation_gap_s = 0;  // median creation gap: one creation call and the program's code between two
  double creation_s = 0;   // the creation gap where it is no more than kBodyPerDispatch × the dispatch
                           // or immediate start, or was so at the smallest count (else it is the
                           // creator's own preparation): 0
  double dispatch_s = 0;   // a ready task's start after the thread's previous task or wait
  double immediate_s = 0;  // creation → start of a task its creator runs at once
  double taskwait_s = 0;   // a taskwait whose children are all done
  double taskwaits_per_task = 0;  // recorded tasks that wait in a taskwait or taskgroup, per task
  double children_per_task = 0;   // tasks created by tasks, per task
  double dispatched_share = 0;    // of the tasks whose start was measured, those dispatched (the rest immediate)
  // The runtime's part of every task's own work (starting and finishing it, between the events
  // that bound the body): in a tree of at least two levels, the mean own work of the tasks that
  // create none (at least kMinDispatchGaps of them), their code taken as negligible beside it, and
  // at most total_s; 0 without.
  double body_floor_s = 0;
  // What each creation costs its creator's body in all (allocating, the callback, queueing: the
  // creation gap sees only part of it): in such a tree, the least over depths of a task's mean own
  // work less body_floor_s per child it created, where it created at least one on average —
  // between creation_s and total_s; creation_s elsewhere.
  double creation_in_body_s = 0;
  // creation + dispatch for the dispatched share, the immediate start for the others, + the
  // taskwait share; 0 where neither a dispatch nor an immediate start was measured.
  double total_s = 0;
};
// `base`: the same region's repeats at the smallest count (none: this is it, or it ran no task).
// A creation gap that was a creation call there is one at every count (PerTaskCost::creation_s).
PerTaskCost per_task_cost(const std::vector<const TaskFigures*>& runs,
                          const std::vector<const TaskFigures*>* base = nullptr);

// A depth cutoff for a recursive task tree: tasks down to `depth` stay tasks, deeper calls run as
// plain calls inside them. Chosen from the recorded tasks per depth: W(d), the work a task at
// depth d would do inline — its own work less its creation calls and less the runtime's part of
// every task's body (PerTaskCost::body_floor_s), plus its children's W
// (children per task from the creations the recorded tasks stand for) — must reach
// kCutoffWorkPerCost × the per-task cost; the deepest such depth is proposed (the most tasks, so
// the most parallelism).
inline constexpr double kCutoffWorkPerCost = 20.0;
struct CutoffProposal {
  int depth = 0;              // 0: even the first level's tasks are too small (run it serially)
  double kept_tasks = 0;      // tasks the cutoff leaves (creations down to `depth`)
  double work_per_task_s = 0; // W(depth): the inline work of each deepest kept task
};
// Only for trees of at least two levels (else nullopt).
std::optional<CutoffProposal> propose_cutoff(const std::vector<const TaskFigures*>& runs, const PerTaskCost& cost);

std::vector<Problem> diagnose_tasks(const std::vector<const TaskFigures*>& repeats, int threads,
                                    const std::vector<const TaskFigures*>* base = nullptr);

// Task inflation (docs/tasks.md): the recorded tasks of each task construct take longer at
// `threads` than at `base_threads` (their own work, mean per task, pooled over the repeats, each
// side at least kMinDispatchGaps of them). The growth in thread time, summed over the
// constructs, is each one's growth per task times its share of the tasks at `threads`; reported
// as task_inflation where it is at least kSignificantShare of the team's time lost (the region's
// `lost_s` at `threads` times the team; none where nothing was lost), its gain the growth shared
// by the team. The growth is split as work_inflation's is for loops, by the team's
// kernel accounting over its work in the region at each count (`usage`, `base_usage`; null where
// not read): off the CPU (a body's wall time times the share its threads were off the CPU), in
// the kernel (times the system share), and the rest on the CPU.
std::optional<Problem> task_inflation(const std::vector<const TaskFigures*>& repeats,
                                      const std::vector<const TaskFigures*>& base, int threads, int base_threads,
                                      double lost_s, const WorkUsage* usage = nullptr,
                                      const WorkUsage* base_usage = nullptr);

// The task columns of the report at one thread count; `measured_speedup` is the region's.
TaskSummary summarize_tasks(const std::vector<const TaskFigures*>& repeats, int threads, double measured_speedup,
                            const std::vector<const TaskFigures*>* base = nullptr);

}  // namespace ompscope::analysis
