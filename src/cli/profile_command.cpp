// ompscope profile: one run under the tool, a per-region summary with each thread's split.
#include <fmt/format.h>

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
            const std::string comparison =
                signal_received() ? std::string() : runtime_comparison_note(target, 0, result.outcome.wall_s);
            auto report_of = [&](const analysis::MeasuredRun& run) {
              analysis::Report report = analysis::build_report(options->program, core_count(), {run}, bench_costs_of({run}));
              for (auto& n : target_notes(target)) report.notes.push_back(n);
              if (!comparison.empty()) report.notes.push_back({"runtime_comparison", comparison, {}});
              return report;
            };
            if (!result.ranks.empty()) {
              // `profile -- mpirun -np N ./app`: each rank's report in DIR/rank-R, as each
              // ompscope of `mpirun -np N ompscope profile` writes it (docs/mpi.md).
              for (analysis::MeasuredRun run : result.ranks) {
                char rank_name[32];
                rank_directory_name(run.record.rank, rank_name, sizeof rank_name);
                const fs::path rank_out = out / rank_name;
                make_own_directory(rank_out);
                run.record.log = fs::relative(out / run.record.log, rank_out).string();
                write_report_files(rank_out, report_of(run));
              }
              if (const auto merged = merge_rank_reports_in(out, static_cast<int>(result.ranks.size()))) {
                show_text_report(*merged, stderr);
                fmt::print(stderr, "ompscope: the program ran as {} MPI ranks: each rank's report in {}/rank-R/, the "
                           "merged report in {}/report.json and report.html\n", result.ranks.size(), out.string(),
                           out.string());
              }
            } else {
              analysis::Report report = report_of(result.run);
              if (!result.processes.empty()) {
                // Other processes ran OpenMP code (docs/safety.md, "Processes and signals"): listed after the
                // program's own, as ranks are.
                std::vector<std::vector<analysis::MeasuredRun>> processes = {{result.run}};
                std::vector<std::vector<std::string>> commands = {result.command};
                std::vector<int> pids = {result.pid};
                for (const ProcessRun& p : result.processes) {
                  processes.push_back({p.run});
                  commands.push_back(p.command);
                  pids.push_back(p.pid);
                }
                analysis::Report merged = process_report(options->program, core_count(), processes, commands, pids);
                for (auto& n : target_notes(target)) merged.notes.push_back(n);
                if (!comparison.empty()) merged.notes.push_back({"runtime_comparison", comparison, {}});
                report = std::move(merged);
              }
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
