// Writing DIR/report.json and DIR/report.html, reading report.json back, and showing the
// text summary on stderr (stdout stays the observed program's, like time(1)).
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>

#include "analysis/report.h"

namespace ompscope::cli {

void write_report_files(const std::filesystem::path& dir, const nlohmann::json& report);
nlohmann::json read_report_file(const std::filesystem::path& dir);
void show_text_report(const nlohmann::json& report, std::FILE* stream);
bool colour_wanted(std::FILE* stream);

}  // namespace ompscope::cli
