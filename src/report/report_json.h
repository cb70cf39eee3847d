// report.json: the typed Report written as JSON and read back (docs/design.md, "The report").
// Writing and reading are inverses: a report read back renders exactly as the one written.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "report/report.h"

namespace ompscope::report {

// Raised when a field is renamed or removed, or changes meaning; adding a field keeps it.
// 1: reports written before schema_version existed; 2: typed notes, speedups, typed models.
inline constexpr int kSchemaVersion = 3;  // 3: the ranks of a merged MPI report (docs/mpi.md)

// Keys in the order written (a problem's details keep the order its detector gave them).
nlohmann::ordered_json to_json(const Report& report);

// The report a report.json document holds. Accepts every schema version up to kSchemaVersion
// (fields an older version lacks stay empty) and throws ompscope::Error, with one line saying
// what is wrong, for a newer version, another tool's file or a field of the wrong type. `source`
// names the file in that line.
Report report_from_json(const nlohmann::ordered_json& doc, const std::string& source = "report.json");
// The same from a document whose object keys are sorted (details then read in that order).
Report report_from_json(const nlohmann::json& doc, const std::string& source = "report.json");

// Reads and parses the file first: a file that is not JSON gets the same one-line error.
Report read_report(const std::string& path);

}  // namespace ompscope::report
