// How parts of a typed report read in every format: one place, so text, CSV and HTML agree.
// Wording only; every number comes from the report as it is.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include "report/report.h"

namespace ompscope::output {

// "src/solver.c:42", "src/solver.c", or "" when the region has no source location.
std::string region_location(const report::RegionReport& region);

// A construct's place under its region: "solver.c:57" (the region names the file's path), "the
// region's end" for its join barrier, else its function or "".
std::string construct_location(const report::ConstructReport& construct);

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

}  // namespace ompscope::output
