// The initial thread's CPU time and run-queue wait at the edges of its serial stretches
// (event_record.h: SerialUsage), so that the analysis splits serial time into time on the CPU,
// time waiting for one (descheduled) and time blocked (sleep, I/O, a child), docs/design.md
// "Serial time off the CPU". Read at a top-level fork or join at most once per millisecond (a
// reading costs ~2 us: a few hundred regions per second pay nothing measurable) and at the end
// of the run; the stretch from the process's start reads 0 for both, the thread's own clocks.
#pragma once
#include <fcntl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

#include "capture/thread_log.h"

namespace ompscope::capture {

// Only the initial thread uses these (thread_index 0).
struct SerialUsageState {
  uint64_t last_ns;   // CLOCK_MONOTONIC of the last reading
  int schedstat_fd;   // /proc/thread-self/schedstat; -1: unreadable; 0: not opened yet
  uint32_t depth;     // parallel regions open on the thread (top level: 0 at a fork)
};

// The thread's run-queue wait in ns (schedstat's second field); UINT64_MAX: unknown.
inline uint64_t run_delay_ns(SerialUsageState& s) {
  if (s.schedstat_fd == 0) {
    s.schedstat_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    if (s.schedstat_fd <= 0) s.schedstat_fd = -1;
  }
  if (s.schedstat_fd < 0) return UINT64_MAX;
  char buf[96];
  const ssize_t n = pread(s.schedstat_fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return UINT64_MAX;
  buf[n] = 0;
  char* end = nullptr;
  strtoull(buf, &end, 10);
  if (!end || end == buf) return UINT64_MAX;
  return strtoull(end, nullptr, 10);
}

// `edge`: 0 = serial code starts (a top-level join), 1 = serial code ends (a top-level fork),
// 2 = the run ends (finalize). `force`: read whatever the time since the last reading.
inline void record_serial_usage(SerialUsageState& s, ThreadLog& log, const LogConfig& config, ClockSource clock,
                                uint8_t edge, bool force) {
  // Open: an unopened log's index is not yet its own; a closed one's thread end read the run's end.
  if (log.state != LogState::Open || log.thread_index != 0) return;
  const uint64_t now = monotonic_ns();
  if (!force && now - s.last_ns < 1000000) return;
  s.last_ns = now;
  timespec cpu;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) != 0) return;
  const uint64_t cpu_ns = uint64_t(cpu.tv_sec) * 1000000000u + uint64_t(cpu.tv_nsec);
  const uint64_t delay = run_delay_ns(s);
  const bool known = delay != UINT64_MAX;
  append_event(log, config, clock,
               Event{0, cpu_ns, known ? static_cast<uint32_t>(delay) : 0u, known ? static_cast<uint32_t>(delay >> 32) : 0u,
                     0, static_cast<uint16_t>(known ? 1 : 0), EventKind::SerialUsage, edge});
  // What the time off the CPU was spent waiting for, as far as the kernel's accounting tells:
  // block I/O, a child process that ended and was waited for, or neither (a sleep, a pipe, a
  // socket, a signal). Two getrusage calls, ~1 us, at most once per millisecond.
  rusage own, children;
  if (getrusage(RUSAGE_THREAD, &own) != 0 || getrusage(RUSAGE_CHILDREN, &children) != 0) return;
  const auto ns = [](const timeval& tv) { return uint64_t(tv.tv_sec) * 1000000000u + uint64_t(tv.tv_usec) * 1000u; };
  append_event(log, config, clock,
               Event{0, ns(children.ru_utime) + ns(children.ru_stime), static_cast<uint32_t>(own.ru_inblock),
                     static_cast<uint32_t>(own.ru_oublock), static_cast<uint32_t>(own.ru_nvcsw), 0,
                     EventKind::SerialWaits, edge});
}

}  // namespace ompscope::capture
