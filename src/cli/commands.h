// One subcommand per file: each add_*_command registers its options on the parent app and
// returns the action to run when that subcommand was chosen. The action returns the process
// exit status; ompscope's own errors are thrown as ompscope::Error (exit 2, see main.cpp).
#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace ompscope::cli {

struct Command {
  CLI::App* app;
  std::function<int()> run;
};

Command add_profile_command(CLI::App& parent);
Command add_scale_command(CLI::App& parent);
Command add_trace_command(CLI::App& parent);
Command add_report_command(CLI::App& parent);
Command add_diff_command(CLI::App& parent);
Command add_verify_command(CLI::App& parent);
Command add_bench_command(CLI::App& parent);
Command add_model_command(CLI::App& parent);
Command add_doctor_command(CLI::App& parent);

}  // namespace ompscope::cli
