// The three tasking problems of docs/design.md and docs/tasks.md, judged from a region's task figures at one thread
// count (the median over its repeats). Thresholds (README "Task diagnoses"):
//   fine_grained_tasks       the mean task body is shorter than kBodyPerDispatch × the runtime's
//                            per-task dispatch cost (measured on at least kMinDispatchGaps
//                            dispatch gaps), and that cost adds up to kSignificantShare of the
//                            team's time in the region;
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
#include <vector>

#include "analysis/report.h"
#include "analysis/task_figures.h"

namespace ompscope::analysis {

inline constexpr double kSignificantShare = 0.10;
inline constexpr double kBodyPerDispatch = 4.0;
inline constexpr size_t kMinDispatchGaps = 8;
inline constexpr double kChainShareOfSpan = 0.5;

std::vector<Problem> diagnose_tasks(const std::vector<const TaskFigures*>& repeats, int threads);

// The task columns of the report at one thread count; `measured_speedup` is the region's.
TaskSummary summarize_tasks(const std::vector<const TaskFigures*>& repeats, int threads, double measured_speedup);

}  // namespace ompscope::analysis
