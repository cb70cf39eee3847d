// A simulated per-thread clock: the real monotonic clock shifted by a known offset, as the
// TSC of another socket may be. The tests inject the offset and check that it is recovered.
#pragma once
#include <chrono>
#include <cstdint>

namespace ompscope::bench::testing {

inline uint64_t true_ns() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

struct SkewedClock {
  int64_t offset_ns = 0;
  uint64_t operator()() const { return true_ns() + static_cast<uint64_t>(offset_ns); }
};

}  // namespace ompscope::bench::testing
