// One thread's event log: a file in the run's log directory, written through a memory-mapped
// window ("chunk"). Records land in the page cache as they are written, so a log survives the
// program dying by any signal, even SIGKILL, without a flush. Moving to the next chunk is the
// only system call, once per chunk; the file is grown with posix_fallocate first, so a full
// disk turns into counted dropped events instead of a SIGBUS.
#pragma once
#include <cstddef>
#include <cstdint>

#include "common/clock.h"
#include "common/event_record.h"

namespace ompscope::capture {

struct LogConfig {
  const char* directory = nullptr;   // must exist
  size_t chunk_bytes = 4u << 20;     // multiple of the page size
};

enum class LogState : uint8_t { Unopened, Open, Dropping, Closed };

// Plain aggregate with no constructor or destructor: it lives in initial-exec TLS and must be
// usable before C++ initialisation and after static destruction (OMPT-NOTES quirk 3).
struct ThreadLog {
  Event* pos;
  Event* end;
  Event* chunk;            // start of the mapped window
  uint64_t chunk_index;    // which window of the file is mapped
  uint64_t dropped;        // events lost (disk full, log closed)
  int fd;
  uint32_t thread_index;
  LogState state;
  uint32_t next_id;        // block of ids handed to this thread (see next_object_id)
  uint32_t id_limit;
};

// Slow path: maps the next chunk, opens the file on first use, or switches to a scratch area
// when the log cannot grow. After it returns, pos < end always holds.
void roll_over(ThreadLog& log, const LogConfig& config);

inline Event* reserve(ThreadLog& log, const LogConfig& config) {
  if (log.pos == log.end) [[unlikely]] roll_over(log, config);
  return log.pos++;
}

// The whole hot path of a callback: one timestamp, one slot, one 32-byte store.
inline void append_event(ThreadLog& log, const LogConfig& config, ClockSource clock, const Event& fields) {
  const uint64_t now = read_ticks(clock);
  Event* e = reserve(log, config);
  *e = fields;
  e->time = now;
}

// Unmaps and trims the file to the records written. Later events on this thread are dropped.
void close_thread_log(ThreadLog& log, const LogConfig& config);

// Ids for parallel regions and tasks, unique in the process: each thread takes blocks of ids
// from one shared counter, so the hot path touches no shared cache line.
uint32_t next_object_id(ThreadLog& log);

// Events dropped so far by all threads (published on the slow path; read at finalize).
uint64_t total_dropped_events();
uint32_t threads_seen();

}  // namespace ompscope::capture
