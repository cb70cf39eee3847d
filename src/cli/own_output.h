// ompscope's own messages never end the process or change its exit status (docs/safety.md, "When
// its own output fails"): with stderr closed (`2>&-`), full (`2>/dev/full`) or a pipe nobody
// reads, fmt::print(stderr, ...) threw, the error path threw again, and the process aborted (134)
// instead of exiting with the program's status.
#pragma once
#include <string>

namespace ompscope::cli {

// Called first in main. A standard descriptor the caller closed gets /dev/null in its place,
// close-on-exec: no file ompscope opens can land on fd 2 and take its messages, and the program
// still starts with it closed. Then `stdout` and `stderr` become streams over fds 1 and 2 whose
// write errors are recorded, never reported to the writer (so fmt::print never throws for them).
void guard_own_output();

// The first error (errno) writing to stdout, after flushing it; 0 if none. A command whose output
// is stdout (report, model) says it and exits 2 (a reader that closed the pipe, `| head`: 141, in
// silence, as when SIGPIPE ended it); one that runs a program keeps the program's status.
int stdout_error();

}  // namespace ompscope::cli
