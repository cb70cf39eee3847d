// DIR/report.html of `ompscope scale` and `profile`: one self-contained offline page (inline CSS
// and SVG, no script, font or image fetched from anywhere) rendered from the report.json document
// (docs/design.md). Fields other than tool, threads and regions may be missing; what is there is shown.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

namespace ompscope::output {

std::string render_html_report(const nlohmann::json& report);

}  // namespace ompscope::output
