#include "cli/measurement.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <utility>

#include "analysis/pipeline.h"
#include "cli/bench_costs.h"
#include "cli/core_places.h"
#include "cli/cpu_busy.h"
#include "common/error.h"
#include "common/safe_file.h"
#include "common/side_by_side.h"
#include "common/thread_count_phrase.h"

namespace ompscope::cli {
namespace fs = std::filesystem;

std::map<std::string, std::string> binding_environment() {
  std::map<std::string, std::string> env;
  if (!getenv("OMP_PROC_BIND")) env["OMP_PROC_BIND"] = "close";
  if (!getenv("OMP_PLACES")) {
    static const std::string places = core_places_of_this_machine();
    env["OMP_PLACES"] = places.empty() ? "cores" : places;
  }
  return env;
}

// The CPUs the runs can use: the affinity mask and the cgroup's CPU quota (core_places.h), not
// the machine's online CPUs: under `taskset -c 0` a 2-thread run time-shares one CPU.
int core_count() {
  static const int n = usable_cpus_of_this_process();
  return n;
}

void add_runtime_option(CLI::App* app, std::string& value) {
  app->add_option("--runtime", value,
                  "runtime a GCC-built (libgomp) program is measured on: native (its own GNU libgomp, "
                  "interposed) or llvm (LLVM libomp's GOMP layer, with OMPT)")
      ->check(CLI::IsMember({"native", "llvm"}))
      ->capture_default_str();
}

RuntimeChoice runtime_choice(const std::string& value) {
  return value == "llvm" ? RuntimeChoice::Llvm : RuntimeChoice::Native;
}

Target resolve_target(const std::vector<std::string>& argv, RuntimeChoice choice) {
  if (argv.empty()) throw Error("no program given: put it after --, e.g. ompscope profile -- ./app args");
  Target t;
  t.argv = argv;
  t.resolved_path = find_program(argv[0]);
  if (t.resolved_path.empty()) throw Error(fmt::format("cannot start '{}': no such program", argv[0]));
  if (access(t.resolved_path.c_str(), X_OK) != 0)
    throw Error(fmt::format("cannot start '{}': not executable", t.resolved_path));
  t.runtime = detect_program_runtime(t.resolved_path);
  if (t.runtime.kind == RuntimeKind::None) {
    // A launcher (`mpirun -np 2 ./app`, docs/mpi.md): the program it runs is the first of its
    // arguments that is an executable with an OpenMP runtime.
    for (size_t i = 1; i < argv.size(); ++i) {
      std::error_code ec;
      if (!fs::is_regular_file(argv[i], ec) || access(argv[i].c_str(), X_OK) != 0) continue;
      if (const ProgramRuntime r = detect_program_runtime(argv[i]);
          r.kind != RuntimeKind::None && r.kind != RuntimeKind::Unknown) {
        t.runtime = r;
        break;
      }
    }
  }
  // Without it no runtime loads the tool: the runs would go unobserved and the report say only that
  // no region was seen (an ompscope binary copied away from its lib/ directory did just that).
  if (!fs::exists(tool_library_path()))
    throw Error(fmt::format("its tool library {} is missing: ompscope finds it beside its own directory ({}), so "
                            "run it where it was installed or built, or reinstall it",
                            tool_library_path().string(), bindir_to_libdir()));
  t.libomp = find_libomp();
  if (t.runtime.kind == RuntimeKind::GnuLibgomp && choice == RuntimeChoice::Native) {
    if (!fs::exists(gomp_tool_library_path()))
      throw Error(fmt::format("the program uses GNU libgomp and {} is missing: reinstall ompscope, or measure "
                              "it on LLVM libomp with --runtime llvm", gomp_tool_library_path().string()));
    t.interposed = true;
    t.unobserved = unobserved_gomp_entry_points(t.resolved_path);
    fmt::print(stderr, "ompscope: {} is built with GCC: measuring it on its own GNU libgomp (interposed; "
               "--runtime llvm runs it on LLVM libomp instead)\n", argv[0]);
  } else if (t.runtime.kind == RuntimeKind::GnuLibgomp ||
             (choice == RuntimeChoice::Llvm && t.runtime.kind != RuntimeKind::LlvmLibomp &&
              t.runtime.kind != RuntimeKind::IntelLibiomp && !t.libomp.empty())) {
    // --runtime llvm: a GCC-built program, or whatever a wrapper (a script, env, time) starts,
    // loads libomp for libgomp.so.1.
    t.swapped = true;
    if (t.libomp.empty())
      throw Error("the program uses GNU libgomp, which has no OMPT, and no LLVM libomp was found to run it on "
                  "(install libomp5-14; see ompscope doctor)");
    if (t.runtime.kind == RuntimeKind::GnuLibgomp)
      fmt::print(stderr, "ompscope: {} is built with GCC (libgomp); running it on LLVM libomp ({}) to observe it\n",
                 argv[0], t.libomp);
    else
      fmt::print(stderr, "ompscope: --runtime llvm: the programs {} starts run on LLVM libomp ({}) where they load GNU "
                 "libgomp\n", argv[0], t.libomp);
  }
  return t;
}

Launcher resolve_launcher(const std::string& text) {
  Launcher launcher;
  launcher.words = split_launcher_words(text);
  if (own_rank().ranked())
    throw Error(fmt::format("--launcher: this ompscope already runs as rank {} of a job: run 'ompscope scale --launcher' "
                            "once, outside the launcher, and it starts each run's job",
                            own_rank().rank));
  const std::string path = find_program(launcher.words[0]);
  if (path.empty()) throw Error(fmt::format("--launcher '{}': cannot start '{}': no such program", text, launcher.words[0]));
  std::error_code ec;
  const fs::path real = fs::canonical(path, ec);
  launcher.kind = launcher_kind(capture_output({path, "--version"}), ec ? path : real.string());
  return launcher;
}

namespace {

bool is_rank_directory(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.size() > 5 && name.compare(0, 5, "rank-") == 0 &&
         std::all_of(name.begin() + 5, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool has_rank_directories(const fs::path& dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.is_directory(ec) && is_rank_directory(entry.path())) return true;
  return false;
}

}  // namespace

const LauncherRank& own_rank() {
  static const LauncherRank rank = launcher_rank(environ);
  return rank;
}

OutputDir prepare_output_dir(const std::string& dir, const std::string& command) {
  return OutputDir::claim(dir, command, own_rank().ranked() ? own_rank().rank : -1);
}

std::vector<std::string> with_thread_count(const std::vector<std::string>& argv, int threads) {
  static const std::string kPlaceholder = "{threads}";
  std::vector<std::string> out = argv;
  for (size_t i = 1; i < out.size(); ++i)
    for (size_t at = out[i].find(kPlaceholder); at != std::string::npos; at = out[i].find(kPlaceholder, at)) {
      const std::string count = std::to_string(threads);
      out[i].replace(at, kPlaceholder.size(), count);
      at += count.size();
    }
  return out;
}

std::string runtime_comparison_note(const Target& target, int threads, double measured_wall_s) {
  if (!target.swapped) return {};
  Launch bare;
  bare.argv = threads > 0 ? with_thread_count(target.argv, threads) : target.argv;
  if (threads > 0) bare.env["OMP_NUM_THREADS"] = std::to_string(threads);
  const LaunchOutcome outcome = launch_and_wait(bare);
  const std::string at = threads > 0 ? " at " + threads_phrase(threads) : "";
  if (!outcome.ok() || outcome.wall_s <= 0)
    return fmt::format("measured on LLVM libomp only: the program, run bare on its own GNU libgomp{} to compare, {}",
                       at, outcome.describe());
  return fmt::format("runtimes compared{}: {:.3g} s measured on LLVM libomp (under the tool), {:.3g} s bare on the "
                     "GNU libgomp the program ships with ({:.2f}x): the findings are LLVM libomp's",
                     at, measured_wall_s, outcome.wall_s, measured_wall_s / outcome.wall_s);
}

std::vector<report::Note> target_notes(const Target& target) {
  std::vector<report::Note> notes;
  const char* static_loops = "Loops with a static schedule make no runtime call under GCC: they are invisible except "
                             "for their closing barrier, so their imbalance shows at that barrier and their time as "
                             "region work.";
  if (target.interposed) {
    notes.push_back({"gcc",
                     fmt::format("GCC-built program, measured on its own runtime, GNU libgomp, through ompscope's "
                                 "interposer at its entry points (no OMPT there). {}",
                                 static_loops),
                     {}});
    if (!target.unobserved.empty())
      notes.push_back({"unobserved_entry_points",
                       "not observed: the program calls libgomp entry points the interposer does not cover; their "
                       "time counts as the work of the segment they run in",
                       target.unobserved});
  } else if (target.swapped && target.runtime.kind != RuntimeKind::GnuLibgomp) {
    notes.push_back({"gcc",
                     fmt::format("--runtime llvm: the programs the command started that load GNU libgomp ran on LLVM "
                                 "libomp through its GOMP layer: times and causes are LLVM libomp's. {}",
                                 static_loops),
                     {}});
  } else if (target.swapped) {
    notes.push_back({"gcc",
                     fmt::format("GCC-built program, run on LLVM libomp through its GOMP layer (--runtime llvm), not "
                                 "on the GNU libgomp it ships with: times and causes are LLVM libomp's. {}",
                                 static_loops),
                     {}});
  }
  return notes;
}

namespace {

// "pid-N" (a process's log) or "pid-N.K" (a later image exec'd in process N), capture/run_meta.h.
bool is_process_directory(const fs::path& p) {
  const std::string name = p.filename().string();
  if (name.size() < 5 || name.compare(0, 4, "pid-") != 0) return false;
  bool dot = false;
  for (size_t i = 4; i < name.size(); ++i) {
    if (name[i] == '.' && !dot && i > 4 && i + 1 < name.size()) dot = true;
    else if (name[i] < '0' || name[i] > '9') return false;
  }
  return true;
}

std::vector<std::string> command_words(const std::string& command) {
  std::vector<std::string> words;
  std::istringstream in(command);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

}  // namespace

std::vector<ProcessLog> process_logs(const fs::path& dir, int program_pid) {
  std::vector<ProcessLog> logs;
  std::error_code ec;
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (is_process_directory(entry.path()) && fs::exists(entry.path() / kMetaFileName)) dirs.push_back(entry.path());
  const std::string own_name = fmt::format("pid-{}", program_pid);
  for (const fs::path& d : dirs) {
    ProcessLog log{d, {}, program_pid > 0 && d.filename() == own_name};
    try {
      log.meta = analysis::read_run_meta(d / kMetaFileName);
    } catch (const Error&) {
      // A process killed while it wrote its first lines: the program's own is analysed (and its
      // log's fault said); another's is left out.
      if (!log.own) continue;
    }
    logs.push_back(std::move(log));
  }
  std::sort(logs.begin(), logs.end(), [](const ProcessLog& a, const ProcessLog& b) {
    if (a.own != b.own) return a.own;
    return a.meta.clock_start.ns != b.meta.clock_start.ns ? a.meta.clock_start.ns < b.meta.clock_start.ns
                                                          : a.dir.filename() < b.dir.filename();
  });
  if (!logs.empty() && !logs.front().own) {
    // The program's own process loaded no tool library (`time ./app`, a launcher that forks):
    // the first process whose parent left no log stands for the program.
    for (size_t i = 0; i < logs.size(); ++i)
      if (std::none_of(logs.begin(), logs.end(), [&](const ProcessLog& l) { return l.meta.pid == logs[i].meta.ppid; })) {
        std::rotate(logs.begin(), logs.begin() + static_cast<std::ptrdiff_t>(i), logs.begin() + static_cast<std::ptrdiff_t>(i) + 1);
        break;
      }
  }
  return logs;
}

bool has_process_logs(const fs::path& dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (is_process_directory(entry.path()) && fs::exists(entry.path() / kMetaFileName)) return true;
  return false;
}

void save_launch(const fs::path& run_dir, const SavedLaunch& launch) {
  std::string text = fmt::format("ompscope-launch 1\nprogram_pid {}\n", launch.program_pid);
  for (const auto& [name, point] : {std::pair{"start", launch.clock.start}, std::pair{"end", launch.clock.end}})
    if (point) text += fmt::format("{} {} {}\n", name, point->ticks, point->ns);
  write_file_replacing(run_dir / kLaunchFileName, text);
}

std::optional<SavedLaunch> read_saved_launch(const fs::path& run_dir) {
  const fs::path path = run_dir / kLaunchFileName;
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(path, ec))) return std::nullopt;
  std::istringstream in(read_regular_file(path));
  const auto bad = [&](const std::string& why) {
    return Error(fmt::format("{}: not a launch record ompscope wrote ({})", path.string(), why));
  };
  std::string word;
  int version = 0;
  if (!(in >> word >> version) || word != "ompscope-launch" || version != 1) throw bad("its first line is not 'ompscope-launch 1'");
  SavedLaunch launch;
  while (in >> word) {
    if (word == "program_pid") {
      if (!(in >> launch.program_pid) || launch.program_pid <= 0) throw bad("program_pid is not a pid");
    } else if (word == "start" || word == "end") {
      analysis::ClockPoint point;
      if (!(in >> point.ticks >> point.ns)) throw bad(fmt::format("{} is not two counts", word));
      (word == "start" ? launch.clock.start : launch.clock.end) = point;
    } else {
      throw bad(fmt::format("unknown field '{}'", word));
    }
  }
  if (launch.program_pid == 0) throw bad("no program_pid");
  return launch;
}

void read_logs(RunResult& result, int workers);

RunResult run_under_tool(const Target& target, const fs::path& out_dir, const RunRequest& request) {
  RunResult result;
  const std::string name = request.threads > 0 ? fmt::format("t{}-r{}", request.threads, request.repeat)
                                               : fmt::format("run-r{}", request.repeat);
  result.run_dir = out_dir / "runs" / name;
  std::error_code ec;
  fs::remove_all(result.run_dir, ec);
  // The tool library puts each process's log in pid-PID under OMPSCOPE_LOG_DIR, a rank's in
  // rank-R/pid-PID (capture/run_meta.h).
  const fs::path base_log_dir = result.run_dir;
  fs::path process_dir = base_log_dir;
  if (own_rank().ranked()) {
    char rank_name[32];
    rank_directory_name(own_rank().rank, rank_name, sizeof rank_name);
    process_dir /= rank_name;
  }
  result.log_dir = process_dir;

  Launch launch;
  launch.env = tool_environment(target);
  launch.env["OMPSCOPE_LOG_DIR"] = fs::absolute(base_log_dir).string();
  if (request.threads > 0) launch.env["OMP_NUM_THREADS"] = std::to_string(request.threads);
  if (request.every_event && !getenv("OMPSCOPE_SAMPLING")) launch.env["OMPSCOPE_SAMPLING"] = "off";
  if (request.bind && request.threads > 0 && request.threads <= core_count())
    for (const auto& [key, value] : binding_environment()) launch.env[key] = value;
  if (target.swapped) {
    const fs::path shim = make_gomp_shim(out_dir / "runs" / "libgomp-shim", target.libomp);
    const char* old = getenv("LD_LIBRARY_PATH");
    launch.env["LD_LIBRARY_PATH"] = shim.string() + (old && *old ? ":" + std::string(old) : "");
  }
  // Through a launcher (scale --launcher), the launcher passes these variables on to each rank.
  launch.quiet = request.quiet;
  launch.argv = target.launcher ? launch_command(*target.launcher, launch.env, target.argv) : target.argv;
  const CpuBusySnapshot before = cpu_busy_now();
  result.outcome = launch_and_wait(launch);
  const double others = others_share(before, cpu_busy_now());

  analysis::RunRecord& rec = result.run.record;
  rec.threads = request.threads;
  rec.threads_requested = request.threads;
  rec.threads_measured = false;  // until a log shows the team (analyse_log)
  rec.repeat = request.repeat;
  rec.wall_s = result.outcome.wall_s;
  rec.others_cpu_share = others;
  rec.cpu_quota = cpu_quota_of_this_process();  // the program runs in this process's cgroup
  rec.exit_code = result.outcome.exit_code;
  rec.signal = result.outcome.signal;
  rec.status = result.outcome.describe();
  rec.log = fs::relative(result.log_dir, out_dir).string();
  // Ranks may run on other nodes, whose clocks the launcher's start point does not share; the
  // end point only replaces a rank's own when the rank died before finalize.
  result.unread = RunResult::Unread{out_dir,
                                    process_dir,
                                    {result.outcome.start_point, result.outcome.end_point},
                                    {std::nullopt, result.outcome.end_point},
                                    target.launcher.has_value(),
                                    target.runtime.kind != RuntimeKind::None,
                                    request.replay};
  // The points `report DIR` needs to count the run as this command does (SavedLaunch): only into
  // the run's own directory as the capture made it (a symlink put in its place is not followed),
  // and a failure to write them (a full disk) costs a later `report` its start, never this
  // command its report or the program's exit status.
  if (!own_rank().ranked() && !target.launcher && result.outcome.pid > 0 && fs::is_directory(fs::symlink_status(process_dir, ec)) &&
      has_process_logs(process_dir)) {
    try {
      save_launch(process_dir, {result.outcome.pid, {result.outcome.start_point, result.outcome.end_point}});
    } catch (const Error& e) {
      rec.status += fmt::format("; its launch's time was not kept for `ompscope report` of its logs ({})", e.what());
    }
  }
  if (!request.defer_analysis) read_logs(result, core_count());
  return result;
}

// The logs of a run that ended: the program's own process, its other processes that ran OpenMP
// code, or each rank of a launcher's job.
// `workers`: the cores its analysis may use (the others' analyses beside it have theirs).
void read_logs(RunResult& result, int workers) {
  if (!result.unread) return;
  const RunResult::Unread u = *std::exchange(result.unread, std::nullopt);
  const fs::path& out_dir = u.out_dir;
  const fs::path& process_dir = u.process_dir;
  const analysis::LaunchClock& clock = u.clock;
  const analysis::LaunchClock& rank_clock = u.rank_clock;
  analysis::RunRecord& rec = result.run.record;
  std::error_code ec;

  if (!has_process_logs(process_dir) && has_rank_directories(process_dir)) {
    // The program was a launcher (mpirun, srun): each rank left its own logs, one per process;
    // a rank's own process is the first whose parent left none.
    std::vector<fs::path> rank_dirs;
    for (const auto& entry : fs::directory_iterator(process_dir, ec))
      if (is_rank_directory(entry.path()) && has_process_logs(entry.path())) rank_dirs.push_back(entry.path());
    int others = 0;
    for (const fs::path& dir : rank_dirs) {
      const std::vector<ProcessLog> logs = process_logs(dir, 0);
      others += static_cast<int>(logs.size()) - 1;
      analysis::MeasuredRun run;
      run.record = rec;
      run.record.log = fs::relative(logs.front().dir, out_dir).string();
      int local_rank = -1;
      run.analysis = analysis::analyse_log(logs.front().dir, rank_clock, run.record, {false, u.replay, &bench_cache(), workers}, &local_rank);
      result.ranks_per_node = std::max(result.ranks_per_node, local_rank + 1);
      result.ranks.push_back(std::move(run));
    }
    std::sort(result.ranks.begin(), result.ranks.end(),
              [](const auto& a, const auto& b) { return a.record.rank < b.record.rank; });
    rec.status += fmt::format("; the program ran as {} MPI ranks, each with its own log", result.ranks.size());
    if (others > 0)
      for (auto& rank : result.ranks)
        rank.record.status += fmt::format("; {} more processes of the ranks ran OpenMP code, not in the report (their "
                                          "logs are in {})", others, rec.log);
    return;
  }
  const std::vector<ProcessLog> logs = process_logs(process_dir, result.outcome.pid);
  if (logs.empty()) {
    rec.status += !u.runtime_known
                      ? "; not observed: no process of the program loaded an OpenMP runtime"
                      : "; not observed: the OpenMP runtime did not load the tool (no OMPT?) — run ompscope doctor";
    return;
  }
  result.log_dir = logs.front().dir;
  result.pid = logs.front().meta.pid;
  result.command = command_words(logs.front().meta.command);
  rec.log = fs::relative(result.log_dir, out_dir).string();
  // A rank's time is its tool's own span, however it was launched (docs/mpi.md): the launcher's
  // start point would add the start of the job (MPI_Init's connection set-up) to one form only.
  const bool this_node = !own_rank().ranked() && !u.launcher;  // every process shares our clocks
  const bool from_launch = logs.front().own && this_node;
  try {
    result.run.analysis =
        analysis::analyse_log(result.log_dir, this_node ? clock : rank_clock, rec, {from_launch, u.replay, &bench_cache(), workers});
  } catch (const Error& e) {
    if (!result.outcome.signal) throw;
    // Killed (SIGKILL) before its first lines or chunk reached the disk: not a corrupt log.
    rec.observed = false;
    rec.status += fmt::format("; nothing captured before SIG{} ({})", signal_name(result.outcome.signal), e.what());
    return;
  }
  if (result.outcome.signal && rec.events == 0)
    rec.status += fmt::format("; nothing captured before SIG{}", signal_name(result.outcome.signal));
  if (!rec.finalized && result.outcome.ok())
    rec.status += "; the tool was not finalised (the program left without running exit handlers)";
  for (size_t i = 1; i < logs.size(); ++i) {
    ProcessRun other;
    other.pid = logs[i].meta.pid;
    other.command = command_words(logs[i].meta.command);
    other.run.record = rec;
    other.run.record.exit_code = 0;
    other.run.record.signal = 0;
    other.run.record.status = "ok";
    other.run.record.log = fs::relative(logs[i].dir, out_dir).string();
    try {
      // The launcher's points bracket this process too: a child that ran for less than a
      // millisecond and ended just before the program did has no other span to calibrate over.
      other.run.analysis = analysis::analyse_log(logs[i].dir, this_node ? clock : rank_clock, other.run.record,
                                                  {false, u.replay, &bench_cache(), workers});
    } catch (const Error& e) {
      other.run.record.observed = false;
      other.run.record.status = fmt::format("not read: {}", e.what());
    }
    if (other.run.record.observed && !other.run.record.finalized)
      other.run.record.status = "the tool was not finalised (the process was killed or left without exit handlers)";
    result.processes.push_back(std::move(other));
  }
}

namespace {

// The bytes of the logs a run left, all its processes' and ranks'.
uintmax_t log_bytes(const RunResult& run) {
  if (!run.unread) return 0;
  uintmax_t bytes = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(run.unread->process_dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec)) bytes += it->file_size(ec);
  return bytes;
}

}  // namespace

void analyse_runs(const std::vector<RunResult*>& runs, const std::function<void(size_t)>& after_reading) {
  const size_t workers = std::min(runs.size(), static_cast<size_t>(std::max(1, core_count())));
  const int each = std::max(1, core_count() / static_cast<int>(std::max<size_t>(1, workers)));
  // The longest logs first: taken in the order they ran, scale's runs alternate thread counts,
  // and the last one begun (the largest count's) was read alone at the end while the other
  // cores were idle (many_barriers -t 1,2 -r 3: 36 ms of its 0.15 s beyond the runs).
  std::vector<size_t> order(runs.size());
  std::vector<uintmax_t> bytes(runs.size());
  for (size_t i = 0; i < runs.size(); ++i) {
    order[i] = i;
    bytes[i] = log_bytes(*runs[i]);
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return bytes[a] > bytes[b]; });
  side_by_side(
      runs.size(), workers,
      [&](size_t i) {
        read_logs(*runs[i], each);
        if (after_reading) after_reading(i);
      },
      order);
}

bool nothing_captured(const RunResult& result) {
  return result.outcome.signal != 0 && result.ranks.empty() &&
         (result.run.record.events == 0 || !result.run.record.observed) &&
         result.run.record.status.find("nothing captured") != std::string::npos;
}

std::string signal_name(int sig) { return sigabbrev_np(sig) ? sigabbrev_np(sig) : std::to_string(sig); }

std::map<std::string, std::string> tool_environment(const Target& target) {
  std::map<std::string, std::string> env;
  // Every process gets both capture paths, whatever started it (docs/safety.md, "Processes and signals"): the
  // libgomp interposer, inert in a process without GNU libgomp, and OMPT's tool library, which
  // only libomp loads. An MPI program gets libompscope_mpi.so after them, whose recording entry
  // points they export (docs/mpi.md). A program run on libomp instead of its libgomp
  // (--runtime llvm) gets no interposer.
  std::string preload;
  const bool mpi = !target.runtime.mpi.empty() && fs::exists(mpi_tool_library_path());
  // A program that links LLVM's libomp itself needs no interposer: the interposer is inert there
  // but its lock wrappers and its start-up are not free, and a recursive task program (nqueens_tasks)
  // measured with it preloaded proposed a cutoff two levels too shallow (e2e cutoff_gain_validation).
  const bool links_libomp = target.runtime.kind == RuntimeKind::LlvmLibomp ||
                            target.runtime.kind == RuntimeKind::IntelLibiomp;
  if (!target.swapped && !links_libomp && fs::exists(gomp_tool_library_path()))
    preload = gomp_tool_library_path().string();
  if (mpi) preload += (preload.empty() ? "" : ":") + tool_library_path().string() + ":" + mpi_tool_library_path().string();
  if (!preload.empty()) {
    const char* old = getenv("LD_PRELOAD");
    env["LD_PRELOAD"] = preload + (old && *old ? ":" + std::string(old) : "");
  }
  env["OMP_TOOL"] = "enabled";
  env["OMP_TOOL_LIBRARIES"] = tool_library_path().string();
  return env;
}

const analysis::BenchLookup& bench_cache() {
  // Memoised by library and by whether a problem was said: a cache that cannot be used is said
  // once per command (the report's lookup), never by the runs' silent ones.
  static std::mutex mutex;
  static std::map<std::pair<std::string, bool>, std::optional<report::BenchCosts>> read;
  static const analysis::BenchLookup lookup = [](const std::string& library, bool say_why_not) {
    std::lock_guard lock(mutex);
    const auto key = std::make_pair(library, say_why_not);
    if (auto it = read.find(key); it != read.end()) return it->second;
    return read[key] = cached_bench_costs(library, say_why_not);
  };
  return lookup;
}

}  // namespace ompscope::cli
