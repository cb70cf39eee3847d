// Timestamps of the bench programs. On x86-64 with an invariant TSC they are raw __rdtsc reads
// (about 12 ns each on the development VM, against 27 ns for clock_gettime through the vDSO),
// converted to seconds by one calibration against CLOCK_MONOTONIC at start-up. Elsewhere they
// are CLOCK_MONOTONIC nanoseconds. Per-thread disagreement between clocks is the direct
// method's business (clock_offset.h), not this class's.
#pragma once
#include <atomic>
#include <cstdint>
#include <ctime>
#include <string>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace ompscope::bench {

class TickClock {
 public:
  // Measures the tick rate over `calibration_s` of CLOCK_MONOTONIC (spinning, not sleeping).
  static TickClock calibrate(double calibration_s);

  uint64_t now() const {
    // Keeps the compiler from moving the measured code across the read.
    std::atomic_signal_fence(std::memory_order_seq_cst);
    uint64_t t;
#if defined(__x86_64__)
    if (use_tsc_) {
      t = __rdtsc();
    } else {
      t = monotonic_ns();
    }
#else
    t = monotonic_ns();
#endif
    std::atomic_signal_fence(std::memory_order_seq_cst);
    return t;
  }

  double seconds(double ticks) const { return ticks / ticks_per_second_; }
  uint64_t ticks(double seconds) const { return static_cast<uint64_t>(seconds * ticks_per_second_); }
  double ticks_per_second() const { return ticks_per_second_; }
  std::string description() const;

  static uint64_t monotonic_ns() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
  }

 private:
  TickClock(bool use_tsc, double ticks_per_second) : use_tsc_(use_tsc), ticks_per_second_(ticks_per_second) {}
  bool use_tsc_;
  double ticks_per_second_;
};

}  // namespace ompscope::bench
