// The report's sampled call stacks in the folded format FlameGraph's flamegraph.pl, speedscope
// and inferno read: one line per stack, frames outermost first joined by ';', then a space and a
// count. The first frame is the region ("r1 stencil.c:40", or "serial"); the count is the stack's
// CPU time in microseconds (the mean over the repeats at the largest count sampled).
#pragma once
#include <string>

#include "report/report.h"

namespace ompscope::output {

std::string render_collapsed_stacks(const report::Report& report);

}  // namespace ompscope::output
