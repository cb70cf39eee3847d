// The test and reference of each construct under the EPCC method (see epcc_method.h and the
// table in BENCHMARKS.md for what one instance is).
#pragma once
#include "bench/core/constructs.h"
#include "bench/program/delay_work.h"
#include "bench/program/epcc_method.h"
#include "bench/program/tick_clock.h"

namespace ompscope::bench {

// The returned functions refer to `clock` and `delay`, which must outlive them.
EpccCase epcc_case(Construct construct, const TickClock& clock, const DelayWork& delay);

}  // namespace ompscope::bench
