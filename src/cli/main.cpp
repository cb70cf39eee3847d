// ompscope: one command, subcommands registered from one file each (commands.h).
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/own_output.h"
#include "cli/program_launch.h"
#include "common/allocator.h"
#include "common/error.h"
#include "common/version.h"

// Before the allocator starts (common/allocator.h).
__attribute__((section(".preinit_array"), used)) static void (*const ask_for_large_pages)() = ompscope::use_large_pages;

int main(int argc, char** argv) {
  using namespace ompscope::cli;
  guard_own_output();  // before anything is written or opened (own_output.h)
  CLI::App app{"ompscope: where an OpenMP program loses time as threads are added, why, and what to change"};
  app.set_version_flag("--version", std::string(ompscope::kVersion));
  app.require_subcommand(1);
  std::vector<Command> commands = {
      add_profile_command(app), add_scale_command(app), add_trace_command(app),
      add_report_command(app),  add_diff_command(app), add_verify_command(app), add_bench_command(app), add_model_command(app),
      add_doctor_command(app),
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // Bad input is one line that says what and where to read more, as every refusal is
    // (docs/safety.md): CLI11's own message is two lines without the tool's name.
    std::string what = e.what();
    for (char& ch : what)
      if (ch == '\n') ch = ' ';
    std::string help = "ompscope --help";
    for (const Command& c : commands)
      if (c.app->parsed()) help = "ompscope " + c.app->get_name() + " --help";
    fmt::print(stderr, "ompscope: {} (see {})\n", what, help);
    return 2;
  }
  int status = 2;
  try {
    for (const Command& c : commands) {
      if (!c.app->parsed()) continue;
      status = c.run();
      // A command whose output is stdout (report, model, bench, doctor) says when it could not
      // write it; one that ran a program exits with the program's status whatever happened to
      // ompscope's own messages (docs/safety.md).
      const std::string name = c.app->get_name();
      if (name != "profile" && name != "scale" && name != "trace") {
        if (const int error = stdout_error(); error == EPIPE) {
          return 128 + SIGPIPE;  // the reader left (`| head`): as when SIGPIPE ended it, in silence
        } else if (error) {
          fmt::print(stderr, "ompscope: cannot write its output to stdout: {}\n", std::strerror(error));
          return 2;
        }
      }
      break;
    }
  } catch (const ompscope::Error& e) {
    fmt::print(stderr, "ompscope: {}\n", e.what());
  } catch (const std::exception& e) {
    fmt::print(stderr, "ompscope: internal error: {}\n", e.what());
  }
  // A signal sent to ompscope while the program ran was passed on to it (program_launch.h):
  // ompscope reported what was captured and ends as the signal would have ended it.
  if (const int sig = signal_received()) {
    fmt::print(stderr, "ompscope: ended by SIG{} ({}), sent to ompscope and passed on to the program; exit {}\n",
               sigabbrev_np(sig) ? sigabbrev_np(sig) : "?", strsignal(sig), 128 + sig);
    return 128 + sig;
  }
  return status;
}
