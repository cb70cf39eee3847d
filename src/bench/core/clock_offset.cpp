#include "bench/core/clock_offset.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace ompscope::bench {

OffsetEstimate estimate_offset(std::span<const PingSample> samples) {
  if (samples.empty()) throw std::invalid_argument("estimate_offset: no ping samples");
  int64_t lowest = std::numeric_limits<int64_t>::min();
  int64_t highest = std::numeric_limits<int64_t>::max();
  for (const PingSample& s : samples) {
    if (s.master_received < s.master_sent)
      throw std::invalid_argument("estimate_offset: a round trip ends before it starts");
    // Unsigned differences read as signed: the clocks may be far apart, never 2^63 ticks.
    lowest = std::max(lowest, static_cast<int64_t>(s.worker_read - s.master_received));
    highest = std::min(highest, static_cast<int64_t>(s.worker_read - s.master_sent));
  }
  const int64_t low = std::min(lowest, highest), high = std::max(lowest, highest);
  // Halves rounded outwards, so the stated interval always covers [low, high].
  const int64_t middle = low + (high - low) / 2;
  return {middle, high - middle, lowest <= highest};
}

}  // namespace ompscope::bench
