// Models as JSON, in the model schema of docs/design.md ("The report") plus fields that say how far to trust a
// model (cv_error, rss, points) and what it means (growth, class, split, verdicts).
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "model/model.h"

namespace ompscope::model {

nlohmann::json model_to_json(const Model& model);
nlohmann::json models_to_json(const std::vector<Model>& models);  // {"models": [...]}

std::string_view to_string(SeriesKind kind);  // "generic", "construct", "region_time"

}  // namespace ompscope::model
