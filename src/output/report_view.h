// How parts of a typed report read in every format: one place, so text, CSV and HTML agree.
// Wording only; every number comes from the report as it is.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "report/report.h"

namespace ompscope::output {

// "src/solver.c:42", "src/solver.c", or "" when the region has no source location.
std::string region_location(const report::RegionReport& region);

// A construct's place under its region: "solver.c:57" (the region names the file's path), "the
// region's end" for its join barrier, else its function or "".
std::string construct_location(const report::ConstructReport& construct);

// "x.c:26 (f) (97%)": the sampled line that holds most of a construct's CPU time at `threads`,
// with its share, where it is not the construct's own line; empty where there is none (both the
// text and the HTML construct trees show it).
std::string hottest_other_line(const report::ConstructReport& construct, int threads);

// A function's name without its parameter list, for tables and legends:
// "ns::solve(double*, int) const" -> "ns::solve", "operator()(int)" -> "operator()". Names that
// are not signatures ("step", "(outside parallel regions)") stay as they are.
std::string short_function(std::string_view signature);

// The region's short function name, else its location, else its id.
std::string region_short_name(const report::RegionReport& region);

// "ok", "exit code 3", "killed by signal 11", or the run's status text.
std::string run_outcome(const report::RunRecord& run);

// A note as one sentence: its text, then what it is about. At most `max_items` items are named,
// then how many more there are (0: all).
std::string note_sentence(const report::Note& note, std::size_t max_items = 0);

// A finding's place in one phrase: "at imbalanced_loop.c:24 in main" (the file without its
// directories; the function without its parameters), "(outside parallel regions)" for serial code.
std::string finding_place(const report::Finding& finding);

// How sure a finding is, in words, from its certainty, repeats and spread:
// "firm: gain over 3× the spread of 3 repeats (1.20 ms)", "one run: no spread to compare with (ompscope scale -r 3 ...)".
std::string certainty_text(const report::Finding& finding);

// The heading of the findings list: "findings at 2 threads, by the wall time each would save".
std::string findings_heading(const report::Report& report);
// What a report with no finding says instead of the list.
std::string no_findings_text(const report::Report& report);

// "wall time" or "thread time": what a cause's time_s (the Y of "gain X of Y") measures.
std::string_view cost_unit(const report::Cause& cause);

// The sentence that explains "gain X of Y" (shown once per report, in every format).
std::string gain_legend();

// The sentence that explains what regions are ranked by (RegionReport::rank_loss).
std::string rank_legend();

// An excerpt's lines as "  23 | text", the named line marked "> " (text and HTML alike); one
// line "source not found: ..." where it has none.
std::vector<std::string> excerpt_lines(const report::SourceExcerpt& excerpt);

// The line an excerpt is about, without its indentation ("" where it has none).
std::string named_line(const report::SourceExcerpt& excerpt);

}  // namespace ompscope::output
