// The per-region models of `ompscope scale` (analysis/scaling_models.h) and `ompscope model`: how
// each region's time and each cause of loss grow with threads, and where a region stops paying
// off. With fewer than four thread counts a two-coefficient model is barely tested, so such
// series are skipped.
#pragma once
#include <vector>

#include "model/series_modeler.h"

namespace ompscope::model {

inline constexpr std::size_t kScaleMinimumThreadCounts = 4;

}  // namespace ompscope::model
