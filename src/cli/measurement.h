// Running the observed program under the tool and turning what it left into a MeasuredRun:
// the part `profile`, `scale` and `trace` share.
#pragma once
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "analysis/pipeline.h"
#include "cli/launcher.h"
#include "cli/openmp_runtime.h"
#include "cli/output_dir.h"
#include "cli/program_launch.h"
#include "common/launcher_rank.h"

namespace ompscope::cli {

// Which runtime a GCC-built program is measured on: its own GNU libgomp (through the preloaded
// interposer, docs/libgomp.md), or LLVM libomp's GOMP layer (with OMPT).
enum class RuntimeChoice { Native, Llvm };

struct Target {
  std::vector<std::string> argv;
  std::string resolved_path;   // argv[0] found on PATH
  ProgramRuntime runtime;
  std::string libomp;          // used to redirect GCC-built programs
  bool interposed = false;     // measured on GNU libgomp through libompscope_gomp.so
  bool swapped = false;        // a libgomp program run on LLVM libomp (--runtime llvm)
  std::vector<std::string> unobserved;  // libgomp entry points the program calls that are not observed
  std::optional<Launcher> launcher;    // `scale --launcher`: each run is a job of this launcher
};

// Finds the program and its OpenMP runtime; throws ompscope::Error when it cannot be run.
Target resolve_target(const std::vector<std::string>& argv, RuntimeChoice choice = RuntimeChoice::Native);

// The launcher of `--launcher TEXT`: its words (split_launcher_words), found on PATH, and its
// kind from what its `--version` prints. Throws ompscope::Error with one line when it cannot be
// used: not found, or ompscope itself already runs as a rank of a job.
Launcher resolve_launcher(const std::string& text);

// --runtime native|llvm, for the commands that run the program.
void add_runtime_option(CLI::App* app, std::string& value);
RuntimeChoice runtime_choice(const std::string& value);


// This ompscope's own rank when a launcher started it as one rank of an MPI job
// (`mpirun -np N ompscope profile -o DIR -- ./app`, docs/mpi.md); rank -1 otherwise.
const LauncherRank& own_rank();
// Claims -o DIR for `command` (output_dir.h: the marker, the lock, runs/ emptied) for as long as
// the returned value lives. Its path() is where this ompscope writes: DIR itself, or DIR/rank-R
// for a rank of a job (the ranks share DIR; each prepares only its own part).
OutputDir prepare_output_dir(const std::string& dir, const std::string& command);

struct RunRequest {
  int threads = 0;       // 0: leave OMP_NUM_THREADS as the user set it
  int repeat = 0;
  bool bind = false;     // set OMP_PROC_BIND/OMP_PLACES unless the user did
  bool quiet = false;    // the program's stdout to /dev/null (doctor's probe)
  // Record every event: adaptive sampling off (OMPSCOPE_SAMPLING=off) unless the user's
  // environment sets OMPSCOPE_SAMPLING (trace: a trace shows what ran, not a sample of it).
  bool every_event = false;
  // Replay the run's task graphs (scale: only its smallest count's runs, the replay's source).
  bool replay = true;
  // Leave the logs unread: analyse_runs reads them later (scale, once every run has ended: its
  // runs analysed at once on the machine's cores, never beside a measured run).
  bool defer_analysis = false;
};

// Another process of the program that ran OpenMP code (it started, or was started by, the
// program's own process): its run, pid and command (docs/safety.md, "Processes and signals").
struct ProcessRun {
  analysis::MeasuredRun run;
  int pid = 0;
  std::vector<std::string> command;
};

struct RunResult {
  analysis::MeasuredRun run;  // the program's own process
  LaunchOutcome outcome;
  std::filesystem::path run_dir;  // DIR/runs/NAME: OMPSCOPE_LOG_DIR, each process's log in it
  std::filesystem::path log_dir;  // the program's own process's log (run_dir/pid-PID)
  int pid = 0;                    // its pid (0: no log)
  std::vector<std::string> command;  // its command line, as its log says
  // The other processes that ran OpenMP code, by when they started; empty for most programs.
  std::vector<ProcessRun> processes;
  // `ompscope profile -- mpirun -np N ./app`: each rank's run, by rank, read from the rank-R
  // directories the tool library wrote under log_dir (docs/mpi.md); empty otherwise.
  std::vector<analysis::MeasuredRun> ranks;
  // The most ranks the launcher started on one node (the largest local rank + 1; 1 where it did
  // not say): they share that node's cores.
  int ranks_per_node = 1;
  // What reading the logs needs, until they are read (RunRequest::defer_analysis).
  struct Unread {
    std::filesystem::path out_dir, process_dir;
    analysis::LaunchClock clock, rank_clock;
    bool launcher = false;
    bool runtime_known = false;  // the program loaded an OpenMP runtime
    bool replay = true;
  };
  std::optional<Unread> unread;
};

RunResult run_under_tool(const Target& target, const std::filesystem::path& out_dir, const RunRequest& request);
// Reads and analyses the logs runs left unread (RunRequest::defer_analysis), as many at once as
// the machine has cores; each as run_under_tool would have, then `after_reading(i)` on the same
// thread where run i was read without error (what is done with its log: beside the other runs'
// analysis, not after it). Throws the first run's error (in the order given) after all have been read.
void analyse_runs(const std::vector<RunResult*>& runs, const std::function<void(size_t)>& after_reading = {});

// The program was killed by a signal (SIGKILL) before any record of its own process reached the
// disk: its log holds nothing, which is no corrupt log (docs/safety.md, "Processes and signals").
bool nothing_captured(const RunResult& result);
// "KILL" for SIGKILL.
std::string signal_name(int sig);

// The environment that attaches the tool to every process of the program, whatever wrapper
// starts it (shell, env, numactl, time, a launcher): LD_PRELOAD and OMP_TOOL_LIBRARIES.
std::map<std::string, std::string> tool_environment(const Target& target);

// One log per process (capture/run_meta.h): the pid-PID directories of `dir` with their meta,
// the program's own process first (pid-`program_pid`, else the first whose parent left no log),
// then the others by when they started. Unreadable logs of other processes are left out.
struct ProcessLog {
  std::filesystem::path dir;
  analysis::RunMeta meta;
  bool own = false;  // pid-`program_pid` itself
};
std::vector<ProcessLog> process_logs(const std::filesystem::path& dir, int program_pid);
bool has_process_logs(const std::filesystem::path& dir);

// The launcher's clock points of a run and the pid of the program it started, kept in the run's
// directory (kLaunchFileName) so that `ompscope report DIR` of its logs counts the program's time
// as `profile` and `scale` did: from the launch, the serial code before the runtime's first fork
// included (NPB CG: 70.8 ms of a 144 ms run, its serial code 5.3 ms of 81.9, without them).
// Written only where the program ran on this node as its own process, not through a launcher.
inline constexpr const char* kLaunchFileName = "launch.txt";
struct SavedLaunch {
  int program_pid = 0;
  analysis::LaunchClock clock;
};
void save_launch(const std::filesystem::path& run_dir, const SavedLaunch& launch);
// The run's saved launch; nullopt where none was saved (older runs, a launcher's job). Throws
// ompscope::Error with one line where the file is not one ompscope wrote.
std::optional<SavedLaunch> read_saved_launch(const std::filesystem::path& run_dir);

// The bench cache of this machine (cli/bench_costs.h), each library's entry read once per
// command however many runs' analyses ask (the key reads the library's build id, the CPU model
// and the machine id); safe to ask from the threads of analyse_runs.
const analysis::BenchLookup& bench_cache();

// For a program swapped onto LLVM libomp (--runtime llvm): runs it once more, bare, on its own
// GNU libgomp at `threads` (0: as the user set it), and says how its time there compares with the
// run measured on libomp (`measured_wall_s`, under the tool). Empty for any other target.
// The program's arguments with every "{threads}" replaced by `threads` (also inside an argument:
// --threads={threads}), for programs that take their thread count on their command line.
std::vector<std::string> with_thread_count(const std::vector<std::string>& argv, int threads);

std::string runtime_comparison_note(const Target& target, int threads, double measured_wall_s);

// Notes every report of this target carries (GCC static loops, redirection).
std::vector<report::Note> target_notes(const Target& target);

int core_count();

// What `scale` sets where the user did not (RunRequest::bind): OMP_PROC_BIND=close and one
// place per core from the kernel's topology (core_places.h), "cores" if that cannot be read.
std::map<std::string, std::string> binding_environment();

}  // namespace ompscope::cli
