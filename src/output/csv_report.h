// report.json as CSV: one row per region, thread count and cause (cause empty for the
// region's own row), for spreadsheets and scripts.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace ompscope::output {

std::string render_csv_report(const nlohmann::json& report);

}  // namespace ompscope::output
