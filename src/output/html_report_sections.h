// The HTML report's sections, each rendered from the typed report into one <section> (or "" when the
// report has nothing for it). Everything that came from the observed program is escaped.
#pragma once
#include "report/report.h"

#include <string>

namespace ompscope::output {

// Command, thread counts (oversubscribed ones labelled), cores, and how many runs failed.
std::string header_section(const report::Report& report);

// The report's opening list (Report::findings): per finding its cause, place, gain, share of the
// run, first action and certainty, with the source lines it names; what "gain" means.
std::string findings_section(const report::Report& report);

// One row per run, failed runs highlighted with what ended them.
std::string runs_section(const report::Report& report);

std::string notes_section(const report::Report& report);

// Time, efficiency and serial time per thread count; the Amdahl bound when known.
std::string program_section(const report::Report& report);
// A merged MPI report (docs/mpi.md): each rank's program split, and each region's time per rank,
// rank imbalance and each rank's top cause. Empty for a report of one process.
std::string ranks_section(const report::Report& report);

// The ranked regions: location, function, instances, then time / efficiency / time lost per count.
std::string regions_section(const report::Report& report);

// Per region: its hint table (cause, threads, time, gain, hint, details), its task graph (work, span,
// parallelism and the speedup bound beside the measured speedup) where it has tasks, and per-thread bars.
std::string diagnosis_section(const report::Report& report);

}  // namespace ompscope::output
