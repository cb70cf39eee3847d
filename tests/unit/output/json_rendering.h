// Tests that describe a report as report.json render it the way `ompscope report` does: read
// back into the typed report, then rendered.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "output/csv_report.h"
#include "output/html_report.h"
#include "output/text_report.h"
#include "report/report_json.h"

namespace ompscope::output {

inline std::string render_html_report(const nlohmann::json& doc) {
  return render_html_report(report::report_from_json(doc, "test report"));
}
inline std::string render_text_report(const nlohmann::json& doc, const TextOptions& options = {}) {
  return render_text_report(report::report_from_json(doc, "test report"), options);
}
inline std::string render_csv_report(const nlohmann::json& doc) {
  return render_csv_report(report::report_from_json(doc, "test report"));
}

}  // namespace ompscope::output
