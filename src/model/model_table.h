// Models as a terminal table: one row per model, then what the columns mean.
#pragma once
#include <string>
#include <vector>

#include "model/model.h"

namespace ompscope::model {

// The verdict column: "scalability problem", "stops paying off past 30 threads
// (extrapolated)", "keeps paying off", or "".
std::string verdict(const Model& model);

std::string models_to_table(const std::vector<Model>& models);

}  // namespace ompscope::model
