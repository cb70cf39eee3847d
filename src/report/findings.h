// The report's opening list (Report::findings): the causes worth acting on first, over all
// regions, each placed at the line that carries it, with the first thing to try and how sure the
// gain is. Derived from the report's own figures, so the analysis builds it once and the reader
// rebuilds it for a report.json written before the list existed; renderers only show it.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "report/report.h"

namespace ompscope::report {

inline constexpr std::size_t kMaxFindings = 5;

// The count findings are ranked at: the largest with a core per thread (summary_threads' first);
// 0 when the report measured none.
int ranked_count(const Report& report);

// At most kMaxFindings causes at ranked_count, by gain, each worth at least 1% of the run's time
// there (the floor the text report's cause lists use), for any cause in the table of causes.
// Source excerpts are not read here (I/O: analysis/source_excerpt.h).
std::vector<Finding> build_findings(const Report& report);

// A hint's first action, without its explanations: the text after the hint's first ": " outside
// parentheses (the whole hint when there is none), up to the first "; " or ". " outside
// parentheses, with parenthesised remarks that follow a space left out. "iterations differ in
// cost (CPU time differs): try schedule(dynamic, 1) (400 iterations ...) on it; or ..." →
// "try schedule(dynamic, 1) on it".
std::string first_action(std::string_view hint);

// Finding::certainty from a gain, the spread of its region's time and the number of repeats.
std::string certainty_of(double gain_s, double spread_s, int repeats);

}  // namespace ompscope::report
