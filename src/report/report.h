// The typed report of `profile` and `scale`: the one contract between the analysis, which builds
// it, and the renderers (text, CSV, HTML), which show it and compute nothing. report.json is its
// serialisation (report/report_json.h; the schema is in docs/design.md, "The report").
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/causes.h"
#include "report/construct_kind.h"
#include "report/growth.h"

namespace ompscope::report {

// One thread's time in a region (or in the whole run), split by what it was doing.
// The kernel's accounting of a thread's work, summed over the stretches of work whose edges it
// was read at (ThreadUsage records: implicit task begin, barrier departure → barrier arrival).
struct WorkUsage {
  double wall_s = 0;          // the stretches' length
  double cpu_s = 0;           // thread CPU time in them (user + system)
  double system_s = 0;        // of which in the kernel (page faults, system calls)
  double minor_faults = 0;
  double major_faults = 0;
  double switches = 0;        // involuntary context switches
  // Hardware counters in user space (docs/lost-time.md, "Hardware counters"), over the stretches
  // where they were read (counted_s of wall_s); 0: none read.
  double counted_s = 0;
  double cycles = 0;
  double instructions = 0;
  double llc_misses = 0;      // last-level cache misses
  // The stretches read: each holds one reading's own time (capture/thread_usage.h), in its wall,
  // its CPU time and, nearly all of it, its kernel time.
  double readings = 0;
  // Voluntary context switches: the thread slept (a lock in the kernel or the C library, I/O);
  // `switches` are the involuntary ones, where it was runnable and another held its CPU.
  double voluntary_switches = 0;

  WorkUsage& operator+=(const WorkUsage& u) {
    wall_s += u.wall_s;
    cpu_s += u.cpu_s;
    system_s += u.system_s;
    minor_faults += u.minor_faults;
    major_faults += u.major_faults;
    switches += u.switches;
    counted_s += u.counted_s;
    cycles += u.cycles;
    instructions += u.instructions;
    llc_misses += u.llc_misses;
    readings += u.readings;
    voluntary_switches += u.voluntary_switches;
    return *this;
  }
  WorkUsage operator*(double f) const {  // scaling a sample to the whole
    return {wall_s * f,   cpu_s * f,     system_s * f, minor_faults * f, major_faults * f, switches * f,
            counted_s * f, cycles * f, instructions * f, llc_misses * f, readings * f, voluntary_switches * f};
  }
  bool counted() const { return counted_s > 0 && cycles > 0 && instructions > 0; }
  double off_cpu_s() const { return wall_s > cpu_s ? wall_s - cpu_s : 0; }
  bool operator==(const WorkUsage&) const = default;
};

struct ThreadSplit {
  uint32_t thread = 0;     // index in the team (region), or log thread index (program)
  double work_s = 0;       // includes explicit tasks run by the thread
  double task_s = 0;       // of which: explicit tasks
  double barrier_wait_s = 0;  // barriers and taskwaits, minus tasks run inside them
  double lock_wait_s = 0;
  double fork_join_s = 0;  // region time before the thread started / after it finished
  double outside_s = 0;    // program level only: time outside any parallel region
  double tasks = 0;        // explicit tasks that completed on the thread (scaled like the times
                           // for sampled-out region instances, hence not an integer)
  WorkUsage usage;         // the kernel's accounting of the part of work_s it was read over
  double mpi_s = 0;        // time in MPI calls (docs/mpi.md): in a region, those inside it (not in
                           // work_s); for the program, those inside regions and outside them (not
                           // in outside_s)
  // The kernel's accounting over the barrier visits in which the thread ran explicit tasks
  // (docs/tasks.md, "The kernel's accounting of task bodies"): a task region's bodies run there,
  // outside the work stretches `usage` covers. Its wall_s is the visits' CPU time plus the part of
  // their wall time off the CPU where the thread was switched out involuntarily (a voluntary
  // sleep in the runtime's wait is no time lost); `task_usage_tasks_s` is the task time in them.
  WorkUsage task_usage;
  double task_usage_tasks_s = 0;
};

struct RunRecord {
  // The team that ran: the largest team of the run's outermost parallel regions (a program that
  // sets its own count runs what it chose, whatever OMP_NUM_THREADS says); where no region ran,
  // the count asked for, and threads_measured is false. Runs are labelled by it.
  int threads = 0;
  int repeat = 0;
  double wall_s = 0;
  int exit_code = 0;
  int signal = 0;
  std::string status = "ok";   // "ok", "exit 3", "killed by SIGSEGV (...)", or why nothing was observed
  bool observed = false;       // the tool loaded and a log was read
  bool finalized = false;      // the tool's finalize ran (the program exited normally)
  uint64_t events = 0;
  uint64_t dropped_events = 0;
  std::string log;             // log directory, relative to the report directory
  int rank = -1;               // the MPI rank the run was (docs/mpi.md); -1: not a rank of a job
  int threads_requested = 0;    // the count ompscope asked for (OMP_NUM_THREADS, {threads}); 0: none (profile)
  bool threads_measured = true; // `threads` is the team that ran

  // Of the CPUs this ompscope could run on, the share other processes surely used while the run
  // ran: their busy time beyond the program's own CPU time (cli/cpu_busy.h); 0: quiet or not read.
  double others_cpu_share = 0;
  // The CPU quota of the cgroup the run ran in, in CPUs (cgroup v2 cpu.max, v1 cfs quota; a
  // container's CPU limit); 0: none. Below the run's thread count the kernel stops the threads for
  // the rest of each period once the quota is spent, runnable, off the CPU.
  double cpu_quota = 0;
  bool failed() const { return exit_code != 0 || signal != 0 || status != "ok"; }
};

struct Problem {
  CauseKind kind;       // an entry of the table of causes (report/causes.h)
  int threads = 0;
  double time_s = 0;    // wall time the cause costs, as measured
  double gain_s = 0;    // wall time saved at `threads` if the cause vanished
  std::string hint;
  std::vector<std::pair<std::string, double>> details;
};

// The figures of a cause's details that code reads back (verify's malloc setting, the lock-sampling
// note), not only shows: their keys spelled once, for the detector that writes them and the
// readers (docs/design.md, "The report").
namespace detail_key {
inline constexpr const char* kPageFaults = "page_faults";          // work_inflation, page_faults
inline constexpr const char* kPageFaultS = "page_fault_s";         // work_inflation
inline constexpr const char* kAcquisitions = "acquisitions";       // lock_overhead, lock_contention
inline constexpr const char* kRecordedAcquisitions = "recorded_acquisitions";
inline constexpr const char* kBeforeRuntimeS = "before_runtime_s";  // serial_code
}  // namespace detail_key

// The value of `key` in `p`'s details; 0 where it has none.
inline double detail_of(const Problem& p, std::string_view key) {
  for (const auto& [k, v] : p.details)
    if (k == key) return v;
  return 0;
}

// The runtime's cost per task at one creation site (docs/tasks.md, "The runtime's cost per
// creation site"): medians over the site's samples of all repeats; 0: too few to tell.
struct TaskSiteCost {
  std::string site;           // "lu.c:64"
  double tasks = 0;           // recorded tasks per run
  double mean_body_s = 0;     // their own work
  double creation_s = 0;      // creation gap (upper bound; the depend clause's registration included)
  double dispatch_s = 0;      // a ready task's start on an idle thread
  double release_s = 0;       // a predecessor's completion → this task's start, on a thread waiting for it
  double depend_items = 0;    // items of its depend clause per task
};

// A tasking region at one thread count, medians over repeats.
struct TaskSummary {
  double tasks = 0;
  double recorded_tasks = 0;       // recorded in full (adaptive sampling); the others counted in batches
  double hidden_subtree_tasks = 0; // sampled-out tasks created inside sampled-out ones: the span omits them
  double mean_body_s = 0;
  double dispatch_s = 0;           // runtime's per-task dispatch cost; 0: not measured
  double creation_s = -1;          // median interval between two creations with nothing between (upper bound); ≤ 0: not measured
  double taskwait_s = 0;           // a taskwait that finds its children done; 0: not measured
  double immediate_start_s = 0;    // creation → start of a task run at once by its creator; 0: not measured
  double per_task_cost_s = 0;      // the runtime's cost per task (task_diagnoses.h); 0: not measured
  // The figures above are measured in this run, under capture; the task construct's cost that
  // `ompscope bench` measured on this machine for the same runtime (Report::bench), without
  // capture, stands beside them (docs/tasks.md, "The bench cache"); 0: none cached.
  double bench_task_s = 0;
  double work_s = 0;
  double span_s = 0;
  double parallelism = 0;          // work ÷ span
  double speedup_bound = 0;        // min(threads, parallelism)
  double measured_speedup = 0;     // the region's speedup S(t) (docs/design.md); 0: no base
  // Measured faster than the graph allows for the same work: the work itself shrank (the tasks'
  // data shared among more caches), so the bound holds only for the work measured at t.
  bool superlinear = false;
  double starvation_s = 0;         // thread time
  double tail_idle_s = 0;          // thread time
  double end_idle_s = 0;           // thread time
  std::vector<TaskSiteCost> sites;  // by recorded tasks, most first
};

// TaskSummary::superlinear: a measured speedup more than 5% above the graph's bound (below that,
// the difference is within what repeats of one run differ by here).
inline bool exceeds_task_bound(double measured_speedup, double speedup_bound) {
  return measured_speedup > 0 && speedup_bound > 0 && measured_speedup > 1.05 * speedup_bound;
}

// A region's (or the program's) time T(t) fitted over the thread counts by the model stage:
// T(t) = constant + Σ coefficient · t^i · log2(t)^j.
struct ScalingModel {
  struct Term {
    double coefficient = 0;
    double i = 0;           // exponent of t
    std::string exponent;   // i as the fitter wrote it ("1/2", "-1")
    int j = 0;              // exponent of log2(t)
  };
  std::string function;     // the fitter's own text of T(t)
  double constant = 0;
  std::vector<Term> terms;
  double adj_r2 = 0;
  double smape = 0;
  std::optional<Growth> growth;  // of t·T(t) when growth_of_thread_seconds; none: no verdict
  bool growth_of_thread_seconds = false;
  std::optional<double> stops_paying_off_at;
  bool extrapolated = false;                // stops_paying_off_at lies beyond the last count
  std::vector<int> oversubscribed_threads;  // fitted counts with more threads than cores
  // The speedup the model predicts, T(t0)·t0 / T_model(t), sampled between the smallest and the
  // largest count so a chart can draw its curvature; empty where the model predicts no time, or
  // a speedup far above the measured ones, between the counts.
  std::vector<std::pair<double, double>> speedup_curve;  // (threads, speedup)
  // Why the model gives no growth or payoff verdict (growth and stops_paying_off_at are then
  // empty): its adj. R² is below 0.95, or it was fitted on counts without a core per thread.
  // Empty where it gives one.
  std::string verdict_withheld;
};

// A few lines of the source file a report names (a construct's directive, a finding's place),
// read by the analysis (analysis/source_excerpt.h) from the file the debug info names. `lines`
// empty: the file was not found where the debug info says (the reason is in `missing`).
struct SourceExcerpt {
  std::string file;                // the path read (as the debug info names it)
  int line = 0;                    // the line it is about
  int first_line = 0;              // the number of lines[0]
  std::vector<std::string> lines;  // as in the file, without their line ends
  std::string missing;             // why there are no lines ("source not found: <path>")
  bool found() const { return !lines.empty(); }
};

// CPU time the samples put at one source line (docs/sampling.md, "Sampled lines"): the line of
// the innermost frame in the program's own code (a sample inside a library or the runtime counts
// at the line that called it, where frame pointers lead there); line 0 where no frame had one
// (then `function` and `module` say where).
struct SampledLine {
  std::string file;
  int line = 0;
  std::string function;
  std::string module;
  double cpu_s = 0;  // thread time (mean over the repeats); in grown_lines, its growth from t0
};

// A region's (or serial code's) samples at one count: their CPU time and the lines that hold
// most of it.
struct SampledCode {
  double cpu_s = 0;                 // thread time the samples stand for (mean over the repeats)
  std::vector<SampledLine> lines;   // the top lines, by cpu_s
};

// A construct inside a region, at its own line (docs/source-locations.md, "Constructs inside a
// region"): kind loop, single, sections, masked, barrier, join_barrier (the region's end),
// taskwait, taskgroup, critical, lock, ..., or task (the tasks created at `line`, under the
// barrier or taskwait they ran in). `time_s` is the team's thread time in it ÷ team size,
// including what is under it; the region's top constructs and its `outside_constructs_s` add up
// to its time. `problems` are the region's causes where this construct carries them (a share of
// the region's gain, `details.share`).
struct ConstructReport {
  ConstructKind kind = ConstructKind::kLoop;
  std::string file;
  int line = 0;
  std::string function;
  uint64_t instances = 0;          // at the largest thread count measured: team visits, acquisitions or tasks
  std::map<int, double> time_s;
  std::vector<Problem> problems;
  std::vector<ConstructReport> constructs;  // inside it, by time at the largest count
  std::optional<SourceExcerpt> source;      // its directive and the lines around it; absent: no file:line
  // CPU-time samples in it, per count (docs/sampling.md): its CPU time and top three lines.
  std::map<int, SampledCode> sampled;
};

// One rank of an MPI job in a merged report (docs/mpi.md, "Merged report"): its time and causes in
// a region, keyed by thread count like the region's own.
struct RankTime {
  int rank = 0;
  std::map<int, double> time_s;  // empty: the rank did not run the region
  std::vector<Problem> problems;
  // Of time_s, the time its team spent in MPI calls inside the region (the most of any of its
  // threads: FUNNELED, the master's while the team waits); absent where none (docs/mpi.md).
  std::map<int, double> mpi_s;
};

// One rank's program in a merged report: its time, split into OpenMP parallel (top-level regions,
// less the initial thread's MPI calls in them), OpenMP serial (outside regions, less MPI) and MPI
// (the initial thread's calls, outside regions and in them); the three add up to time_s.
struct RankSplit {
  int rank = 0;
  std::map<int, double> time_s, parallel_s, serial_s, mpi_s;
  // A process of a program that started others (Report::ranks_are_processes): its pid and command.
  int pid = 0;
  std::string command;
};

// A parallel region, or the program's serial code (one pseudo-region: its time outside them).
enum class RegionKind { kParallel, kSerial };
// "parallel", "serial": as report.json spells them.
constexpr std::string_view to_string(RegionKind kind) { return kind == RegionKind::kSerial ? "serial" : "parallel"; }

struct RegionReport {
  std::string id;               // "r1", ... in source order (file, line), the same in every command on
                                // one program; "serial" for the program's serial code
  RegionKind kind = RegionKind::kParallel;
  std::string file;
  int line = 0;
  std::string function;         // the full symbol: a C++ signature keeps its parameter list
  std::string module;
  uint64_t module_offset = 0;
  bool nested = false;
  uint64_t instances = 0;       // at the largest thread count measured
  std::map<int, uint64_t> instances_at;
  std::map<int, uint64_t> recorded_instances_at;  // adaptive sampling: instances recorded in full
  std::map<int, double> time_s, speedup, efficiency, time_lost_s;
  // Of time_lost_s, what no cause explains: time_lost_s = Σ gain_s of the causes at that count
  // (as capped) + unexplained_s wherever the causes do not explain more than the loss
  // (docs/lost-time.md).
  std::map<int, double> unexplained_s;
  std::map<int, std::vector<ThreadSplit>> per_thread;
  std::map<int, TaskSummary> tasks;  // only where the region created explicit tasks
  // What-if replay of its task graphs (docs/tasks.md, "Replay"): the instances that created
  // tasks, as recorded at `from_threads` (the smallest count), replayed by a list scheduler on
  // each count up to 256 with the run's per-task cost; absent where a task was sampled out.
  struct TaskReplay {
    int from_threads = 0;
    double per_task_s = 0;
    std::map<int, double> predicted_time_s;
    // The tasks' own work at `body_growth_at` threads (the largest count measured) over
    // `from_threads`', carried by predicted_time_s at every count above from_threads; 1 and 0:
    // no larger count measured them (profile), the bodies as recorded.
    double body_growth = 1;
    int body_growth_at = 0;
    // The instances that created tasks and, of them, the ones replayed (a stated sample where a
    // region has more than 4 096: analysis/task_figures.h, kReplayedInstances); the
    // predicted times are the sample's scaled by the wall time of all over the sample's.
    uint64_t instances = 0;
    uint64_t replayed_instances = 0;
  };
  std::optional<TaskReplay> task_replay;
  // CPU-time samples (docs/sampling.md, "Sampled lines"): where the region's CPU time went at each
  // count, the lines whose time grew most from the smallest count to the largest, and the call
  // stacks at the largest count, folded ("outer;...;inner" → thread time), for flame graphs.
  std::map<int, SampledCode> sampled;
  std::vector<SampledLine> grown_lines;
  std::vector<std::pair<std::string, double>> stacks;
  std::vector<Problem> problems;
  std::optional<ScalingModel> model;
  std::vector<ConstructReport> constructs;          // the construct tree, by time at the largest count
  std::map<int, double> outside_constructs_s;       // its own code and fork/join: time_s − Σ top constructs
  // A merged report of an MPI job (docs/mpi.md): every rank's time and causes here, by rank, and
  // the rank imbalance, max − mean over ranks of their time (a rank without the region counts 0).
  std::vector<RankTime> ranks;
  std::map<int, double> rank_imbalance_s;
  // How much the region's time varied over the repeats at each count: max − min of the repeats'
  // times (absent where one run was measured at that count).
  std::map<int, double> time_spread_s;
  // Each repeat's time at each count, in the order they ran (absent where one run was measured):
  // what `diff` tests a change against (docs/diff.md).
  std::map<int, std::vector<double>> repeat_times_s;

  // What regions are ranked by at `threads` (the ranked count): the time lost there, what the causes
  // explain and what none does together; 0 where it ran faster than perfect scaling or no loss was
  // measured (a report of one count: then the largest gain ranks).
  double rank_loss(int threads) const {
    const auto lost = time_lost_s.find(threads);
    return lost == time_lost_s.end() || !(lost->second > 0) ? 0.0 : lost->second;
  }

  double largest_gain(int threads) const {
    double g = 0;
    for (const Problem& p : problems)
      if (p.threads == threads && p.gain_s > g) g = p.gain_s;
    return g;
  }
};

// A remark about the whole report. Remarks of one kind are one note: `items` lists what it is
// about (one region each, say), so a report of 31 sampled regions says so once.
struct Note {
  std::string kind;   // "sampling", "binding", "gcc", "models", ... ; "" for a note read from schema 1
  std::string text;
  std::vector<std::string> items;
};

// S(t) = T(t0)·t0 / T(t), t0 the smallest count measured (docs/design.md, "Metrics"): the one
// definition of speedup, used by the analysis (and by the reader for reports written before the
// report stored it). A speedup needs a measured base: at t0 itself it is 1 when t0 = 1 and
// unknown otherwise.
inline std::optional<double> speedup_at(int t0, double time0, int t, double time) {
  if (!(time > 0) || (t == t0 && t0 != 1)) return std::nullopt;
  return time0 * t0 / time;
}

// speedup_at for every count of a T(t) series.
inline std::map<int, double> speedups(const std::map<int, double>& time_s) {
  std::map<int, double> out;
  if (time_s.empty()) return out;
  const auto& [t0, time0] = *time_s.begin();
  for (const auto& [t, time] : time_s)
    if (const auto s = speedup_at(t0, time0, t, time)) out[t] = *s;
  return out;
}

// What `ompscope bench` measured on this machine for the runtime library the runs loaded, read from
// its cache (docs/tasks.md, "The bench cache").
struct BenchCosts {
  std::string runtime_library;
  int threads = 0;                  // the team it was measured with
  double task_s = 0;                // create an empty task, run it, taskwait
  double dispatch_per_chunk_s = 0;  // a dynamic loop's dispatch per chunk; 0: not measured
  double task_tree_s = 0;           // a recursive tree's task deferred, beyond run at once (thread time); 0: not measured
  std::string measured_at;
  // The entry the figures came from: the cache file and the machine it was measured on (a report
  // names it, so two reports whose hints differ say whether the cache changed between them).
  std::string cache_file;
  std::string machine;
};

// One line of the report's opening list: a cause of one region at the count regions are ranked
// at, placed at the construct that carries most of it (report/findings.h builds the list).
struct Finding {
  explicit Finding(CauseKind cause) : kind(cause) {}
  CauseKind kind;
  std::string region;            // the region's id
  int threads = 0;               // the count it was found at (the ranked count)
  std::string file;              // where: the construct carrying most of it, else the region
  int line = 0;
  std::string function;
  double gain_s = 0;             // wall time saved at `threads` if the cause vanished
  double time_s = 0;             // what the cause costs as measured (Problem::time_s)
  double run_share = 0;          // gain_s ÷ the program's time at `threads`; 0: unknown
  std::string action;            // the first action of its hint, without its explanations
  std::string hint;              // the whole hint
  // How sure: the gain beside the spread of the region's time over the repeats at `threads`.
  int repeats = 0;               // runs at `threads` (observed)
  double spread_s = 0;           // max − min of the region's time over them; 0 with one run
  std::string certainty;         // "firm" (gain ≥ 3 spreads), "likely" (≥ 1), "within_noise", "one_run"
  std::optional<SourceExcerpt> source;  // the lines at file:line
};

struct Report {
  std::string version;  // of the tool that built the report
  std::vector<std::string> command;
  std::vector<int> threads;
  int cores = 0;
  std::vector<RunRecord> runs;
  std::map<int, double> program_time_s, program_speedup, program_efficiency, serial_s;
  // The initial thread's time in MPI calls outside parallel regions (docs/mpi.md): never in
  // serial_s. Empty for a program that makes no MPI call observed.
  std::map<int, double> mpi_s;
  // Of serial_s, the time the initial thread was off its CPU without waiting for one (sleep, I/O,
  // a child: docs/design.md, "Serial time off the CPU"), and waiting for one (descheduled). Empty
  // where the capture recorded no readings.
  std::map<int, double> serial_blocked_s, serial_runqueue_s;
  // Of serial_s, the time before the program's first OpenMP call started the runtime, and with it
  // the tool (RunAnalysis::serial_before_runtime_s): no CPU-time sample places it. Empty where the
  // runs were counted from the runtime's start (a log reported without its launch) or none was.
  std::map<int, double> serial_before_runtime_s;
  // A merged report of an MPI job (docs/mpi.md): each rank's program split, by rank; the rank
  // imbalance of the time outside MPI, max − mean over ranks; and the rank whose report the
  // other figures are (the slowest; -1 when not merged).
  std::vector<RankSplit> ranks;
  std::map<int, double> rank_imbalance_s;
  int merged_from_rank = -1;
  // The "ranks" are the processes of one program that ran OpenMP code, the program's own first
  // (docs/safety.md, "Processes and signals"), not the ranks of an MPI job.
  bool ranks_are_processes = false;
  // T(t) − T(t0)·t0/t, and what the top-level regions' and serial code's causes leave of it.
  std::map<int, double> program_time_lost_s, program_unexplained_s;
  // What regions that ran faster than ideal gave back of the others' losses: time lost = the
  // causes' parts − given back + unexplained.
  std::map<int, double> program_given_back_s;
  std::map<int, std::pair<double, double>> program_time_range_s;  // the repeats' fastest and slowest
  double amdahl_speedup_bound = 0;  // 0: unknown
  std::map<int, std::vector<ThreadSplit>> program_threads;  // per log thread, first repeat
  std::optional<ScalingModel> program_model;
  std::vector<RegionReport> regions;  // ranked by RegionReport::rank_loss at the ranked count, then gain
  // The counts whose causes the terminal summary lists: the largest, where regions are ranked,
  // and first, when the largest is oversubscribed, the largest with a core per thread.
  std::vector<int> summary_threads;
  std::vector<Note> notes;
  std::string runtime;  // as the runtime named itself
  std::optional<BenchCosts> bench;  // absent: no bench cached for this runtime on this machine
  // The report's opening list: at most kMaxFindings causes over all regions, by gain at the
  // ranked count (summary_threads.front()), each worth at least 1% of the run there.
  std::vector<Finding> findings;

  // scale --weak: the program's work grows with the team by design; efficiency T(t0)/T(t), time
  // lost T(t) − T(t0), no speedup (docs/design.md, "Work that grows with the team").
  bool weak = false;

  bool oversubscribed(int t) const { return cores > 0 && t > cores; }
};

// The counts whose causes the terminal summary lists (Report::summary_threads): the largest,
// where regions are ranked, and, when the largest is oversubscribed, first the largest count
// with a core per thread: there fork/join and barrier costs are the runtime's, not time-sharing's.
inline std::vector<int> summary_counts(const Report& report) {
  if (report.threads.empty()) return {};
  std::vector<int> counts;
  if (report.oversubscribed(report.threads.back()))
    for (auto t = report.threads.rbegin(); t != report.threads.rend(); ++t)
      if (*t > 1 && !report.oversubscribed(*t)) {
        counts.push_back(*t);
        break;
      }
  counts.push_back(report.threads.back());
  return counts;
}

}  // namespace ompscope::report
