// Starting the observed program: exec through posix_spawnp (no shell), with the environment
// that attaches libompscope.so, and waiting for it like `time` does.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "analysis/run_log.h"

namespace ompscope::cli {

struct Launch {
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;  // overrides of the inherited environment
  bool quiet = false;  // its stdout to /dev/null (doctor's probe); otherwise passed through
};

struct LaunchOutcome {
  int pid = 0;         // the program's process (its log is pid-PID, docs/safety.md, "Processes and signals")
  int exit_code = 0;   // valid when signal == 0
  int signal = 0;
  double wall_s = 0;
  analysis::ClockPoint start_point;  // taken right before the program started: the runtime (and
                                     // the tool) start only at its first OpenMP call
  analysis::ClockPoint end_point;    // taken right after the program ended (clock fallback)

  bool ok() const { return signal == 0 && exit_code == 0; }
  int shell_status() const { return signal ? 128 + signal : exit_code; }
  std::string describe() const;  // "ok", "exit 3", "killed by SIGSEGV (Segmentation fault)"
};

// Throws ompscope::Error when the program cannot be started (not found, not executable).
// From the first launch on, SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to ompscope are passed on to
// the program (to the process group ompscope leads, else to the program's pid; what the terminal
// sends reached the program already) and ompscope carries on: waits, reports, and then exits
// 128+signal (main.cpp). A second one while no program runs ends ompscope at once.
LaunchOutcome launch_and_wait(const Launch& launch);

// The first of those signals ompscope was sent; 0: none.
int signal_received();

// Runs `argv` (no shell) with stdin from /dev/null and returns what it wrote to stdout and
// stderr; "" when it cannot be started.
std::string capture_output(const std::vector<std::string>& argv);

// PATH lookup as execvp does it; returns the path or "" when not found.
std::string find_program(const std::string& name);

}  // namespace ompscope::cli
