// The EPCC method's unit of work: a busy loop of calibrated length that the compiler cannot
// remove or merge with the construct around it. Each thread runs its own copy; no memory is
// shared, so the loop costs the same alone and in a team.
#pragma once
#include <cstdint>

#include "bench/program/tick_clock.h"

namespace ompscope::bench {

class DelayWork {
 public:
  // Picks the iteration count whose loop takes about `seconds` on this core.
  static DelayWork calibrate(const TickClock& clock, double seconds);

  // The same loop, `factor` times as long.
  DelayWork scaled(double factor) const;

  void run() const;
  double seconds() const { return seconds_; }

 private:
  DelayWork(int64_t iterations, double seconds) : iterations_(iterations), seconds_(seconds) {}
  int64_t iterations_;
  double seconds_;
};

}  // namespace ompscope::bench
