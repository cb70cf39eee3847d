// ompscope scale: the program at several thread counts, repeated; ranked causes and gains.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <strings.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>

#include "cli/commands.h"
#include "cli/measurement.h"
#include "cli/report_files.h"
#include "common/error.h"
#include "common/safe_file.h"
#include "common/launcher_rank.h"
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

// Bytes of the files under `dir` (0 if it does not exist).
uint64_t directory_bytes(const std::filesystem::path& dir) {
  std::error_code ec;
  uint64_t bytes = 0;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec); !ec && it != std::filesystem::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec)) bytes += it->file_size(ec);
  return bytes;
}

bool remove_log(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return !ec;
}

std::string byte_text(uint64_t bytes) {
  if (bytes >= 1u << 30) return fmt::format("{:.1f} GB", static_cast<double>(bytes) / (1u << 30));
  if (bytes >= 1u << 20) return fmt::format("{:.1f} MB", static_cast<double>(bytes) / (1u << 20));
  return fmt::format("{:.0f} kB", static_cast<double>(bytes) / 1024);
}


// How the runs were bound: not at all where the user's OMP_PROC_BIND=false (or empty) lets them
// float, whatever places scale sets beside it; else the binding scale set where the smallest
// count fits the cores. None where neither.
std::optional<report::Note> binding_note(int smallest_count, int cores) {
  const char* user_bind = getenv("OMP_PROC_BIND");
  if (user_bind && (strcasecmp(user_bind, "false") == 0 || *user_bind == '\0'))
    return report::Note{"binding",
                        fmt::format("runs were not bound: OMP_PROC_BIND={} in the environment; each thread may move "
                                    "between CPUs during a run",
                                    user_bind),
                        {}};
  const auto bind = binding_environment();
  if (bind.empty() || smallest_count > cores) return std::nullopt;
  std::vector<std::string> set;
  for (const auto& [key, value] : bind) set.push_back(key + "=" + value);
  const auto places = bind.find("OMP_PLACES");
  const bool from_sysfs = places != bind.end() && places->second != "cores";
  return report::Note{"binding",
                      fmt::format("runs at up to {} were bound: {} ({}set OMP_PLACES or OMP_PROC_BIND to choose "
                                  "otherwise)",
                                  threads_phrase(cores), fmt::join(set, " "),
                                  from_sysfs ? "one place per core, from the kernel's CPU topology; " : ""),
                      {}};
}

// Counts whose threads time-share the cores: every count where a node holds more ranks than
// cores, else those above the cores each rank has (`largest_team`: the largest team that ran).
std::optional<report::Note> oversubscription_note(int largest_team, int cores, int ranks_per_node) {
  const int rank_cores = std::max(1, cores / ranks_per_node);
  if (ranks_per_node > cores)
    return report::Note{"oversubscribed",
                        fmt::format("every thread count is oversubscribed: {} ranks share this node's {} cores even at "
                                    "one thread each, so the times measure time-sharing, not scaling",
                                    ranks_per_node, cores),
                        {}};
  if (largest_team <= rank_cores) return std::nullopt;
  return report::Note{"oversubscribed",
                      ranks_per_node > 1
                          ? fmt::format("thread counts above {} are oversubscribed: {} ranks of that many threads need "
                                        "more than this node's {} cores, so their times measure time-sharing, not "
                                        "scaling",
                                        rank_cores, ranks_per_node, cores)
                          : fmt::format("thread counts above {} are oversubscribed: more threads than cores, so their "
                                        "times measure time-sharing, not scaling",
                                        cores),
                      {}};
}

// The largest team that ran among `runs` (the report's largest count); `otherwise` where none.
int largest_team(const std::vector<analysis::MeasuredRun>& runs, int otherwise) {
  int largest = 0;
  for (const analysis::MeasuredRun& run : runs) largest = std::max(largest, run.record.threads);
  return largest > 0 ? largest : otherwise;
}

}  // namespace

Command add_scale_command(CLI::App& parent) {
  struct Options {
    std::vector<int> threads;
    int repeat = 3;
    std::string out = "ompscope-scale";
    std::string runtime = "native";
    std::string launcher;
    bool keep_logs = false;
    bool weak = false;
    std::vector<std::string> program;
  };
  auto options = std::make_shared<Options>();
  CLI::App* app = parent.add_subcommand("scale", "run at several thread counts; rank regions by the time lost, explained by a cause or not");
  app->add_option("-t,--threads", options->threads, "thread counts, e.g. 1,2,4 (default: powers of two up to the cores, and the cores)")
      ->delimiter(',')
      ->check(CLI::Range(1, 4096));
  app->add_option("-r,--repeat", options->repeat, "runs per thread count; the median is reported")->check(CLI::Range(1, 100));
  app->add_option("-o,--output", options->out, "output directory (report.json, report.html, runs/)");
  add_runtime_option(app, options->runtime);
  CLI::Option* launcher_option =
      app->add_option("--launcher", options->launcher,
                      "run each job through this MPI launcher, e.g. \"mpirun -np 2\" or \"srun -n 2\"; the report "
                      "merges the ranks (docs/mpi.md)");
  app->add_flag("--keep-logs", options->keep_logs,
                "keep the raw log of every run in runs/ (default: of the first repeat at each thread count)");
  app->add_flag("--weak", options->weak,
                "the program scales weakly (its work grows with the team by design): efficiency T(t0)/T(t), time lost "
                "T(t) - T(t0), and no replicated_work");
  app->add_option("program", options->program, "the program and its arguments, after --")->required();
  app->positionals_at_end();
  return {app, [options, launcher_option]() -> int {
            const int cores = core_count();
            std::vector<int> counts = options->threads.empty() ? default_thread_counts(cores) : options->threads;
            std::sort(counts.begin(), counts.end());
            counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
            std::optional<Launcher> launcher;
            if (launcher_option->count() > 0) {
              launcher = resolve_launcher(options->launcher);
              if (names_a_launcher(options->program.front()))
                throw Error(fmt::format("--launcher starts the job: put the program itself after --, not '{}'",
                                        options->program.front()));
            }
            Target target = resolve_target(options->program, runtime_choice(options->runtime));
            target.launcher = launcher;
            // DIR, or DIR/rank-R under mpirun; claimed (marker, lock) until the command returns.
            const OutputDir claim = prepare_output_dir(options->out, "scale");
            options->out = claim.path().string();

            Progress progress(static_cast<int>(counts.size()) * options->repeat);
            std::vector<analysis::MeasuredRun> runs;
            // Through a launcher: each rank's runs, by rank (docs/mpi.md, "scale through a launcher").
            std::map<int, std::vector<analysis::MeasuredRun>> rank_runs;
            int ranks_per_node = 1;
            // The program's other processes that ran OpenMP code: each one's runs, command, pid.
            std::vector<std::vector<analysis::MeasuredRun>> process_runs;
            std::vector<std::vector<std::string>> process_commands;
            std::vector<int> process_pids;
            int process_pid = 0;
            std::vector<std::string> process_command;
            int status = 0, index = 0;
            uint64_t written = 0, kept = 0;
            // What becomes of a run's log once it is read: its bytes counted, and a later repeat's
            // removed (the report holds everything read from it: NPB UA left 615 MB per run before
            // lock sampling). Whether it was removed.
            struct LogFate {
              uint64_t bytes = 0;
              bool removed = false;
            };
            const auto settle_log = [&](const RunResult& result, int r) {
              LogFate fate{directory_bytes(result.run_dir), false};
              fate.removed = r > 0 && !options->keep_logs && remove_log(result.run_dir);
              return fate;
            };
            // What a run left, once its logs are read: its failure said, its log's fate recorded,
            // its analysis filed by rank or process.
            const auto take = [&](RunResult& result, int t, bool first_job, LogFate fate) {
              if (!result.outcome.ok()) {
                fmt::print(stderr, "ompscope: at {} the {} {}{}\n", threads_phrase(t), launcher ? "job" : "program",
                           result.outcome.describe(),
                           nothing_captured(result)
                               ? fmt::format(": nothing captured before SIG{}", signal_name(result.outcome.signal))
                               : "");
                if (status == 0) status = result.outcome.shell_status();
              }
              if (launcher && result.ranks.empty() && !result.run.record.observed && first_job)
                throw Error(fmt::format(
                    "the launcher '{}' ran, but no rank of the program was observed{}: is it an MPI launcher, "
                    "and does it pass ompscope's variables on to the ranks (docs/mpi.md)?",
                    options->launcher, result.outcome.ok() ? "" : " (it " + result.outcome.describe() + ", its message above)"));
              written += fate.bytes;
              if (fate.removed) {
                result.run.record.log.clear();
                for (auto& rank : result.ranks) rank.record.log.clear();
                for (auto& p : result.processes) p.run.record.log.clear();
              } else {
                kept += fate.bytes;
              }
              if (!result.ranks.empty()) {
                ranks_per_node = std::max(ranks_per_node, result.ranks_per_node);
                for (auto& rank : result.ranks) rank_runs[rank.record.rank].push_back(std::move(rank));
              } else if (launcher && !rank_runs.empty()) {
                // A job no rank's log came back from (it failed): its run goes with rank 0's.
                result.run.record.rank = rank_runs.begin()->first;
                rank_runs.begin()->second.push_back(std::move(result.run));
              } else {
                runs.push_back(std::move(result.run));
                // The other processes that ran OpenMP code, by their place (docs/safety.md, "Processes and signals").
                for (size_t k = 0; k < result.processes.size(); ++k) {
                  if (process_runs.size() <= k) {
                    process_runs.emplace_back();
                    process_commands.push_back(result.processes[k].command);
                    process_pids.push_back(result.processes[k].pid);
                  }
                  process_runs[k].push_back(std::move(result.processes[k].run));
                }
                if (process_pid == 0) process_pid = result.pid, process_command = result.command;
              }
            };
            // Without a launcher, the logs are read once every run has ended, as many at once as
            // the machine has cores: never beside a measured run, and the command's time beyond
            // its runs divided by the cores (docs/design.md, "Pipeline"). A launcher's jobs are read as
            // they end: the first tells whether the launcher passes ompscope's variables on.
            struct Ended {
              RunResult result;
              int threads, repeat;
              LogFate fate;  // settled by the thread that read the log, beside the other runs' reading
            };
            std::vector<Ended> ended;
            // Repeats interleave thread counts so slow drifts of the machine hit all counts alike.
            for (int r = 0; r < options->repeat; ++r) {
              for (int t : counts) {
                // A rank's threads share the node's cores with the other ranks there.
                progress.starting(index++, t, r, std::max(1, cores / ranks_per_node));
                // Through a launcher, ompscope binds nothing: the ranks would all take the same
                // cores; the launcher's binding applies.
                Target at_count = target;
                at_count.argv = with_thread_count(target.argv, t);  // `-t {threads}` in the program's arguments
                // Only the smallest count's task graphs are replayed (the replay's source, task_replay.h).
                RunRequest request{t, r, !launcher};
                request.replay = t == *std::min_element(counts.begin(), counts.end());
                request.defer_analysis = !launcher;
                RunResult result = run_under_tool(at_count, options->out, request);
                if (request.defer_analysis)
                  ended.push_back({std::move(result), t, r, {}});
                else
                  take(result, t, index == 1, settle_log(result, r));
                if (signal_received()) break;  // passed on to the program: report what ran (main.cpp)
              }
              if (signal_received()) break;
            }
            if (!ended.empty()) {
              std::vector<RunResult*> unread;
              for (Ended& e : ended) unread.push_back(&e.result);
              fmt::print(stderr, "ompscope: reading the logs of {} runs on {} cores\n", unread.size(),
                         std::min<int>(static_cast<int>(unread.size()), std::max(1, cores)));
              analyse_runs(unread, [&](size_t i) { ended[i].fate = settle_log(ended[i].result, ended[i].repeat); });
              for (Ended& e : ended) take(e.result, e.threads, false, e.fate);
            }
            if (!rank_runs.empty() && !runs.empty()) {
              // Jobs that failed before the first whose ranks came back go with rank 0's too.
              for (auto& run : runs) run.record.rank = rank_runs.begin()->first;
              auto& first = rank_runs.begin()->second;
              first.insert(first.begin(), std::make_move_iterator(runs.begin()), std::make_move_iterator(runs.end()));
              runs.clear();
            }
            const int rank_cores = std::max(1, cores / ranks_per_node);
            std::vector<std::string> command = options->program;
            if (launcher) {
              command = launcher->words;
              command.insert(command.end(), options->program.begin(), options->program.end());
            }
            // The notes every report of these runs gets after its own ones: the target's, the
            // runtime comparison and the binding (where ompscope bound the runs), the launcher's.
            // A job's ranks (the program was a launcher) get neither of the middle two.
            std::vector<report::Note> notes = target_notes(target);
            if (target.swapped && !runs.empty() && !launcher && !signal_received())
              notes.push_back({"runtime_comparison", runtime_comparison_note(target, counts.back(), runs.back().record.wall_s), {}});
            if (!launcher && rank_runs.empty())
              if (std::optional<report::Note> note = binding_note(counts.front(), cores)) notes.push_back(std::move(*note));
            // More ranks than cores on a node: every count, one thread per rank included, time-shares.
            const bool all_shared = ranks_per_node > cores;
            if (launcher)
              notes.push_back(
                  {"launcher",
                   fmt::format("each job was started by {} ({}){}; ompscope bound no thread, the launcher's binding "
                               "applies",
                               fmt::join(launcher->words, " "), launcher_name(launcher->kind),
                               all_shared ? fmt::format(", {} ranks on this node's {} cores", ranks_per_node, cores)
                               : ranks_per_node > 1
                                   ? fmt::format(", {} ranks on this node's {} cores: {} {} each", ranks_per_node, cores,
                                                 rank_cores, rank_cores == 1 ? "core" : "cores")
                                   : ""),
                   {}});
            analysis::Measurement measured{command, cores, options->weak, {}, notes, true, &bench_cache()};
            // Each report's notes end with the oversubscription of the team that ran, if any.
            const auto assemble = [&](const std::vector<analysis::MeasuredRun>& own_runs) {
              measured.notes = notes;
              if (auto note = oversubscription_note(largest_team(own_runs, counts.back()), cores, ranks_per_node))
                measured.notes.push_back(std::move(*note));
              return analysis::assemble_report(measured);
            };
            if (!rank_runs.empty()) {
              // Each rank's report in DIR/rank-R, as `profile` writes them, and the merged report
              // of all ranks in DIR (docs/mpi.md, "Merged report").
              measured.cores = rank_cores;
              std::vector<report::Report> ranks;
              for (auto& [rank, its_runs] : rank_runs) {
                measured.processes.clear();
                measured.processes.push_back({std::move(its_runs), {}, 0});
                ranks.push_back(assemble(measured.processes.front().runs));
              }
              const report::Report merged = write_job_reports(options->out, ranks);
              show_text_report(merged, stderr);
              fmt::print(stderr, "ompscope: the runs wrote {} of logs; {} kept in {}/runs ({})\n", byte_text(written),
                         byte_text(kept), options->out,
                         options->keep_logs || options->repeat == 1 ? "every run" : "the first repeat at each thread count; --keep-logs keeps all");
              fmt::print(stderr, "ompscope: the program ran as {} MPI ranks: each rank's report in {}/rank-R/, the merged "
                         "report in {}/report.json and report.html\n", rank_runs.size(), options->out, options->out);
              return status;
            }
            // The runs moved in (a braced list copies each one's analysis).
            measured.processes.clear();
            measured.processes.push_back({std::move(runs), process_command, process_pid});
            for (size_t k = 0; k < process_runs.size(); ++k)
              measured.processes.push_back({std::move(process_runs[k]), process_commands[k], process_pids[k]});
            const report::Report report = assemble(measured.processes.front().runs);
            write_report_files(options->out, report);
            show_text_report(report, stderr);
            fmt::print(stderr, "ompscope: the runs wrote {} of logs; {} kept in {}/runs ({})\n", byte_text(written),
                       byte_text(kept), options->out,
                       options->keep_logs || options->repeat == 1 ? "every run" : "the first repeat at each thread count; --keep-logs keeps all");
            fmt::print(stderr, "ompscope: report written to {}/report.json and report.html\n", options->out);
            return status;
          }};
}

}  // namespace ompscope::cli
