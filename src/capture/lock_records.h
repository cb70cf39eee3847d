// The records of lock operations, the same for the OMPT tool (ompt_tool.cpp) and the libgomp
// interposer (gomp_interposer.cpp): each keeps its own thread log and lock sampling in its own
// TLS and passes them in; these are inline, so the hot path costs what it cost written out in each.
#pragma once
#include <cstdint>

#include "capture/adaptive_sampling.h"
#include "capture/thread_log.h"
#include "common/clock.h"
#include "common/event_record.h"

namespace ompscope::capture {

// One mutex record (acquire, acquired, released, nest-lock next): `mutex_kind` is ompt_mutex_t
// (or the nest lock's scope endpoint), `wait_id` the lock's address, `arg` the acquired record's
// weight or the acquire's hint, `arg2` its sampling slot (1-based) or the implementation.
inline void append_mutex_event(ThreadLog& log, const LogConfig& config, ClockSource clock, EventKind kind,
                               uint8_t mutex_kind, uint64_t wait_id, uint64_t codeptr, uint32_t arg = 0,
                               uint16_t arg2 = 0) {
  Event ev{0, codeptr, 0, 0, arg, arg2, kind, mutex_kind};
  ev.set_wait_id(wait_id);
  append_event(log, config, clock, ev);
}

// The lock operations counted but not recorded since each sampling slot's last record: one
// LockOps record per slot (slot + 1, its first site, the count), written where a region's part
// begins or ends so that they count in the region they ran in (docs/locks.md).
[[gnu::noinline]] inline void write_unrecorded_lock_ops(LockSampling& locks, ThreadLog& log, const LogConfig& config,
                                                       ClockSource clock) {
  uint64_t site;
  uint32_t slot, count;
  while (take_unrecorded_lock_ops(locks, slot, site, count))
    append_event(log, config, clock, Event{0, site, 0, 0, count, 0, EventKind::LockOps, static_cast<uint8_t>(slot + 1)});
}

// The tool's own time between the timestamps of two lock records with nothing between them but
// a call to a function that does nothing (where the lock's own function runs): the rest of the
// first record (its slot and its store into memory the log has not touched yet, as a log's
// chunk is), the returns and calls, the second's timestamp. Every recorded wait (acquire to
// acquired) and hold (acquired to release) holds about this much of the tool's time beside the
// lock's; the analysis subtracts it (docs/locks.md, "The tool's own time"). The median of 1000
// pairs written one after the other into a scratch log of 64 KB, in clock ticks; written to
// meta.txt as `lock_record_gap`.
[[gnu::noinline]] inline void calibration_record(ThreadLog& log, const LogConfig& config, ClockSource clock,
                                                 EventKind kind) {
  append_mutex_event(log, config, clock, kind, 1, 0, 0);
}
[[gnu::noinline]] inline void calibration_nothing(void*) { asm volatile(""); }
inline uint64_t calibrate_lock_record_gap(const LogConfig& config, ClockSource clock) {
  constexpr int kPairs = 1000;
  constexpr uint32_t kLongest = 255;  // ticks; a pair preempted or longer counts as this (the median is far below)
  static Event scratch[2 * kPairs];   // 64 KB, touched here only
  void (*volatile between)(void*) = calibration_nothing;
  uint16_t pairs_at[kLongest + 1] = {};  // a histogram, not std::nth_element: the tool libraries export
                                         // no C++ symbol, and an unoptimised build would export its instances
  ThreadLog log{scratch, scratch + 2 * kPairs, nullptr, 0, 0, LogState::Open, 0, 0};
  for (int i = 0; i < kPairs; ++i) {
    calibration_record(log, config, clock, EventKind::MutexAcquire);
    between(nullptr);
    calibration_record(log, config, clock, EventKind::MutexAcquired);
    const uint64_t a = scratch[2 * i].time, b = scratch[2 * i + 1].time;
    ++pairs_at[b < a ? 0 : (b - a > kLongest ? kLongest : b - a)];
  }
  uint32_t seen = 0, gap = 0;
  while (gap < kLongest && (seen += pairs_at[gap]) < kPairs / 2) ++gap;
  return gap;
}

// The cost of one uncontended atomic read-modify-write on this machine (a locked exchange on a
// word only this thread touches, in its cache): no lock acquisition, critical entry or task can
// cost less, whatever the records' bracketing leaves after the tool's own time is taken out
// (docs/locks.md, "The floor"). Timed as a rate, 256 exchanges between two timestamps, the
// fastest of 16 rounds (a round preempted or interrupted only gets slower); written to meta.txt
// as `atomic_floor TICKS OPERATIONS`: ticks for that many operations, so that a clock of
// nanoseconds keeps the fraction.
inline constexpr uint32_t kAtomicFloorOps = 256;
inline uint64_t calibrate_atomic_floor(ClockSource clock) {
  alignas(64) static uint64_t word;  // touched here only
  uint64_t fastest = ~0ull;
  for (int round = 0; round < 16; ++round) {
    const uint64_t begin = read_ticks(clock);
    for (uint32_t i = 0; i < kAtomicFloorOps; ++i) __atomic_exchange_n(&word, i, __ATOMIC_ACQ_REL);
    const uint64_t end = read_ticks(clock);
    if (end > begin && end - begin < fastest) fastest = end - begin;
  }
  return fastest == ~0ull ? 0 : fastest;
}

}  // namespace ompscope::capture
