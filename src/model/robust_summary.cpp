#include "model/robust_summary.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/error.h"

namespace ompscope::model {

double summarize(std::span<const double> repetitions, Summary summary) {
  if (repetitions.empty()) throw Error("no repetitions to summarise");
  std::vector<double> sorted(repetitions.begin(), repetitions.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  switch (summary) {
    case Summary::minimum:
      return sorted.front();
    case Summary::median:
      return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    case Summary::mean:
      break;
    case Summary::trimmed_mean: {
      // floor(n/4) from each end: 5 repetitions keep the middle 3, 4 keep the middle 2, and
      // fewer than 4 keep all of them.
      const std::size_t dropped = n / 4;
      double sum = 0;
      for (std::size_t k = dropped; k < n - dropped; ++k) sum += sorted[k];
      return sum / static_cast<double>(n - 2 * dropped);
    }
  }
  double sum = 0;
  for (double v : sorted) sum += v;
  return sum / static_cast<double>(n);
}

std::string_view to_string(Summary summary) {
  switch (summary) {
    case Summary::trimmed_mean: return "trimmed_mean";
    case Summary::median: return "median";
    case Summary::mean: return "mean";
    case Summary::minimum: return "minimum";
  }
  return "?";
}

}  // namespace ompscope::model
