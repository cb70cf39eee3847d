#include "bench/program/tick_clock.h"

#include <fstream>
#include <sstream>

namespace ompscope::bench {
namespace {

// constant_tsc + nonstop_tsc: the TSC ticks at one rate on every core, in every power state.
bool tsc_is_invariant() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line);
    bool constant = false, nonstop = false;
    for (std::string w; words >> w;) {
      constant = constant || w == "constant_tsc";
      nonstop = nonstop || w == "nonstop_tsc";
    }
    return constant && nonstop;
  }
  return false;
}

}  // namespace

TickClock TickClock::calibrate(double calibration_s) {
#if defined(__x86_64__)
  if (tsc_is_invariant()) {
    const uint64_t mono0 = monotonic_ns();
    const uint64_t tsc0 = __rdtsc();
    const uint64_t until = mono0 + static_cast<uint64_t>(calibration_s * 1e9);
    uint64_t mono1 = mono0;
    while (mono1 < until) mono1 = monotonic_ns();
    const uint64_t tsc1 = __rdtsc();
    return TickClock(true, static_cast<double>(tsc1 - tsc0) / (static_cast<double>(mono1 - mono0) * 1e-9));
  }
#endif
  (void)calibration_s;
  return TickClock(false, 1e9);
}

std::string TickClock::description() const {
  std::ostringstream out;
  if (use_tsc_)
    out << "TSC (__rdtsc) at " << ticks_per_second_ / 1e9 << " GHz, calibrated against CLOCK_MONOTONIC";
  else
    out << "CLOCK_MONOTONIC (clock_gettime), ns";
  return out.str();
}

}  // namespace ompscope::bench
