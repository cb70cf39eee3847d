// Per-region models for `ompscope scale`: how each region's time and each cause of loss grow
// with threads, and where a region stops paying off. With fewer than four thread counts a
// two-coefficient model is barely tested, so such series are skipped.
#pragma once
#include <vector>

#include "model/series_modeler.h"
#include "report/report.h"

namespace ompscope::model {

inline constexpr std::size_t kScaleMinimumThreadCounts = 4;

// Serialise the result with models_to_json (model_json.h).
ModelledSeries model_scale_report(const report::Report& report, const ModelOptions& options = {});

}  // namespace ompscope::model
