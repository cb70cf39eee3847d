// A thread's hardware counters (docs/lost-time.md, "Hardware counters"): one perf_event group
// per thread, opened on the thread itself, counting user space only (exclude_kernel: it opens at
// perf_event_paranoid 2), read with one read() of the group. No allocation, no exceptions: it
// runs inside the observed program.
#pragma once
#include <cstdint>

namespace ompscope::capture {

struct CounterSpec {
  uint32_t type;    // PERF_TYPE_HARDWARE, PERF_TYPE_SOFTWARE, ...
  uint64_t config;  // PERF_COUNT_HW_CPU_CYCLES, ...
};

inline constexpr int kMaxCounters = 4;

struct CounterGroup {
  int fds[kMaxCounters] = {-1, -1, -1, -1};  // fds[0] leads the group
  int count = 0;
  bool open() const { return count > 0; }
};

// The group read by the tool: cycles, instructions, last-level cache misses.
extern const CounterSpec kHardwareCounters[3];

// Opens `n` counters of the calling thread as one group (the first pinned: it counts all the time
// or reads nothing). Returns 0, or the errno of the first counter that would not open (the group
// is then closed): ENOENT or EOPNOTSUPP without a PMU (a VM), EACCES/EPERM under a stricter
// perf_event_paranoid.
int open_counter_group(const CounterSpec* specs, int n, CounterGroup* group);

// The group's values since it opened, with one read(). False where it could not be read, or where
// it did not count all the time since it opened (a pinned group the PMU had no room for): a
// difference of two readings would then be wrong.
bool read_counter_group(const CounterGroup& group, uint64_t* values);

void close_counter_group(CounterGroup* group);

// Why the counters would not open, in a few words ("ENOENT: no PMU, ..."), for the run's meta.txt.
const char* counter_failure_text(int error);

}  // namespace ompscope::capture
