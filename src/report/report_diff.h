// The typed result of `ompscope diff A B` (docs/diff.md): two reports' regions matched by source
// location and compared at one thread count, side by side. Built by analysis/diff_reports.cpp,
// rendered by output/diff_reporters.cpp, which compute nothing.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/report.h"

namespace ompscope::report {

// One report's side of a region (or of the whole program) at the compared count.
struct DiffSide {
  std::string id;  // the region's id in its report ("r3", "serial"); "" for the program
  std::string file;
  int line = 0;
  uint64_t instances = 0;
  double time_s = 0;
  // max − min of the repeats' times at that count; absent where one run was measured.
  std::optional<double> spread_s;
  std::vector<double> repeat_times_s;  // each repeat's time (empty: one run, or a report without them)
  std::vector<Problem> problems;  // its causes at that count, as its report gave them
};

// A cause of a region on either side: its gain in A and in B (absent: not found on that side).
struct CauseChange {
  CauseKind kind;
  std::optional<double> a_gain_s, b_gain_s;
};

// How the two sides of a region were matched.
enum class DiffMatch {
  SameLine,   // same kind, file and line
  Moved,      // same kind, file and function, the nearest line within kMaxLineShift
  OnlyInA,    // no region of B matches: it did not run in B (removed, or merged into another)
  OnlyInB,
};
const char* diff_match_name(DiffMatch m);

// A construct inside a region matched on both sides (its kind and line, under the same parents),
// or a sampled line (docs/sampling.md): its time on each side, absent where that side has none
// (a construct that did not run; a line not among that side's top lines).
struct PartChange {
  std::string kind;      // the construct's kind; "line" for a sampled line
  std::string file;
  int line = 0;
  std::string function;  // sampled lines: the function the line is in
  std::optional<double> a_s, b_s;  // constructs: time (as the report's tree); lines: CPU time
  double change_s = 0;   // b − a, an absent side counting 0
};

struct RegionDiff {
  std::string kind;      // "parallel", "serial"
  std::string function;  // as B's report gives it (A's where only A ran it)
  DiffMatch match = DiffMatch::SameLine;
  std::optional<DiffSide> a, b;
  double change_s = 0;   // B's time − A's (a side that did not run the region counts 0)
  // Both sides' spreads added: where the change is larger, the two ranges of repeats cannot
  // overlap; absent where a side that ran the region has no spread (one repeat).
  std::optional<double> spread_s;
  // The Mann-Whitney U test's two-sided p-value of the two sides' repeat times, where both ran the
  // region enough times for it to reach p < 0.05 (4 and 4 repeats); absent: the ranges' rule.
  std::optional<double> p_value;
  // p_value < 0.05 (analysis::kSignificanceLevel); without a p-value, |change_s| > spread_s (the ranges cannot overlap).
  bool significant = false;
  std::vector<CauseChange> causes;
  // Where inside it the time changed, for a region both sides ran: its constructs, and its
  // sampled lines, largest change first (kDiffPartsShown of each). Neither has a spread of
  // repeats: the region's significance stands for them.
  std::vector<PartChange> constructs;
  std::vector<PartChange> lines;
};
inline constexpr size_t kDiffPartsShown = 8;

struct DiffInput {
  std::string name;                  // the directory (or file) as given
  std::vector<std::string> command;
  std::string runtime;
  std::vector<int> threads;          // the counts it measured
};

struct ReportDiff {
  DiffInput a, b;
  int threads = 0;                   // the count compared
  RegionDiff program;                // the whole run: kind "program"
  std::vector<RegionDiff> regions;   // by the size of their change, largest first
  std::vector<std::string> notes;
};

// diff.json (schema 1): `regions[]` with file, line, a, b, change_s, significant.
nlohmann::ordered_json to_json(const ReportDiff& diff);

}  // namespace ompscope::report
