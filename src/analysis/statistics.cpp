#include "analysis/statistics.h"

#include <algorithm>
#include <cstddef>

namespace ompscope::analysis {

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  // nth_element, not a sort: a run's dispatch gaps are one sample per task (millions).
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2) return upper;
  return 0.5 * (*std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid)) + upper);
}

}  // namespace ompscope::analysis
