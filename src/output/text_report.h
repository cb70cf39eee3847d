// The terminal rendering of report.json: short, ranked, readable. Colour only when asked
// (the CLI asks on a terminal without NO_COLOR).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace ompscope::output {

struct TextOptions {
  bool colour = false;
  size_t max_regions = 10;
};

std::string render_text_report(const nlohmann::json& report, const TextOptions& options = {});

}  // namespace ompscope::output
