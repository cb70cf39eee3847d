// Runs at several thread counts (and repeats) → the ranked report: per region T(t), E(t), time
// lost and its causes with their gains, the serial code, the program's loss, the notes
// (docs/design.md, "Metrics" and "Causes and their gains").
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "analysis/report.h"
#include "analysis/run_analysis.h"

namespace ompscope::analysis {

// `weak` (scale --weak): the program is meant to scale weakly, its work growing with the team: the
// efficiency is T(t0)/T(t), the time lost T(t) − T(t0), and no work is replicated_work.
// `bench`: what `ompscope bench` measured on this machine for the runtime the runs loaded (its
// cache, docs/tasks.md): the report shows it beside the per-task figures, and a loop's schedule
// hint takes its dispatch cost per chunk.
Report build_report(const std::vector<std::string>& command, int cores,
                    const std::vector<MeasuredRun>& runs, const std::optional<BenchCosts>& bench = std::nullopt,
                    bool weak = false);

}  // namespace ompscope::analysis
