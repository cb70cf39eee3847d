// ompscope verify DIR: each finding of a saved report whose fix is a runtime setting, checked by
// running the program with the setting, interleaved with the program as it was, without the tool
// (docs/verify.md). The plan and the judgement are analysis::plan_verify and judge_verify.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>

#include "analysis/verify_plan.h"
#include "cli/commands.h"
#include "cli/measurement.h"
#include "cli/output_dir.h"
#include "cli/program_launch.h"
#include "cli/report_files.h"
#include "common/error.h"
#include "common/safe_file.h"
#include "output/verify_reporters.h"
#include "output/reporters.h"

namespace ompscope::cli {
namespace {

// One run of the program as the user runs it (stdout discarded: only its time is wanted); a run
// that fails is an error, since a setting that breaks the program gains nothing. A run ended by a
// signal sent to ompscope (and passed on to the program) counts nothing: verify stops, reports
// the runs it has, and ends as the signal would (main.cpp).
std::optional<double> timed_run(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                                const std::string& what) {
  const LaunchOutcome o = launch_and_wait({argv, env, true});
  if (signal_received()) return std::nullopt;
  if (!o.ok())
    throw Error(fmt::format("{} {}: the program {} (verify needs runs that succeed)", fmt::join(argv, " "), what,
                            o.describe()));
  return o.wall_s;
}

}  // namespace

Command add_verify_command(CLI::App& parent) {
  struct Options {
    std::string dir, out, format = "text";
    int threads = 0, repeats = 5;
  };
  auto options = std::make_shared<Options>();
  CLI::App* app = parent.add_subcommand(
      "verify", "check a report's findings whose fix is a runtime setting: re-run the program with it and measure the gain");
  app->add_option("dir", options->dir, "output directory of profile or scale")->required();
  app->add_option("--format", options->format, fmt::format("{}", fmt::join(output::names_of(output::verify_reporters()), " | ")))
      ->check(CLI::IsMember(output::names_of(output::verify_reporters())));
  app->add_option("-t,--threads", options->threads, "the thread count to verify at (default: the report's largest)")
      ->check(CLI::PositiveNumber);
  app->add_option("-r,--repeats", options->repeats, "runs of the program with each setting and without (default 5)")
      ->check(CLI::Range(1, 1000));
  CLI::Option* out = app->add_option("-o,--output", options->out, "write verify.json and verify.txt into this directory");
  return {app, [options, out]() -> int {
            const report::Report report = read_report_file(options->dir);
            report::VerifyResult result = analysis::plan_verify(
                report, options->dir, options->threads > 0 ? std::optional(options->threads) : std::nullopt);
            std::optional<OutputDir> dir;
            if (out->count() > 0) dir.emplace(OutputDir::claim(options->out, "verify"));
            if (!result.settings.empty()) {
              if (result.command.empty()) throw Error(fmt::format("{}: the report names no program to run", options->dir));
              // As scale ran it: the count, the binding (unless the user set one), the count in the
              // program's own arguments where it takes one ({threads}).
              result.environment = binding_environment();
              result.environment["OMP_NUM_THREADS"] = std::to_string(result.threads);
              result.repeats = options->repeats;
              const std::vector<std::string> argv = with_thread_count(result.command, result.threads);
              // Interleaved: each repeat runs the program as it was and with each setting, in an order
              // that rotates, so that a slow stretch of the machine falls on all of them alike.
              const size_t n = result.settings.size() + 1;
              for (int k = 0; k < options->repeats && !signal_received(); ++k)
                for (size_t j = 0; j < n && !signal_received(); ++j) {
                  const size_t which = (j + static_cast<size_t>(k)) % n;
                  std::map<std::string, std::string> env = result.environment;
                  if (which == 0) {
                    if (const auto wall = timed_run(argv, env, "as it was")) result.baseline_wall_s.push_back(*wall);
                    continue;
                  }
                  report::RuntimeSetting& s = result.settings[which - 1];
                  for (const auto& [k2, v] : s.env) env[k2] = v;
                  if (const auto wall = timed_run(argv, env, "with " + s.name)) s.wall_s.push_back(*wall);
                }
              analysis::judge_verify(result);
            }
            if (dir)
              for (const output::VerifyReporter& r : output::verify_reporters())
                write_file_replacing(dir->path() / r.file, r.render(result));
            fmt::print("{}", output::find_verify_reporter(options->format)->render(result));
            return 0;
          }};
}

}  // namespace ompscope::cli
