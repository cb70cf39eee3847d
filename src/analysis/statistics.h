// The statistics the analysis takes over samples and repeats: one median for all of them.
#pragma once
#include <vector>

namespace ompscope::analysis {

// The median of `values` (the mean of the two middle ones for an even count); 0 for none.
double median(std::vector<double> values);

}  // namespace ompscope::analysis
