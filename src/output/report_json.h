// report.json (docs/design.md, "The report"): the typed Report rendered as JSON. Every other format
// (text, CSV, HTML) renders from this document, so `ompscope report DIR` re-renders them all.
#pragma once
#include <nlohmann/json.hpp>

#include "analysis/report.h"

namespace ompscope::output {

nlohmann::json report_to_json(const analysis::Report& report);

}  // namespace ompscope::output
