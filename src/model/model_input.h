// The inputs of `ompscope model`: recognises the format from the content and reads it.
//   Extra-P text (extrap_text_reader.h), Extra-P JSON (extrap_json_reader.h),
//   ompscope bench output (bench_json_reader.h), ompscope scale report.json or its directory
//   (scale_report_reader.h).
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "model/series.h"

namespace ompscope::model {

struct ModelInput {
  std::string format;  // "extrap-text", "extrap-json", "ompscope-bench", "ompscope-report"
  std::vector<Series> series;
};

// `source_name` only labels error messages ("input.txt:12: ...").
ModelInput parse_model_input(std::string_view content, const std::string& source_name);

// A file, or a scale output directory (its report.json). Throws ompscope::Error naming the
// path when it cannot be read or is not any of the formats.
ModelInput read_model_input(const std::filesystem::path& path);

}  // namespace ompscope::model
