// The thread's kernel accounting at an edge of a stretch of work in a recorded region instance
// (event_record.h: ThreadUsage), for the OMPT tool and the libgomp interposer alike.
// CLOCK_THREAD_CPUTIME_ID brings the thread's CPU time up to date (~0.7 us here); getrusage alone
// returns it as of the last tick or switch, which left stretches of 100 us with 1% of their CPU
// time. getrusage (~0.6 us) then gives the faults, the switches and the system share.
#pragma once
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <cstdint>

#include "capture/thread_log.h"

namespace ompscope::capture {

// The thread's context switches in one field (event_record.h, ThreadUsage): involuntary ones
// (switched out while runnable: another thread had its CPU) in the low 16 bits, voluntary ones
// (it slept: a lock in the kernel or the C library, I/O, a page another thread was faulting in)
// in the high 16. Both truncated: a stretch of work holds far fewer than 65 536 of either.
inline uint32_t switch_counts(const rusage& ru) {
  return (static_cast<uint32_t>(ru.ru_nivcsw) & 0xffffu) | (static_cast<uint32_t>(ru.ru_nvcsw) << 16);
}

// False where the clocks could not be read (nothing was recorded).
inline bool append_thread_usage(ThreadLog& log, const LogConfig& config, ClockSource clock, uint8_t edge) {
  timespec cpu;
  rusage ru;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) != 0 || getrusage(RUSAGE_THREAD, &ru) != 0) return false;
  const uint64_t cpu_ns = uint64_t(cpu.tv_sec) * 1000000000u + uint64_t(cpu.tv_nsec);
  const uint64_t sys_us = uint64_t(ru.ru_stime.tv_sec) * 1000000u + uint64_t(ru.ru_stime.tv_usec);
  // The tool's own log pages are no fault of the program's (thread_log.cpp: populate).
  const uint64_t own = own_page_faults();
  const uint64_t minor = static_cast<uint64_t>(ru.ru_minflt) > own ? static_cast<uint64_t>(ru.ru_minflt) - own : 0;
  append_event(log, config, clock,
               Event{0, cpu_ns, static_cast<uint32_t>(sys_us), static_cast<uint32_t>(minor),
                     switch_counts(ru), static_cast<uint16_t>(ru.ru_majflt),
                     EventKind::ThreadUsage, edge});
  return true;
}

// Region instances whose threads read it: each master's first 100 recorded instances, then one
// in 16, whatever the sampling of records (a reading costs ~1.3 us per thread at every barrier).
inline bool usage_instance(uint32_t& instances) {
  const uint32_t n = instances++;
  return n < 100 || n % 16 == 0;
}

// Within a region instance that reads it, when a thread reads its accounting. A stretch of work
// begins with a reading at the implicit task's begin or at a barrier's departure, and the next
// barrier's arrival ends it with another (inside the visits, so their cost counts as waiting).
// The stretch before each of the first kUsageFirstBarriers barriers is read; after them, one in
// every k, k the power of two that spaces the readings kUsageGapNs apart at the pace of the last
// kUsageCheckEvery barriers (1 at 100 us apart or slower, at most kUsageMostApart). A pair at
// every barrier (~2.6 us) made many_barriers, whose barriers come 0.6 us apart, 5x slower and was
// most of what its barriers seemed to cost; this holds the readings near 2.6% of the time. The
// choice depends on the barrier's position and the time between two of the team's barriers only,
// so the threads of a team read the same barriers, as the CPU-time imbalance at each position
// needs (analysis/barrier_phases.h; docs/lost-time.md, "Readings that measured themselves"). The
// pace of the last barriers, not since the task began: a slow start (a team's threads created at
// its first barriers, 37 us apart) held the mean above the pace for the rest of a region.
inline constexpr uint32_t kUsageFirstBarriers = 64;
inline constexpr uint32_t kUsageCheckEvery = 16;
inline constexpr uint32_t kUsageMostApart = 256;
inline constexpr uint64_t kUsageGapNs = 100'000;
// A recorded task's body between two readings (event_record.h: ThreadUsage, edges 2 and 3): a
// thread switched out inside it while another process held its CPU lengthens the body, and a
// task graph of a few coarse bodies has no median to show that (analysis/task_work.cpp). A body
// is read where it starts at least the thread's gap after its last body reading began (its
// first body always). The gap starts at 2^21 ticks (0.5 ms at a 4 GHz TSC, 2.1 ms on
// CLOCK_MONOTONIC), so the pairs (~2.6 us) cost at most ~0.5% of a thread's time, and every body
// of a coarse task program is read. A read body shorter than 1/16 of that doubles the gap, up to
// 2^28 ticks: where bodies are short the readings are a few per thread, and the 1.3 us each
// adds to a body it brackets stays out of the mean of thousands of 30 ns ones (fine_tasks:
// 53-107 ns read against 30-36 ns at a fixed gap). A long one sets it back.
inline constexpr uint8_t kBodyGapFirstShift = 21, kBodyGapLastShift = 28;

struct UsageStretches {
  bool open = false;      // a stretch began: the next arrival ends it
  uint32_t every = 1;     // one stretch read in this many (a power of two)
  uint32_t next = 0;      // the position of the next barrier in the implicit task
  uint64_t window_ns = 0; // when the last kUsageCheckEvery barriers began (CLOCK_MONOTONIC)
  uint64_t body_ticks = 0;  // when the thread's last body reading began
  uint32_t body_task = 0;   // the recorded task whose body a reading opened (0: none)
  uint8_t body_gap_shift = kBodyGapFirstShift;  // the gap between body readings: 2^shift ticks
  // At the implicit task's begin: a stretch begins.
  void start(uint64_t now_ns) {
    open = true;
    every = 1;
    next = 0;
    window_ns = now_ns;
  }
  // At a barrier's departure: whether a stretch begins here. `now_ns()` is called at every
  // kUsageCheckEvery-th barrier only (a clock read costs ~30 ns, a barrier 0.6 us).
  template <class Now>
  bool begin(Now now_ns) {
    const uint32_t b = ++next;
    if (b % kUsageCheckEvery == 0) {
      const uint64_t now = now_ns();
      // The barriers of the last window per kUsageGapNs, rounded up to a power of two.
      const uint64_t window = std::max<uint64_t>(1, now - window_ns);
      const uint64_t per_gap = (uint64_t{kUsageCheckEvery} * kUsageGapNs + window - 1) / window;
      every = 1;
      while (every < per_gap && every < kUsageMostApart) every *= 2;
      window_ns = now;
    }
    open = b < kUsageFirstBarriers || b % every == 0;
    return open;
  }
  // At a barrier's arrival (or a team of one's end): whether a stretch ends here.
  bool end() {
    const bool was = open;
    open = false;
    return was;
  }
};

// The cheapest reading of the thread's accounting (append_thread_usage's two system calls,
// clock_gettime and getrusage, timed back to back, the fastest of 64); written to meta.txt as
// `usage_reading TICKS`. A read stretch holds one reading's time: the end of the one that opened
// it (after its CPU clock was taken) and the start of the one that closes it. Where barriers come
// every 170 us (NPB SP class W) every stretch is read, and the team's 2 x 7600 readings at 2
// threads, a team of one reading none, read as 35.8 ms more in the kernel: "system calls" that the
// bare program did not make (analysis/team_work.cpp takes them out). The fastest: never more than
// a reading costs, so no kernel time of the program's is taken with them.
inline constexpr uint32_t kUsageReadingTries = 64;
inline uint64_t calibrate_usage_reading(ClockSource clock) {
  uint64_t fastest = ~0ull;
  for (uint32_t i = 0; i < kUsageReadingTries; ++i) {
    timespec cpu;
    rusage ru;
    const uint64_t begin = read_ticks(clock);
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) != 0 || getrusage(RUSAGE_THREAD, &ru) != 0) return 0;
    const uint64_t end = read_ticks(clock);
    if (end > begin && end - begin < fastest) fastest = end - begin;
  }
  return fastest == ~0ull ? 0 : fastest;
}

// The cheapest page fault on this machine: a first write to a fresh anonymous 4 KiB page (the
// kernel maps and zeroes it), the fastest of 64, each timed alone (a fault preempted or
// interrupted only gets slower); written to meta.txt as `page_fault_floor TICKS`. getrusage's
// split of a thread's CPU time between user and system is the ticks' sample of its whole life,
// scaled to its CPU time and kept monotonic: over a region's stretches it can read far less
// kernel time than the faults took (LULESH at 2 threads: 51.8 ms for 257 180 faults). No fault
// costs less than this floor, so the faults counted, exactly, bound the kernel's time from below
// (analysis/team_work.cpp). Huge pages are kept off the mapping: one 2 MiB fault is no floor.
inline constexpr uint32_t kFaultFloorPages = 64;
inline uint64_t calibrate_page_fault_floor(ClockSource clock) {
  const size_t bytes = size_t{kFaultFloorPages} * 4096;
  void* map = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) return 0;
  madvise(map, bytes, MADV_NOHUGEPAGE);
  volatile char* page = static_cast<char*>(map);
  uint64_t fastest = ~0ull;
  for (uint32_t i = 0; i < kFaultFloorPages; ++i) {
    const uint64_t begin = read_ticks(clock);
    page[size_t{i} * 4096] = 1;
    const uint64_t end = read_ticks(clock);
    if (end > begin && end - begin < fastest) fastest = end - begin;
  }
  munmap(map, bytes);
  return fastest == ~0ull ? 0 : fastest;
}

}  // namespace ompscope::capture
