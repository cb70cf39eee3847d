// ompscope report DIR: renders a saved report.json again, in any format.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>

#include "cli/commands.h"
#include "cli/measurement.h"
#include "cli/report_files.h"
#include "common/error.h"
#include "output/reporters.h"
#include "report/report_json.h"

namespace ompscope::cli {
namespace fs = std::filesystem;
namespace {

std::vector<std::string> format_names() { return output::names_of(output::reporters()); }

// How a process's log is read: from the launch where profile or scale saved its points
// (SavedLaunch), the program's own process's timeline starting there, as that command's did.
analysis::LogAnalysis reading(const std::optional<SavedLaunch>& launch, bool own) {
  return {.starts_at_launch = launch && own, .bench = &bench_cache(), .workers = core_count()};
}

report::Report analyse_raw_log(const std::string& dir) {
  analysis::MeasuredRun run;
  run.record.status = "ok";
  run.record.log = dir;
  // A process's directory (RUN/pid-PID) of a run profile or scale made: its points are in RUN.
  fs::path process_dir = fs::absolute(dir).lexically_normal();
  if (!process_dir.has_filename()) process_dir = process_dir.parent_path();  // "RUN/pid-PID/"
  const std::optional<SavedLaunch> launch = read_saved_launch(process_dir.parent_path());
  const bool own = launch && process_dir.filename() == fmt::format("pid-{}", launch->program_pid);
  run.analysis = analysis::analyse_log(dir, launch ? launch->clock : analysis::LaunchClock{}, run.record, reading(launch, own));
  analysis::Measurement measured{{}, core_count(), false, {}, {}, false, &bench_cache()};
  measured.processes.push_back(analysis::Measurement::Process::of(std::move(run)));
  return analysis::assemble_report(measured);
}

// The report of the runs' logs a profile, scale or trace left in DIR/runs (or of one run's
// directory) without a report.json: ompscope was stopped before it wrote one, or it was a
// trace. The programs' exit statuses were not kept: each run says so.
report::Report analyse_runs(const fs::path& dir) {
  std::vector<std::pair<fs::path, std::string>> run_dirs;  // with the name that says the count
  if (has_process_logs(dir)) {
    run_dirs.emplace_back(dir, dir.filename().string());
  } else {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir / "runs", ec))
      if (entry.is_directory(ec) && has_process_logs(entry.path())) run_dirs.emplace_back(entry.path(), entry.path().filename().string());
    std::sort(run_dirs.begin(), run_dirs.end());
  }
  if (run_dirs.empty())
    throw Error(fmt::format("{}: no report.json and no run's log in it (runs/NAME/pid-PID/meta.txt)", dir.string()));
  analysis::Measurement measured{{}, core_count(), false, {}, {}, false, &bench_cache()};
  for (const auto& [run_dir, name] : run_dirs) {
    int threads = 0, repeat = 0;
    if (sscanf(name.c_str(), "t%d-r%d", &threads, &repeat) != 2) {
      threads = 0;
      if (sscanf(name.c_str(), "run-r%d", &repeat) != 1) repeat = 0;
    }
    const std::optional<SavedLaunch> launch = read_saved_launch(run_dir);
    const std::vector<ProcessLog> logs = process_logs(run_dir, launch ? launch->program_pid : 0);
    for (size_t k = 0; k < logs.size(); ++k) {
      analysis::MeasuredRun run;
      run.record.threads = threads;
      run.record.repeat = repeat;
      run.record.status = "ok";
      run.record.log = fs::relative(logs[k].dir, dir).string();
      try {
        run.analysis = analysis::analyse_log(logs[k].dir, launch ? launch->clock : analysis::LaunchClock{}, run.record,
                                             reading(launch, k == 0 && logs[k].own));
      } catch (const Error& e) {
        if (k == 0) throw;
        continue;
      }
      if (!run.record.finalized)
        run.record.status = "the tool was not finalised (the process was killed, or ompscope was stopped before it)";
      if (measured.processes.size() <= k) {
        std::vector<std::string> words;
        std::istringstream in(logs[k].meta.command);
        for (std::string w; in >> w;) words.push_back(w);
        measured.processes.push_back({{}, words, logs[k].meta.pid});
      }
      measured.processes[k].runs.push_back(std::move(run));
    }
  }
  if (measured.processes.empty())
    throw Error(fmt::format("{}: no run's log in it could be read (runs/NAME/pid-PID/meta.txt)", dir.string()));
  measured.command = measured.processes.front().command;
  measured.notes.push_back({"from_logs",
                          fmt::format("rebuilt from the runs' logs in {}: ompscope left no report.json there (it was "
                                      "stopped, or the directory is a trace's); the programs' exit statuses were not "
                                      "kept",
                                      dir.string()),
                          {}});
  return analysis::assemble_report(measured);
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
  app->add_option("--format", options->format, fmt::format("{}", fmt::join(format_names(), " | ")))
      ->check(CLI::IsMember(format_names()));
  return {app, [options]() -> int {
            // A raw log directory (e.g. from OMP_TOOL_LIBRARIES set by hand) is analysed first.
            const bool raw_log = std::filesystem::exists(std::filesystem::path(options->dir) / kMetaFileName);
            // The ranks' reports of an MPI job not merged yet (docs/mpi.md) are merged first.
            const fs::path dir = options->dir;
            std::optional<report::Report> merged;
            if (!raw_log && !fs::exists(dir / "report.json") && has_rank_reports(dir)) merged = merge_rank_reports_in(dir, 0);
            // A directory profile, scale or trace left without its report (stopped, or a trace).
            const bool unreported = !raw_log && !merged && !fs::exists(dir / "report.json") &&
                                    (has_process_logs(dir) || fs::is_directory(dir / "runs"));
            const report::Report report = raw_log      ? analyse_raw_log(options->dir)
                                          : merged     ? *merged
                                          : unreported ? analyse_runs(dir)
                                                       : read_report_file(options->dir);
            fmt::print("{}", output::find_reporter(options->format)->render(report, {.colour = colour_wanted(stdout)}));
            return 0;
          }};
}

}  // namespace ompscope::cli
