// Logs live in memory until a chunk fills; a program killed by a signal would lose the last
// ones. These handlers write every thread's log out, then let the signal take its course
// (the program's own handler, or the default action with its core dump and exit status).
#pragma once

namespace ompscope::capture {

// SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS, SIGINT, SIGTERM, SIGQUIT, SIGHUP,
// SIGXCPU, SIGXFSZ, SIGPIPE whose disposition is not "ignore". `last_words` runs after the
// flush and must be async-signal-safe.
void install_fatal_signal_flush(void (*last_words)());

}  // namespace ompscope::capture
