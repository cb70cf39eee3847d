// ompscope profile: one run under the tool, a per-region summary with each thread's split.
#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/measurement.h"
#include "cli/report_files.h"

namespace ompscope::cli {

Command add_profile_command(CLI::App& parent) {
  struct Options {
    std::string out = "ompscope-profile";
    std::string runtime = "native";
    std::vector<std::string> program;
  };
  auto options = std::make_shared<Options>();
  CLI::App* app = parent.add_subcommand("profile", "run the program once under the tool; summary per parallel region");
  app->add_option("-o,--output", options->out, "output directory (report.json, report.html, runs/)");
  add_runtime_option(app, options->runtime);
  app->add_option("program", options->program, "the program and its arguments, after --")->required();
  app->positionals_at_end();
  return {app, [options]() -> int {
            const Target target = resolve_target(options->program, runtime_choice(options->runtime));
            prepare_output_dir(options->out);
            RunResult result = run_under_tool(target, options->out, RunRequest{});
            std::vector<analysis::MeasuredRun> runs{result.run};
            analysis::Report report = analysis::build_report(options->program, core_count(), runs);
            for (auto& n : target_notes(target)) report.notes.push_back(n);
            if (auto n = runtime_comparison_note(target, 0, result.outcome.wall_s); !n.empty())
              report.notes.push_back({"runtime_comparison", n, {}});
            write_report_files(options->out, report);
            show_text_report(report, stderr);
            if (!result.outcome.ok())
              fmt::print(stderr, "ompscope: the program {}; the report holds what was captured until then\n",
                         result.outcome.describe());
            fmt::print(stderr, "ompscope: report written to {}/report.json and report.html\n", options->out);
            return result.outcome.shell_status();
          }};
}

}  // namespace ompscope::cli
