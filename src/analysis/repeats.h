// The repeats of a measurement: which one a report's figures come from, and which thread counts
// measured a team at all (docs/design.md, "Thread counts").
#pragma once
#include <set>
#include <vector>

#include "analysis/run_analysis.h"

namespace ompscope::analysis {

// The repeat whose figures a region's report shows at one thread count: the one closest to the
// median time (the first of equally close ones). Its time, its per-thread split and its causes
// are one run's, so they add up (medians of each figure, taken from different repeats, left a
// third of alloc_touch_free's loss unexplained).
const RegionRun& typical_repeat(const std::vector<const RegionRun*>& repeats);

// The counts whose runs ran no parallel region, so that the team is unknown there (no speedup or
// efficiency is taken from them).
std::set<int> unmeasured_counts(const std::vector<MeasuredRun>& runs);

}  // namespace ompscope::analysis
