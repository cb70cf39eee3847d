#include "bench/core/window_sync.h"

#include <algorithm>
#include <stdexcept>

namespace ompscope::bench {

ConstructCost construct_cost(std::span<const uint64_t> entries, std::span<const uint64_t> exits) {
  if (entries.empty() || exits.empty()) throw std::invalid_argument("construct_cost: no timestamps");
  const uint64_t last_entry = *std::max_element(entries.begin(), entries.end());
  const uint64_t first_exit = *std::min_element(exits.begin(), exits.end());
  // Differences first, then sum: absolute tick values are too large for exact double sums.
  double exit_sum = 0;
  for (uint64_t e : exits) exit_sum += static_cast<double>(static_cast<int64_t>(e - last_entry));
  return {static_cast<double>(static_cast<int64_t>(first_exit - last_entry)),
          exit_sum / static_cast<double>(exits.size())};
}

StartWindow::StartWindow(uint64_t initial_ticks, uint64_t max_ticks)
    : initial_(std::max<uint64_t>(initial_ticks, 1)), length_(initial_), max_(std::max(initial_, max_ticks)) {}

bool StartWindow::record(bool every_thread_waited) {
  if (every_thread_waited) {
    if (++in_time_streak_ >= kShrinkAfter) {
      in_time_streak_ = 0;
      length_ = std::max(initial_, length_ / 2);
    }
    return true;
  }
  ++missed_;
  in_time_streak_ = 0;
  length_ = std::min(length_ * 2, max_);
  return false;
}

}  // namespace ompscope::bench
