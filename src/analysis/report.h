// The analysis builds the typed report of src/report (report/report.h); its types are used here
// under the analysis namespace too.
#pragma once
#include "report/report.h"

namespace ompscope::analysis {

using report::BenchCosts;
using report::Note;
using report::Problem;
using report::RegionReport;
using report::Report;
using report::RunRecord;
using report::ScalingModel;
using report::TaskSummary;

}  // namespace ompscope::analysis
