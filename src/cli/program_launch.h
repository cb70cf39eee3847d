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
};

struct LaunchOutcome {
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
LaunchOutcome launch_and_wait(const Launch& launch);

// Runs `argv` (no shell) with stdin from /dev/null and returns what it wrote to stdout and
// stderr; "" when it cannot be started.
std::string capture_output(const std::vector<std::string>& argv);

// PATH lookup as execvp does it; returns the path or "" when not found.
std::string find_program(const std::string& name);

}  // namespace ompscope::cli
