// ompscope scale: the program at several thread counts, repeated; ranked causes and gains.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <chrono>

#include "cli/commands.h"
#include "cli/measurement.h"
#include "cli/report_files.h"
#include "analysis/scaling_models.h"
#include "common/error.h"
#include "common/thread_count_phrase.h"

namespace ompscope::cli {
namespace {

// 1, 2, 4, ... up to the core count, plus the core count itself.
std::vector<int> default_thread_counts(int cores) {
  std::vector<int> counts;
  for (int t = 1; t <= cores; t *= 2) counts.push_back(t);
  if (counts.back() != cores) counts.push_back(cores);
  return counts;
}

class Progress {
 public:
  explicit Progress(int total) : total_(total), terminal_(isatty(STDERR_FILENO)), start_(Clock::now()) {}
  void starting(int index, int threads, int repeat, int cores) {
    std::string eta;
    if (index > 0) {
      const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
      eta = fmt::format(", about {:.0f} s left", elapsed / index * (total_ - index));
    }
    const std::string line = fmt::format("ompscope: run {}/{}: {}{}, repeat {}{}", index + 1, total_, threads_phrase(threads),
                                         threads > cores ? " (oversubscribed)" : "", repeat + 1, eta);
    // The program's own output shares the terminal: one line per run, never overwritten.
    fmt::print(stderr, "{}{}\n", terminal_ ? "\033[2m" : "", line + (terminal_ ? "\033[0m" : ""));
  }

 private:
  using Clock = std::chrono::steady_clock;
  int total_;
  bool terminal_;
  Clock::time_point start_;
};

}  // namespace

Command add_scale_command(CLI::App& parent) {
  struct Options {
    std::vector<int> threads;
    int repeat = 3;
    std::string out = "ompscope-scale";
    std::string runtime = "native";
    std::vector<std::string> program;
  };
  auto options = std::make_shared<Options>();
  CLI::App* app = parent.add_subcommand("scale", "run at several thread counts; rank regions by the time that could be won back");
  app->add_option("-t,--threads", options->threads, "thread counts, e.g. 1,2,4 (default: powers of two up to the cores, and the cores)")
      ->delimiter(',')
      ->check(CLI::Range(1, 4096));
  app->add_option("-r,--repeat", options->repeat, "runs per thread count; the median is reported")->check(CLI::Range(1, 100));
  app->add_option("-o,--output", options->out, "output directory (report.json, report.html, runs/)");
  add_runtime_option(app, options->runtime);
  app->add_option("program", options->program, "the program and its arguments, after --")->required();
  app->positionals_at_end();
  return {app, [options]() -> int {
            const int cores = core_count();
            std::vector<int> counts = options->threads.empty() ? default_thread_counts(cores) : options->threads;
            std::sort(counts.begin(), counts.end());
            counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
            const Target target = resolve_target(options->program, runtime_choice(options->runtime));
            prepare_output_dir(options->out);

            Progress progress(static_cast<int>(counts.size()) * options->repeat);
            std::vector<analysis::MeasuredRun> runs;
            int status = 0, index = 0;
            // Repeats interleave thread counts so slow drifts of the machine hit all counts alike.
            for (int r = 0; r < options->repeat; ++r) {
              for (int t : counts) {
                progress.starting(index++, t, r, cores);
                RunResult result = run_under_tool(target, options->out, RunRequest{t, r, true});
                if (!result.outcome.ok()) {
                  fmt::print(stderr, "ompscope: at {} the program {}\n", threads_phrase(t), result.outcome.describe());
                  if (status == 0) status = result.outcome.shell_status();
                }
                runs.push_back(std::move(result.run));
              }
            }
            analysis::Report report = analysis::build_report(options->program, cores, runs);
            for (auto& n : target_notes(target)) report.notes.push_back(n);
            if (target.swapped && !runs.empty())
              report.notes.push_back({"runtime_comparison", runtime_comparison_note(target, counts.back(), runs.back().record.wall_s), {}});
            if (const auto bind = binding_environment(); !bind.empty() && counts.front() <= cores) {
              std::vector<std::string> set;
              for (const auto& [key, value] : bind) set.push_back(key + "=" + value);
              const auto places = bind.find("OMP_PLACES");
              const bool from_sysfs = places != bind.end() && places->second != "cores";
              report.notes.push_back({"binding",
                                      fmt::format("runs at up to {} were bound: {} ({}set OMP_PLACES or "
                                                  "OMP_PROC_BIND to choose otherwise)",
                                                  threads_phrase(cores), fmt::join(set, " "),
                                                  from_sysfs ? "one place per core, from the kernel's CPU topology; " : ""),
                                      {}});
            }
            if (counts.back() > cores)
              report.notes.push_back({"oversubscribed",
                                      fmt::format("thread counts above {} are oversubscribed: more threads than cores, "
                                                  "so their times measure time-sharing, not scaling", cores),
                                      {}});
            analysis::add_scaling_models(report);
            write_report_files(options->out, report);
            show_text_report(report, stderr);
            fmt::print(stderr, "ompscope: report written to {}/report.json and report.html\n", options->out);
            return status;
          }};
}

}  // namespace ompscope::cli
