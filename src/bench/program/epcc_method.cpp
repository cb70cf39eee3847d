#include "bench/program/epcc_method.h"

#include <algorithm>
#include <cmath>


namespace ompscope::bench {
namespace {

constexpr int kMaxInner = 1 << 22;

int round_up(int value, int multiple) { return (value + multiple - 1) / multiple * multiple; }

// The fastest of three tests: one that was preempted says nothing about the construct, and a
// single preempted probe would otherwise shrink inner to almost nothing.
double fastest_test(const EpccCase& c, int inner) {
  double best = c.test(inner);
  for (int i = 0; i < 2; ++i) best = std::min(best, c.test(inner));
  return best;
}

// Doubles inner until a test takes a quarter of the target, then scales to the target.
int choose_inner_repetitions(const EpccCase& c, double target_s) {
  int inner = c.inner_multiple;
  double elapsed = fastest_test(c, inner);
  while (elapsed < target_s / 4 && inner < kMaxInner) {
    inner *= 2;
    elapsed = fastest_test(c, inner);
  }
  const double scaled = inner * target_s / std::max(elapsed, 1e-9);
  return round_up(std::clamp(static_cast<int>(scaled), 1, kMaxInner), c.inner_multiple);
}

}  // namespace

EpccMeasurement measure_epcc(const EpccCase& c, const EpccSettings& settings, const TickClock& clock) {
  EpccMeasurement m;
  const uint64_t began = clock.now();
  m.inner_repetitions = choose_inner_repetitions(c, settings.target_test_s);
  for (int i = 0; i < settings.outer_repetitions; ++i) {
    if (i >= EpccSettings::kMinOuter &&
        clock.seconds(static_cast<double>(clock.now() - began)) > settings.time_budget_s) {
      m.stopped_by_time_budget = true;
      break;
    }
    m.reference_s.push_back(c.reference(m.inner_repetitions));
    m.test_s.push_back(c.test(m.inner_repetitions));
  }
  // Each test is paired with the reference timed just before it: on a shared (virtual) machine
  // the speed of the delay loop itself drifts (SMT siblings, frequency), and a reference from
  // another moment would carry that drift into the overhead. A pair hit by a preemption becomes
  // an outlier, which the filter drops.
  for (std::size_t i = 0; i < m.test_s.size(); ++i)
    m.overhead_s.push_back((m.test_s[i] - m.reference_s[i]) / m.inner_repetitions);
  return m;
}

}  // namespace ompscope::bench
