// The EPCC method: time a reference (the delay work alone) and a test (the same work with the
// construct) many times; the construct's overhead is (test - reference) / inner repetitions,
// each test against the reference timed just before it.
// Inner repetitions make one test long enough to time well; outer repetitions give the series
// the statistics are taken over.
#pragma once
#include <functional>
#include <vector>

#include "bench/program/tick_clock.h"

namespace ompscope::bench {

// One test is kept short (EPCC's default is 1 ms): on a machine shared with other work, a
// longer test is likely preempted, and short tests let the outlier filter remove the
// preempted ones instead of every sample carrying a share of them.
struct EpccSettings {
  int outer_repetitions = 300;
  double target_test_s = 0.1e-3;  // inner repetitions are chosen so one test takes about this long
  // Outer repetitions stop after this long once kMinOuter are done: on a loaded machine the
  // run must still end in bounded time.
  double time_budget_s = 3.0;
  static constexpr int kMinOuter = 10;
};

// test(inner) and reference(inner) run `inner` instances (or their delay-only twin) and return
// the elapsed seconds. inner_multiple: inner must be a multiple of it (the team size where the
// team shares the instances between its threads).
struct EpccCase {
  std::function<double(int inner)> test;
  std::function<double(int inner)> reference;
  int inner_multiple = 1;
};

struct EpccMeasurement {
  std::vector<double> overhead_s;   // one per outer repetition
  std::vector<double> reference_s;  // elapsed reference time per outer repetition
  std::vector<double> test_s;       // elapsed test time per outer repetition
  int inner_repetitions = 0;
  bool stopped_by_time_budget = false;
};

EpccMeasurement measure_epcc(const EpccCase& c, const EpccSettings& settings, const TickClock& clock);

}  // namespace ompscope::bench
