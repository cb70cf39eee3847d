// The thread's kernel accounting at an edge of a stretch of work in a recorded region instance
// (event_record.h: ThreadUsage), for the OMPT tool and the libgomp interposer alike.
// CLOCK_THREAD_CPUTIME_ID brings the thread's CPU time up to date (~0.7 us here); getrusage alone
// returns it as of the last tick or switch, which left stretches of 100 us with 1% of their CPU
// time. getrusage (~0.6 us) then gives the faults, the switches and the system share.
#pragma once
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
  append_event(log, config, clock,
               Event{0, cpu_ns, static_cast<uint32_t>(sys_us), static_cast<uint32_t>(ru.ru_minflt),
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

}  // namespace ompscope::capture
