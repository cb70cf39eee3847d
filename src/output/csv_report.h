// The report as CSV: one row per region, thread count and cause (cause empty for the region's
// own row), for spreadsheets and scripts.
#pragma once
#include <string>

#include "report/report.h"

namespace ompscope::output {

std::string render_csv_report(const report::Report& report);

}  // namespace ompscope::output
