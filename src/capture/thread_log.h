// One thread's event log: a ring of anonymous, reused buffers ("chunks") in front of a file in
// the run's log directory. The hot path stores a record and bumps a pointer; a full chunk is
// handed to the writer thread (log_writer.h), which writes it with O_DIRECT, so neither the
// recording thread nor the page cache pays for the log's volume. What is still in memory when
// the program dies is written out by flush_all_logs (finalize, exit) or by the async-signal-safe
// flush_all_logs_from_signal (fatal signals); only SIGKILL loses the last chunks.
#pragma once
#include <cstddef>
#include <cstdint>

#include "common/clock.h"
#include "common/event_record.h"

namespace ompscope::capture {

struct LogConfig {
  const char* directory = nullptr;   // must exist
  size_t chunk_bytes = 1u << 20;     // multiple of the page size
};

enum class LogState : uint8_t { Unopened, Open, Dropping, Closed };

struct LogFile;  // the thread's file and buffer ring (log_file.h)

// Plain aggregate with no constructor or destructor: it lives in initial-exec TLS and must be
// usable before C++ initialisation and after static destruction (docs/runtime-quirks.md Q3). Small on
// purpose: a dlopen'ed tool gets only a few hundred bytes of static TLS.
struct ThreadLog {
  Event* pos;
  Event* end;
  LogFile* file;
  uint64_t dropped;        // events lost (disk full, log closed)
  uint32_t thread_index;
  LogState state;
  uint32_t next_id;        // block of ids handed to this thread (see next_object_id)
  uint32_t id_limit;
};

// Slow path: opens the file on first use, hands the full chunk to the writer and moves to the
// next buffer of the ring, or switches to a scratch area when the log cannot grow. After it
// returns, pos < end always holds.
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

// Writes everything recorded and closes the file. Later events on this thread are dropped.
void close_thread_log(ThreadLog& log, const LogConfig& config);

// Writes what every open log holds so far (finalize, exit), waiting for the writer thread.
// Logs stay open: writing the same bytes to the same offsets again later is harmless.
void flush_all_logs();

// The same from a fatal-signal handler: only async-signal-safe calls and no waiting, so chunks
// still queued for the writer are written again directly.
void flush_all_logs_from_signal();

// In a forked child the logs belong to the parent: record into private memory, write nothing.
void disown_logs_after_fork();

// Ids for parallel regions and tasks, unique in the process: each thread takes blocks of ids
// from one shared counter, so the hot path touches no shared cache line.
uint32_t next_object_id(ThreadLog& log);

// Makes `bytes` of fresh anonymous memory from `begin` (page aligned) cost nothing at its first
// store: a chunk's pages are faulted in ahead of the hot path (thread_log.cpp). False when the
// memory cannot be had.
bool fault_in_pages(void* begin, size_t bytes);

// Pages this thread faulted in for its own log so far (the tool's faults, not the program's).
uint64_t own_page_faults();

// Events dropped so far by all threads (published on the slow path and by the writer).
uint64_t total_dropped_events();
uint32_t threads_seen();

}  // namespace ompscope::capture
