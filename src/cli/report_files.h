// Writing a report's files (report.json, report.txt, report.csv, report.html), reading
// report.json back, and showing the text summary on stderr (stdout stays the observed
// program's, like time(1)).
#pragma once
#include <cstdio>
#include <filesystem>
#include <optional>
#include <vector>

#include "report/report.h"

namespace ompscope::cli {

// Every file is rendered from `report` alone: `ompscope report DIR` renders the same files
// from the report.json written here.
void write_report_files(const std::filesystem::path& dir, const report::Report& report);
report::Report read_report_file(const std::filesystem::path& dir);
void show_text_report(const report::Report& report, std::FILE* stream);

// Merges the reports in DIR/rank-R/ into DIR's own report files (docs/mpi.md, "Merged report")
// when there are `expected` of them (0: however many there are), one merge at a time (a lock
// file in DIR). The merged report, or nothing when some rank's report is missing.
std::optional<report::Report> merge_rank_reports_in(const std::filesystem::path& dir, int expected);
// The reports of a job's ranks that this ompscope measured itself (`profile -- mpirun`, `scale
// --launcher`): each written to DIR/rank-R (its runs' logs relative to it), and merged in memory
// into DIR's own report files. `ranks`: each rank's report, its runs' logs relative to DIR.
report::Report write_job_reports(const std::filesystem::path& dir, const std::vector<report::Report>& ranks);
// Whether DIR holds rank-R directories with a report.json.
bool has_rank_reports(const std::filesystem::path& dir);
bool colour_wanted(std::FILE* stream);

}  // namespace ompscope::cli
