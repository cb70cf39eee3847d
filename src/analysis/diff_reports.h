// ompscope diff A B (docs/diff.md): two reports (before and after a change, two machines, two
// runtimes, two compilers) compared region by region at one thread count.
#pragma once
#include <optional>
#include <string>

#include "report/report.h"
#include "report/report_diff.h"

namespace ompscope::analysis {

// A region whose line moved by at most this many lines, in the same file and function and of the
// same kind, is the same region (an edit above it, a variant of its directive).
inline constexpr int kMaxLineShift = 30;

// Compares `a` and `b` at `threads` (default: the largest count both measured). Throws
// ompscope::Error where they have no count in common, or `threads` is not one of them.
report::ReportDiff diff_reports(const report::Report& a, const std::string& a_name, const report::Report& b,
                                const std::string& b_name, std::optional<int> threads = std::nullopt);

}  // namespace ompscope::analysis
