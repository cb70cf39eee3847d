// Timestamps of the bench programs: the project's clock (common/clock.h), the TSC read with
// __rdtsc where it is invariant (about 12 ns a read on the development VM, against 27 ns for
// clock_gettime through the vDSO), else CLOCK_MONOTONIC in ns. Ticks become seconds through one
// calibration against CLOCK_MONOTONIC at start-up. Per-thread disagreement between clocks is
// the direct method's business (clock_offset.h), not this class's.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>

#include "common/clock.h"

namespace ompscope::bench {

class TickClock {
 public:
  // Measures the tick rate over `calibration_s` of CLOCK_MONOTONIC (spinning, not sleeping).
  static TickClock calibrate(double calibration_s);

  uint64_t now() const {
    // Keeps the compiler from moving the measured code across the read.
    std::atomic_signal_fence(std::memory_order_seq_cst);
    const uint64_t t = read_ticks(source_);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    return t;
  }

  double seconds(double ticks) const { return ticks / ticks_per_second_; }
  uint64_t ticks(double seconds) const { return static_cast<uint64_t>(seconds * ticks_per_second_); }
  std::string description() const;

 private:
  TickClock(ClockSource source, double ticks_per_second) : source_(source), ticks_per_second_(ticks_per_second) {}
  ClockSource source_;
  double ticks_per_second_;
};

}  // namespace ompscope::bench
