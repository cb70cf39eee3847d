// Reads the report.json that `ompscope scale` writes (docs/design.md, "The report") into series:
//  - "program", metric "time_s": the program's wall time per run (repetitions from "runs"),
//    or its "program.time_s" where there are no runs; kind region_time;
//  - each region, named "r3 solve (src/solver.c:42)", metric "time_s"; kind region_time;
//  - each cause of loss of a region, metric = the problem kind ("load_imbalance", ...), the
//    sum of that kind's time_s at each thread count where it was diagnosed; kind generic.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/series.h"

namespace ompscope::model {

bool looks_like_scale_report(const nlohmann::json& document);  // "tool": "ompscope" + regions

std::vector<Series> read_scale_report(const nlohmann::json& document, const std::string& source_name);

}  // namespace ompscope::model
