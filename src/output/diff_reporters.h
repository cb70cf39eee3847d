// The formats of `ompscope diff` (docs/diff.md), one registry as the report's (reporters.h):
// `diff -o DIR` writes each into DIR/<file>, `diff --format NAME` prints one. They render the
// typed diff (report/report_diff.h) and compute nothing.
#pragma once
#include <span>
#include <string>
#include <string_view>

#include "report/report_diff.h"

namespace ompscope::output {

struct DiffReporter {
  std::string_view name;  // --format NAME
  std::string_view file;  // in an output directory
  std::string (*render)(const report::ReportDiff& diff);
};

// diff.json first: the others are views of it.
std::span<const DiffReporter> diff_reporters();
// nullptr for a name no reporter has.
const DiffReporter* find_diff_reporter(std::string_view name);

}  // namespace ompscope::output
