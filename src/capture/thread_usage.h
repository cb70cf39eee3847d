// The thread's kernel accounting at an edge of a stretch of work in a recorded region instance
// (event_record.h: ThreadUsage), for the OMPT tool and the libgomp interposer alike.
// CLOCK_THREAD_CPUTIME_ID brings the thread's CPU time up to date (~0.7 us here); getrusage alone
// returns it as of the last tick or switch, which left stretches of 100 us with 1% of their CPU
// time. getrusage (~0.6 us) then gives the faults, the switches and the system share.
#pragma once
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

#include <cstdint>

#include "capture/thread_log.h"

namespace ompscope::capture {

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
                     static_cast<uint32_t>(ru.ru_nivcsw), static_cast<uint16_t>(ru.ru_majflt),
                     EventKind::ThreadUsage, edge});
  return true;
}

// Region instances whose threads read it: each master's first 100 recorded instances, then one
// in 16, whatever the sampling of records (a reading costs ~1.3 us per thread at every barrier).
inline bool usage_instance(uint32_t& instances) {
  const uint32_t n = instances++;
  return n < 100 || n % 16 == 0;
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
