#include "bench/core/clock_offset.h"

#include <algorithm>
#include <stdexcept>

namespace ompscope::bench {

void OffsetBounds::add(const PingSample& s) {
  if (s.master_received < s.master_sent)
    throw std::invalid_argument("estimate_offset: a round trip ends before it starts");
  // Unsigned differences read as signed: the clocks may be far apart, never 2^63 ticks.
  lowest_ = std::max(lowest_, static_cast<int64_t>(s.worker_read - s.master_received));
  highest_ = std::min(highest_, static_cast<int64_t>(s.worker_read - s.master_sent));
  empty_ = false;
}

OffsetEstimate OffsetBounds::estimate() const {
  if (empty_) throw std::invalid_argument("estimate_offset: no ping samples");
  const int64_t low = std::min(lowest_, highest_), high = std::max(lowest_, highest_);
  // Halves rounded outwards, so the stated interval always covers [low, high].
  const int64_t middle = low + (high - low) / 2;
  return {middle, high - middle, lowest_ <= highest_};
}

OffsetEstimate estimate_offset(std::span<const PingSample> samples) {
  OffsetBounds bounds;
  for (const PingSample& s : samples) bounds.add(s);
  return bounds.estimate();
}

}  // namespace ompscope::bench
