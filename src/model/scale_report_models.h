// Per-region models for `ompscope scale`: how each region's time and each cause of loss grow
// with threads, and where a region stops paying off. With fewer than four thread counts a
// two-coefficient model is barely tested, so such series are skipped.
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "model/series_modeler.h"

namespace ompscope::model {

inline constexpr std::size_t kScaleMinimumThreadCounts = 4;

// `report` is a report.json document (docs/design.md, "The report"); serialise the result with models_to_json
// (model_json.h). Throws ompscope::Error when the report does not follow the schema.
ModelledSeries model_scale_report(const nlohmann::json& report, const ModelOptions& options = {});

}  // namespace ompscope::model
