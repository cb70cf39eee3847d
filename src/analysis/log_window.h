// A stretch of a thread's log file mapped read-only, for the passes that walk its records
// (run_log.h, "Reading a log"). Read through a buffer, every pass copied its records from the page
// cache: a barrier-heavy log (many_barriers, 400 000 records) spent an eighth of its `report` in
// that copy, read twice. Mapped, a pass reads them where they are; each window is unmapped when the
// next one is mapped, so the memory a pass holds stays one window whatever the log's length.
//
// A mapped file that another process truncates under the reader raises SIGBUS at the next read of
// a page past its new end. That is bad input, not a crash: a handler installed with the first
// window prints one line naming the file and ends the process with status 2 (docs/safety.md,
// "Bad input"); a SIGBUS anywhere else goes to the handler that was there before.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>

#include "common/event_record.h"

namespace ompscope::analysis {

class LogWindow {
 public:
  LogWindow() = default;
  ~LogWindow();
  LogWindow(const LogWindow&) = delete;
  LogWindow& operator=(const LogWindow&) = delete;

  // Maps `count` records from record `at` (counted after the file's header) of `fd`, an open
  // descriptor of `file`, in place of the window mapped before. Null where the system refuses the
  // mapping (the caller reads the records instead).
  const Event* map(int fd, const std::filesystem::path& file, uint64_t at, size_t count);
  void release();

 private:
  void* base_ = nullptr;
  size_t length_ = 0;
  int slot_ = -1;  // its entry among the windows the SIGBUS handler knows
};

}  // namespace ompscope::analysis
