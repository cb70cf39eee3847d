// The writer thread: takes full chunks from every thread's log and writes them to their files,
// off the recording threads. One thread for the process, started at the first hand-off, with all
// signals blocked so that fatal signals reach the program's threads (and the flush handler).
#pragma once
#include <cstddef>

#include "capture/log_file.h"

namespace ompscope::capture {

// Queues buffer.queued_bytes bytes of `buffer` for `file` (queued_bytes already set by the
// caller). Returns false when the writer could not be started; the caller then writes itself.
bool queue_for_writer(LogFile& file, LogBuffer& buffer);

// Blocks until the writer has finished with `buffer` (queued_bytes back to 0).
void wait_until_written(const LogBuffer& buffer);

}  // namespace ompscope::capture
