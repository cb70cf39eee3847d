// One report for the ranks of an MPI job (docs/mpi.md, "Merged report"): each rank's report,
// built as for any process, merged into one whose figures are the slowest rank's (the one the
// job waits for), with every rank's time, causes and program split side by side and the rank
// imbalance of each region and of the program.
#pragma once
#include <vector>

#include "report/report.h"

namespace ompscope::analysis {

// `ranks`: one report per rank, each with its rank in runs[0].rank (a report without one takes
// its place in the list). Throws ompscope::Error when given none.
report::Report merge_rank_reports(const std::vector<report::Report>& ranks);

// The processes of one program that ran OpenMP code (docs/safety.md, "Processes and signals"), merged as ranks
// are: `processes[0]` is the program's own process, whose figures the report keeps; each is
// listed by its place (0, 1, ...), pid (`pids`) and command (its report's command), with its
// split and its time in each region. Throws ompscope::Error when given none.
report::Report merge_process_reports(const std::vector<report::Report>& processes, const std::vector<int>& pids);

}  // namespace ompscope::analysis
