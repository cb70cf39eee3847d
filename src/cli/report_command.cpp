// ompscope report DIR: renders a saved report.json again, in any format.
#include <fmt/format.h>

#include <filesystem>

#include "cli/commands.h"
#include "cli/measurement.h"
#include "cli/report_files.h"
#include "common/error.h"
#include "output/csv_report.h"
#include "output/html_report.h"
#include "output/text_report.h"
#include "report/report_json.h"

namespace ompscope::cli {
namespace fs = std::filesystem;
namespace {

report::Report analyse_raw_log(const std::string& dir) {
  analysis::MeasuredRun run;
  run.record.status = "ok";
  run.record.log = dir;
  run.analysis = analyse_log(dir, nullptr, run.record);
  return analysis::build_report({}, core_count(), {run}, bench_costs_of({run}));
}

}  // namespace

Command add_report_command(CLI::App& parent) {
  struct Options {
    std::string dir;
    std::string format = "text";
  };
  auto options = std::make_shared<Options>();
  CLI::App* app = parent.add_subcommand("report", "render a saved report (DIR/report.json) as text, json, csv or html");
  app->add_option("dir", options->dir, "output directory of profile or scale")->required();
  app->add_option("--format", options->format, "text | json | csv | html")
      ->check(CLI::IsMember({"text", "json", "csv", "html"}));
  return {app, [options]() -> int {
            // A raw log directory (e.g. from OMP_TOOL_LIBRARIES set by hand) is analysed first.
            const bool raw_log = std::filesystem::exists(std::filesystem::path(options->dir) / kMetaFileName);
            // The ranks' reports of an MPI job not merged yet (docs/mpi.md) are merged first.
            const fs::path dir = options->dir;
            std::optional<report::Report> merged;
            if (!raw_log && !fs::exists(dir / "report.json") && has_rank_reports(dir)) merged = merge_rank_reports_in(dir, 0);
            const report::Report report =
                raw_log ? analyse_raw_log(options->dir) : merged ? *merged : read_report_file(options->dir);
            if (options->format == "json") fmt::print("{}\n", report::to_json(report).dump(2));
            else if (options->format == "csv") fmt::print("{}", output::render_csv_report(report));
            else if (options->format == "html") fmt::print("{}", output::render_html_report(report));
            else fmt::print("{}", output::render_text_report(report, {.colour = colour_wanted(stdout)}));
            return 0;
          }};
}

}  // namespace ompscope::cli
