#include "bench/core/clock_offset.h"

#include <stdexcept>

namespace ompscope::bench {

OffsetEstimate estimate_offset(std::span<const PingSample> samples) {
  if (samples.empty()) throw std::invalid_argument("estimate_offset: no ping samples");
  const PingSample* best = nullptr;
  for (const PingSample& s : samples) {
    if (s.master_received < s.master_sent)
      throw std::invalid_argument("estimate_offset: a round trip ends before it starts");
    if (best == nullptr ||
        s.master_received - s.master_sent < best->master_received - best->master_sent)
      best = &s;
  }
  const uint64_t round_trip = best->master_received - best->master_sent;
  // The worker read its clock somewhere inside the round trip; its middle is the best guess.
  const uint64_t master_midpoint = best->master_sent + round_trip / 2;
  return {static_cast<int64_t>(best->worker_read - master_midpoint),
          static_cast<int64_t>((round_trip + 1) / 2)};
}

}  // namespace ompscope::bench
