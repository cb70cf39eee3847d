// The series `ompscope model` fits from an `ompscope scale` report (docs/design.md, "The report"),
// taken from the typed Report that report.json is read into (report/report_json.h), so that this
// reader and every renderer agree on what the file holds:
//  - "program", metric "time_s": the program's wall time per run (repetitions from `runs`),
//    or its time per thread count where there are no runs; kind region_time;
//  - each region, named "r3 solve (src/solver.c:42)", metric "time_s"; kind region_time;
//  - each cause of loss of a region, metric = the cause's kind ("load_imbalance", ...), the
//    sum of that kind's time_s at each thread count where it was diagnosed; kind generic.
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "model/series.h"
#include "report/report.h"

namespace ompscope::model {

bool looks_like_scale_report(const nlohmann::json& document);  // "tool": "ompscope" + regions

std::vector<Series> series_of_report(const report::Report& report);

}  // namespace ompscope::model
