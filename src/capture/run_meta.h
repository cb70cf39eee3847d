// The log directory's meta.txt: one "key value..." line each, appended with write(2) so what
// was written before a crash stays. It carries what the records cannot: the clock's source and
// calibration points, the runtime's identity, which callbacks registered, the module map for
// offline symbolisation, and at finalize the dropped-event count.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ompscope::capture {

bool open_run_meta(const char* directory);
// Chooses this process's log directory into `directory`: pid-PID in OMPSCOPE_LOG_DIR (pid-PID.1,
// ... for a later image exec'd in the same process), else ompscope-log-PID in the working
// directory; a rank of an MPI job (common/launcher_rank.h) gets rank-R/pid-PID under it, so two
// processes never write the same file (docs/mpi.md, docs/safety.md, "Processes and signals"). Creates it and
// opens its meta.txt; prints one line and returns false when it cannot (the program then runs
// unobserved).
bool open_log_directory(char* directory, size_t size);
// "rank R SIZE LOCAL_RANK VARIABLE" in meta.txt when the launcher gave a rank (-1/0: not said).
void write_rank_meta();
// "pid", "ppid" and "command" (from /proc/self/cmdline) in meta.txt: which process this log is.
void write_process_meta();
void meta_line(const char* format, ...) __attribute__((format(printf, 1, 2)));
// "key a b" with no stdio: async-signal-safe, for the last words of a dying program.
void meta_line_from_signal(const char* key, uint64_t a, uint64_t b);
// Loaded modules with their load bias and executable segments; called at start and again at
// finalize, so libraries dlopen'ed during the run are covered too.
void write_module_map();
void close_run_meta();

// The executable segment of the module holding `address`; false if none.
bool module_text_range(const void* address, uintptr_t* lo, uintptr_t* hi);

}  // namespace ompscope::capture
