// The capture clock: the TSC where it is invariant (constant_tsc + nonstop_tsc), else
// CLOCK_MONOTONIC in ns. A log's meta names the source and gives two (ticks, ns) pairs, so
// ticks are converted to seconds offline; nothing here runs a calibration loop.
#pragma once
#include <cstdint>
#include <ctime>
#include <x86intrin.h>

namespace ompscope {

enum class ClockSource : uint8_t { Tsc = 1, Monotonic = 2 };

inline uint64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

inline uint64_t realtime_ns() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

inline uint64_t read_ticks(ClockSource source) {
  return source == ClockSource::Tsc ? __rdtsc() : monotonic_ns();
}

// True when /proc/cpuinfo lists both flags that make the TSC a wall clock shared by all cores,
// and OMPSCOPE_CLOCK is not "monotonic" (which makes every process of a run take CLOCK_MONOTONIC).
bool tsc_is_invariant();

const char* clock_source_name(ClockSource source);

}  // namespace ompscope
