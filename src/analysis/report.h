// The typed result of `profile` and `scale`: what report.json holds (docs/design.md, "The report"). The
// output writers render it; nothing downstream computes a metric.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analysis/region_profile.h"
#include "report/causes.h"

namespace ompscope::analysis {

struct RunRecord {
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
};

struct Problem {
  report::CauseKind kind;  // an entry of the table of causes (report/causes.h)
  int threads = 0;
  double time_s = 0;    // wall time the cause costs, as measured
  double gain_s = 0;    // wall time saved at `threads` if the cause vanished
  std::string hint;
  std::vector<std::pair<std::string, double>> details;
};

// A tasking region at one thread count (task_figures.h, task_graph.h), medians over repeats.
struct TaskSummary {
  double tasks = 0;
  double recorded_tasks = 0;       // recorded in full (adaptive sampling); the others counted in batches
  double hidden_subtree_tasks = 0; // sampled-out tasks created inside sampled-out ones: the span omits them
  double mean_body_s = 0;
  double dispatch_s = 0;           // runtime's per-task dispatch cost; 0: not measured
  double creation_s = -1;          // median interval between two creations with nothing between (upper bound); -1: not measured
  double taskwait_s = 0;           // a taskwait that finds its children done; 0: not measured
  double immediate_start_s = 0;    // creation → start of a task run at once by its creator; 0: not measured
  double per_task_cost_s = 0;      // the runtime's cost per task (task_diagnoses.h); 0: not measured
  double work_s = 0;
  double span_s = 0;
  double parallelism = 0;          // work ÷ span
  double speedup_bound = 0;        // min(threads, parallelism)
  double measured_speedup = 0;     // T(t0)·t0 / T(t), as the efficiency; 0: no base (one count t0 > 1)
  double starvation_s = 0;         // thread time
  double tail_idle_s = 0;          // thread time
  double end_idle_s = 0;           // thread time
};

struct RegionReport {
  std::string id;               // "r1", ... by rank
  std::string kind = "parallel";  // or "serial" for the program's serial code
  std::string file;
  int line = 0;
  std::string function;
  std::string module;
  uint64_t module_offset = 0;
  bool nested = false;
  uint64_t instances = 0;       // at the largest thread count measured
  std::map<int, uint64_t> instances_at;
  std::map<int, uint64_t> recorded_instances_at;  // adaptive sampling: instances recorded in full
  std::map<int, double> time_s, efficiency, time_lost_s;
  std::map<int, std::vector<ThreadSplit>> per_thread;
  std::map<int, TaskSummary> tasks;  // only where the region created explicit tasks
  std::vector<Problem> problems;

  double largest_gain(int threads) const;
};

struct Report {
  std::vector<std::string> command;
  std::vector<int> threads;
  int cores = 0;
  std::vector<RunRecord> runs;
  std::map<int, double> program_time_s, program_efficiency, serial_s;
  double amdahl_speedup_bound = 0;  // 0: unknown
  std::map<int, std::vector<ThreadSplit>> program_threads;  // per log thread, first repeat
  std::vector<RegionReport> regions;  // ranked
  std::vector<std::string> notes;
  std::string runtime;  // as the runtime named itself

  bool oversubscribed(int t) const { return cores > 0 && t > cores; }
};

}  // namespace ompscope::analysis
