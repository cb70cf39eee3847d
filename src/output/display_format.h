// How numbers and labels read in a report: one place, so every table and chart agrees.
#pragma once
#include <string>
#include <string_view>

#include "report/causes.h"
#include "report/report.h"

namespace ompscope::output {

// "1.23 s", "12.5 ms", "950 ms", "3.40 µs", "850 ns": three significant digits are plenty for a reader.
std::string format_seconds(double seconds);

// What "significant" means in diff and verify (analysis::judge_change), for their heads.
inline constexpr const char* kSignificanceRule =
    "significant where a Mann-Whitney U test of the two sets of repeat times gives p < 0.05 (4 repeats a side or "
    "more), else where the change is larger than both ranges of repeats together";

// A change: "+12.5 ms", "-950 ms" (format_seconds with its sign).
std::string format_signed_seconds(double seconds);

// 0.734 -> "73%".
std::string format_percent(double fraction);

// 3.2 -> "3.20×".
std::string format_speedup(double speedup);

// The unit a chart axis shows seconds in, picked so the axis labels are short numbers.
struct TimeUnit {
  std::string_view name;  // "s", "ms", "µs", "ns"
  double per_second;      // multiply seconds by this to get the unit
};
TimeUnit time_unit_for(double largest_seconds);

// A sampled line where a reader finds it: "stencil.c:42 (relax)", or "(OpenMP runtime) libomp.so.5"
// where no frame of the sample had a line of the program's.
std::string sampled_line_place(const report::SampledLine& line);

// Shortens text to at most max_chars characters (UTF-8 aware, never splits a character),
// ending with "…" when it was cut. Legends and axis labels have fixed room.
std::string truncate_label(std::string_view text, std::size_t max_chars);

}  // namespace ompscope::output
