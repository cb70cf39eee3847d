// Writing a report's files (report.json, report.txt, report.csv, report.html), reading
// report.json back, and showing the text summary on stderr (stdout stays the observed
// program's, like time(1)).
#pragma once
#include <cstdio>
#include <filesystem>

#include "report/report.h"

namespace ompscope::cli {

// Every file is rendered from `report` alone: `ompscope report DIR` renders the same files
// from the report.json written here.
void write_report_files(const std::filesystem::path& dir, const report::Report& report);
report::Report read_report_file(const std::filesystem::path& dir);
void show_text_report(const report::Report& report, std::FILE* stream);
bool colour_wanted(std::FILE* stream);

}  // namespace ompscope::cli
