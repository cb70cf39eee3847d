#include "bench/program/tick_clock.h"

#include <sstream>

namespace ompscope::bench {

TickClock TickClock::calibrate(double calibration_s) {
  if (!tsc_is_invariant()) return TickClock(ClockSource::Monotonic, 1e9);
  const uint64_t mono0 = monotonic_ns();
  const uint64_t tsc0 = read_ticks(ClockSource::Tsc);
  const uint64_t until = mono0 + static_cast<uint64_t>(calibration_s * 1e9);
  uint64_t mono1 = mono0;
  while (mono1 < until) mono1 = monotonic_ns();
  const uint64_t tsc1 = read_ticks(ClockSource::Tsc);
  return TickClock(ClockSource::Tsc,
                   static_cast<double>(tsc1 - tsc0) / (static_cast<double>(mono1 - mono0) * 1e-9));
}

std::string TickClock::description() const {
  std::ostringstream out;
  if (source_ == ClockSource::Tsc)
    out << "TSC (__rdtsc) at " << ticks_per_second_ / 1e9 << " GHz, calibrated against CLOCK_MONOTONIC";
  else
    out << "CLOCK_MONOTONIC (clock_gettime), ns";
  return out.str();
}

}  // namespace ompscope::bench
