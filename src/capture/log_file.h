// The state one thread's log shares with the writer thread and with the flushes at exit and on
// fatal signals. Lives in plain static storage (thread_log.cpp), never freed: finalize and signal
// handlers may run after static destruction.
#pragma once
#include <atomic>
#include <cstdint>

#include "common/event_record.h"

namespace ompscope::capture {

struct ThreadLog;

// Four chunks in flight per thread: enough for the writer to keep up with bursts while the
// recording thread never waits unless the disk is slower than the program's event rate.
constexpr uint32_t kBuffersPerLog = 4;

struct LogBuffer {
  Event* data;                          // chunk_bytes of anonymous memory, page aligned
  uint64_t populated_bytes;             // its first bytes whose pages are faulted in (see thread_log.cpp)
  uint64_t file_offset;                 // where its first byte goes in the file
  std::atomic<uint64_t> queued_bytes;   // non-zero from hand-off until the writer is done
};

struct LogFile {
  int direct_fd;                        // O_DIRECT where the filesystem allows it
  int tail_fd;                          // buffered: partial chunks at flushes, fallback writes
  std::atomic<ThreadLog*> owner;        // set while the log is open; its pos fills `current`
  std::atomic<uint32_t> flushers;       // other threads writing it out now (exit, signals)
  uint32_t current;                     // ring index of the chunk being filled
  LogBuffer buffers[kBuffersPerLog];
  // A failed write (disk full, I/O error) ends the file at failed_at: every byte handed to it
  // up to end_offset counts as lost, exactly once however often a flush retries.
  std::atomic<bool> failed;
  std::atomic<uint64_t> failed_at;
  std::atomic<uint64_t> end_offset;
};

// Writes bytes to their place in the file: whole chunks O_DIRECT when the file has it (the page
// cache when the filesystem refuses the alignment), partial chunks through the page cache. On a failure the file ends at the last whole record
// written and takes no more writes. Async-signal-safe; false when the bytes are not all there.
bool write_to_log_file(LogFile& file, const void* data, uint64_t bytes, uint64_t offset, bool whole_chunk);

}  // namespace ompscope::capture
