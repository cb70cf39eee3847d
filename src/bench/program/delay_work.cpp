#include "bench/program/delay_work.h"

#include <algorithm>
#include <cmath>

namespace ompscope::bench {
namespace {

[[gnu::noinline]] void spin(int64_t iterations) {
  for (int64_t i = 0; i < iterations; ++i) asm volatile("" : : "r"(i));
}

}  // namespace

DelayWork DelayWork::calibrate(const TickClock& clock, double seconds) {
  constexpr int64_t kProbe = 1 << 16;
  // The fastest of several probes: a slower one was interrupted, not a different loop.
  double best = 1e30;
  for (int i = 0; i < 20; ++i) {
    const uint64_t t0 = clock.now();
    spin(kProbe);
    best = std::min(best, clock.seconds(static_cast<double>(clock.now() - t0)));
  }
  const auto iterations = std::max<int64_t>(1, std::llround(seconds / best * kProbe));
  return DelayWork(iterations, best / kProbe * static_cast<double>(iterations));
}

DelayWork DelayWork::scaled(double factor) const {
  const auto iterations = std::max<int64_t>(1, std::llround(static_cast<double>(iterations_) * factor));
  return DelayWork(iterations, seconds_ * static_cast<double>(iterations) / static_cast<double>(iterations_));
}

void DelayWork::run() const { spin(iterations_); }

}  // namespace ompscope::bench
