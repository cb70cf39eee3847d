// The body of each construct under the direct method (see direct_method.h).
#pragma once
#include "bench/core/constructs.h"
#include "bench/program/direct_method.h"

namespace ompscope::bench {

DirectMeasurement measure_direct(Construct construct, const TickClock& clock,
                                 const ThreadClockOffsets& offsets, const DirectSettings& settings);

}  // namespace ompscope::bench
