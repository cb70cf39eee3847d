// Reads Extra-P's JSON inputs, single parameter (the thread count) only:
//  - the experiment written by Extra-P 4 (experiment.json inside a .extra-p file, recognised by
//    its "Extra-P" version key): measurements[callpath][metric] = [{coordinate, median, mean,
//    ...}]; one value per point, the median (the mean where there is no median);
//  - the input format: {"parameters": [...], "measurements": {callpath: {metric:
//    [{"point": [...], "values": [...]}]}}}; values are repetitions;
//  - the older id-based input format (callpaths, coordinates, metrics, parameters and
//    measurements arrays linked by ids); measurements that share callpath, metric and
//    coordinate are repetitions.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/series.h"

namespace ompscope::model {

// Is this JSON one of the three Extra-P shapes above?
bool looks_like_extrap_json(const nlohmann::json& document);

std::vector<Series> read_extrap_json(const nlohmann::json& document, const std::string& source_name);

}  // namespace ompscope::model
