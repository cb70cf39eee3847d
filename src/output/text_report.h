// The terminal rendering of a report: short, ranked, readable. Colour only when asked (the CLI
// asks on a terminal without NO_COLOR).
#pragma once
#include <cstddef>
#include <string>

#include "report/report.h"

namespace ompscope::output {

struct TextOptions {
  bool colour = false;
  std::size_t max_regions = 10;
  std::size_t max_note_items = 5;  // a note about many regions names this many, then says how many more
};

std::string render_text_report(const report::Report& report, const TextOptions& options = {});

}  // namespace ompscope::output
