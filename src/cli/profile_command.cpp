// ompscope profile: one run under the tool, a per-region summary with each thread's split.
#include <fmt/format.h>

#include <utility>

#include "cli/commands.h"
#include "cli/measurement.h"
#include "cli/report_files.h"
#include "common/safe_file.h"
#include "common/launcher_rank.h"

namespace ompscope::cli {
namespace fs = std::filesystem;

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
            // DIR, or DIR/rank-R under mpirun; claimed (marker, lock) until the command returns.
            const OutputDir claim = prepare_output_dir(options->out, "profile");
            const fs::path out = claim.path();
            RunResult result = run_under_tool(target, out, RunRequest{});
            std::vector<report::Note> notes = target_notes(target);
            if (!signal_received())
              if (std::string c = runtime_comparison_note(target, 0, result.outcome.wall_s); !c.empty())
                notes.push_back({"runtime_comparison", std::move(c), {}});
            analysis::Measurement measured{options->program, core_count(), false, {}, notes, false, &bench_cache()};
            if (!result.ranks.empty()) {
              // `profile -- mpirun -np N ./app`: each rank's report in DIR/rank-R, as each
              // ompscope of `mpirun -np N ompscope profile` writes it (docs/mpi.md).
              std::vector<report::Report> ranks;
              for (analysis::MeasuredRun& run : result.ranks) {
                measured.processes.clear();
                measured.processes.push_back(analysis::Measurement::Process::of(std::move(run)));
                ranks.push_back(analysis::assemble_report(measured));
              }
              const report::Report merged = write_job_reports(out, ranks);
              show_text_report(merged, stderr);
              fmt::print(stderr, "ompscope: the program ran as {} MPI ranks: each rank's report in {}/rank-R/, the "
                         "merged report in {}/report.json and report.html\n", result.ranks.size(), out.string(),
                         out.string());
            } else {
              // Other processes that ran OpenMP code (docs/safety.md, "Processes and signals") are
              // listed after the program's own, as ranks are.
              // The analyses moved in; the records stay, read below (nothing_captured).
              measured.processes.push_back(analysis::Measurement::Process::of(
                  {result.run.record, std::exchange(result.run.analysis, std::nullopt)}, result.command, result.pid));
              for (ProcessRun& p : result.processes)
                measured.processes.push_back(analysis::Measurement::Process::of(std::move(p.run), p.command, p.pid));
              const report::Report report = analysis::assemble_report(measured);
              write_report_files(out, report);
              if (!own_rank().ranked()) {
                show_text_report(report, stderr);
                fmt::print(stderr, "ompscope: report written to {}/report.json and report.html\n", out.string());
              } else if (const auto merged = merge_rank_reports_in(options->out, own_rank().size)) {
                // The last rank to finish merges them all (docs/mpi.md); any rank may merge a
                // report another rank rewrites later, whose own merge then follows.
                show_text_report(*merged, stderr);
                fmt::print(stderr, "ompscope: rank {} merged the {} ranks' reports into {}/report.json and report.html\n",
                           own_rank().rank, merged->ranks.size(), options->out);
              } else {
                fmt::print(stderr, "ompscope: rank {}'s report written to {}/report.json; the last rank to finish "
                           "merges them into {}/report.json\n", own_rank().rank, out.string(), options->out);
              }
            }
            if (!result.outcome.ok())
              fmt::print(stderr, "ompscope: the program {}; {}\n", result.outcome.describe(),
                         nothing_captured(result) ? fmt::format("nothing captured before SIG{}", signal_name(result.outcome.signal))
                                                  : "the report holds what was captured until then");
            return result.outcome.shell_status();
          }};
}

}  // namespace ompscope::cli
