// Runs at several thread counts (and repeats) → the ranked report: per region T(t), E(t),
// time lost, and causes with predicted gains (docs/design.md, "Metrics" and "Causes and their gains").
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "analysis/report.h"
#include "analysis/run_analysis.h"

namespace ompscope::analysis {

struct MeasuredRun {
  RunRecord record;
  std::optional<RunAnalysis> analysis;  // empty when nothing was observed
};

Report build_report(const std::vector<std::string>& command, int cores,
                    const std::vector<MeasuredRun>& runs);

// The repeat whose figures a region's report shows at one thread count: the one closest to the
// median time (the first of equally close ones). Its time, its per-thread split and its causes
// are one run's, so they add up (medians of each figure, taken from different repeats, left a
// third of alloc_touch_free's loss unexplained).
const RegionRun& typical_repeat(const std::vector<const RegionRun*>& repeats);

// The team's work in a region (thread time outside waits in barriers, locks, fork/join, and
// outside the locks it holds), in the typical repeat, with the kernel's accounting of it scaled
// from the stretches of work it was read over to all of it (usage.wall_s == work_s when any was
// read).
struct TeamWork {
  int threads = 0;  // the count it was measured at
  double work_s = 0;
  WorkUsage usage;
  bool usage_read = false;
  std::vector<const TaskFigures*> tasks;  // the repeats' task figures, where they ran tasks (task inflation)
};
TeamWork team_work(const std::vector<const RegionRun*>& repeats);

// The causes of one region at one thread count, from the figures of its typical repeat (and
// whether the threads' CPU-time imbalance is consistent, from all of them).
// `lost_s` is the region's time lost at that count; empty when no smaller count was measured
// to compare with (then only the region's whole time bounds the causes). `base`: the team's
// work at the smallest count measured, when that is smaller than `threads` (work inflation).
std::vector<Problem> diagnose_region(const std::vector<const RegionRun*>& repeats, int threads,
                                     double region_time_s, std::optional<double> lost_s,
                                     const TeamWork* base = nullptr);

double median(std::vector<double> values);

}  // namespace ompscope::analysis
