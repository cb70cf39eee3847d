// Runs at several thread counts (and repeats) → the ranked report: per region T(t), E(t),
// time lost, and causes with predicted gains (docs/design.md, "Metrics" and "Causes and their gains").
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "analysis/report.h"
#include "analysis/run_analysis.h"

namespace ompscope::analysis {

struct MeasuredRun {
  RunRecord record;
  std::optional<RunAnalysis> analysis;  // empty when nothing was observed
};

Report build_report(const std::vector<std::string>& command, int cores,
                    const std::vector<MeasuredRun>& runs);

// The causes of one region at one thread count, from the median figures of its runs.
// `lost_s` is the region's time lost at that count; empty when no smaller count was measured
// to compare with (then only the region's whole time bounds the causes).
std::vector<Problem> diagnose_region(const std::vector<const RegionRun*>& repeats, int threads,
                                     double region_time_s, std::optional<double> lost_s);

double median(std::vector<double> values);

}  // namespace ompscope::analysis
