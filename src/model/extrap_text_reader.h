// Reads Extra-P's text input format, single parameter (the thread count) only:
//   PARAMETER t                       one parameter name
//   POINTS 1 2 4 8   or  ( 1 ) ( 2 )  thread counts, possibly over several POINTS lines
//   METRIC time                       applies to the following DATA until the next METRIC
//   REGION solve->loop                starts a block of DATA lines
//   DATA 1.02 1.01 1.05               one line per point in POINTS order; repetitions on it
// Blank lines and lines starting with '#' are ignored. The metric is "time" until a METRIC
// line names one. Errors name the source and the line: "input.txt:12: ...".
#pragma once
#include <istream>
#include <string>
#include <vector>

#include "model/series.h"

namespace ompscope::model {

std::vector<Series> read_extrap_text(std::istream& in, const std::string& source_name);

}  // namespace ompscope::model
