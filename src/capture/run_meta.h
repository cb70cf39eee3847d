// The log directory's meta.txt: one "key value..." line each, appended with write(2) so what
// was written before a crash stays. It carries what the records cannot: the clock's source and
// calibration points, the runtime's identity, which callbacks registered, the module map for
// offline symbolisation, and at finalize the dropped-event count.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ompscope::capture {

bool open_run_meta(const char* directory);
// Chooses the run's log directory into `directory`: OMPSCOPE_LOG_DIR, else ompscope-log-PID in
// the working directory; a rank of an MPI job (common/launcher_rank.h) gets rank-R under it, so
// two ranks never write the same file (docs/mpi.md). Creates it and opens its meta.txt; prints
// one line and returns false when it cannot (the program then runs unobserved).
bool open_log_directory(char* directory, size_t size);
// "rank R SIZE LOCAL_RANK VARIABLE" in meta.txt when the launcher gave a rank (-1/0: not said).
void write_rank_meta();
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
