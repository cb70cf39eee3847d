// DIR/report.html of `ompscope scale` and `profile`: one self-contained offline page (inline CSS
// and SVG, no script, font or image fetched from anywhere) rendered from the typed report.
#pragma once
#include "report/report.h"

#include <string>

namespace ompscope::output {

std::string render_html_report(const report::Report& report);

}  // namespace ompscope::output
