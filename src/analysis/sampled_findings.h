// What the CPU-time samples add to a region's report (docs/sampling.md, "Sampled lines"): its
// lines at each count, the lines that grew from the smallest count, its stacks, the line each
// cause that says the work got slower names, and the evidence that rules replicated work out.
// The samples themselves are placed by analysis/sampled_code.h.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analysis/sampled_code.h"
#include "report/report.h"

namespace ompscope::analysis {

// Lines kept per region and count, and stacks kept for the flame graph (the largest count's).
inline constexpr size_t kSampledLinesShown = 5;
inline constexpr size_t kStacksKept = 200;

// A line's CPU time per line (file, line), means over the repeats: what team_work keeps.
using LineTimes = std::map<std::pair<std::string, int>, double>;

// The line that rules replicated work out, "file:line", or empty where the samples do not
// contradict it (or there are none): work each thread repeats repeats every line of it.
std::string unrepeated_line(const LineTimes& now, const LineTimes& base, double expected_growth);

// The region's grown lines and stacks, and the grown line in the hints of work_inflation,
// replicated_work and task_inflation; `samples_at`: each sampled count's repeats.
void name_grown_lines(report::RegionReport& region, const std::map<int, std::vector<const RunSamples*>>& samples_at);
// The line serial code spends its CPU time at, in serial_code's hint.
void name_serial_lines(report::RegionReport& serial);

}  // namespace ompscope::analysis
