// Arithmetic of the direct method's synchronised start: the master names a future instant on
// its own clock, each thread waits for that instant translated to its own clock, and then all
// enter the construct together. Timestamps come back to master time for the cost metrics.
#pragma once
#include <cstdint>
#include <span>

namespace ompscope::bench {

// A thread whose clock reads `offset` ticks ahead of the master's (see clock_offset.h).
inline uint64_t master_to_local(uint64_t master_ticks, int64_t offset) {
  return master_ticks + static_cast<uint64_t>(offset);
}
inline uint64_t local_to_master(uint64_t local_ticks, int64_t offset) {
  return local_ticks - static_cast<uint64_t>(offset);
}

// The cost of one construct instance from per-thread timestamps in master time, in ticks.
// minimum: first exit - last entry (no thread can have been held up by a later one);
// average: mean exit - last entry. For the fork of `parallel` the only "entry" is the master's
// instant before the fork and the "exits" are the threads' first instants inside the region.
// Either can be negative for a construct that does not synchronise (atomic, critical): then a
// thread left before another arrived. Throws std::invalid_argument on empty spans.
struct ConstructCost {
  double minimum = 0;
  double average = 0;
};
ConstructCost construct_cost(std::span<const uint64_t> entries, std::span<const uint64_t> exits);

// How far ahead the master schedules each start. A sample in which some thread reached the
// waiting point only after the start instant is worthless (that thread entered late, not
// together with the others); it is dropped and the window doubles, up to a limit. After
// kShrinkAfter samples in a row in time it halves again, down to the initial length: one
// preemption must not leave every later sample waiting (and exposed to preemption) longer.
class StartWindow {
 public:
  StartWindow(uint64_t initial_ticks, uint64_t max_ticks);

  uint64_t start_after(uint64_t master_now) const { return master_now + length_; }
  static constexpr int kShrinkAfter = 16;

  // Returns whether the sample counts.
  bool record(bool every_thread_waited);

  uint64_t length() const { return length_; }
  int missed() const { return missed_; }

 private:
  uint64_t initial_;
  uint64_t length_;
  uint64_t max_;
  int missed_ = 0;
  int in_time_streak_ = 0;
};

}  // namespace ompscope::bench
