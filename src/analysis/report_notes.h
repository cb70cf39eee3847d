// The notes a report carries about how it was measured (docs/design.md, "Notes"): the team sizes
// that ran, the bench cache entry used, regions run a different number of times, what adaptive
// sampling left out, a busy machine, the lock calibrations, the hardware counters, regions faster
// than perfect scaling. Worded once here, for every command.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "analysis/report.h"
#include "analysis/run_analysis.h"

namespace ompscope::analysis {

// Where the team that ran differs from the count asked for, and the counts that ran no region.
std::vector<Note> thread_count_notes(const std::vector<MeasuredRun>& runs);

// The bench cache entry whose runtime costs the report uses (a hint's chunk that changed between
// two reports says whether the cache did).
Note bench_cache_note(const BenchCosts& bench);

// Regions run a different number of times at different counts (compared per instance).
std::optional<Note> instances_differ_note(const Report& report);

// The notes on the runs themselves, once the regions are in `report`: the lock calibrations
// where they disagree, a busy machine, what sampling left out, dropped events, the regions faster
// than perfect scaling (`negative`: one line each, the program's first) and the hardware counters.
std::vector<Note> run_notes(const Report& report, const std::vector<MeasuredRun>& runs,
                            std::vector<std::string> negative);

// "r3 (file.c:42)": a region as the notes name it.
std::string region_place(const RegionReport& r);

}  // namespace ompscope::analysis
