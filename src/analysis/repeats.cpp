#include "analysis/repeats.h"

#include <algorithm>
#include <cmath>

#include "analysis/statistics.h"

namespace ompscope::analysis {

const RegionRun& typical_repeat(const std::vector<const RegionRun*>& repeats) {
  std::vector<double> times;
  for (const RegionRun* r : repeats) times.push_back(r->profile.time_s);
  const double time = median(times);
  return **std::min_element(repeats.begin(), repeats.end(), [time](const RegionRun* a, const RegionRun* b) {
    return std::abs(a->profile.time_s - time) < std::abs(b->profile.time_s - time);
  });
}

std::set<int> unmeasured_counts(const std::vector<MeasuredRun>& runs) {
  std::set<int> out;
  for (const MeasuredRun& run : runs)
    if (run.analysis && !run.record.threads_measured) out.insert(run.record.threads);
  return out;
}

}  // namespace ompscope::analysis
