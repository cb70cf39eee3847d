// The three tasking problems of DESIGN.md, judged from a region's task figures at one thread
// count (the median over its repeats). Thresholds (README "Task diagnoses"):
//   fine_grained_tasks       the mean task body is shorter than kBodyPerDispatch × the runtime's
//                            per-task dispatch cost (measured on at least kMinDispatchGaps
//                            dispatch gaps), and that cost adds up to kSignificantShare of the
//                            team's time in the region;
//   task_creation_bottleneck threads starved for tasks while tasks were still being created for
//                            at least kSignificantShare of the team's time;
//   coarse_grained_tasks     threads idled after the last task had started, while the last
//                            tasks ran, for at least kSignificantShare of the team's time.
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

std::vector<Problem> diagnose_tasks(const std::vector<const TaskFigures*>& repeats, int threads);

// The task columns of the report at one thread count; `measured_speedup` is the region's.
TaskSummary summarize_tasks(const std::vector<const TaskFigures*>& repeats, int threads, double measured_speedup);

}  // namespace ompscope::analysis
