// The pipeline, assembled in one place (docs/design.md, "Pipeline"): a run's log → its timeline
// (load_run) → its analysis (analyse_log) → with the command's other runs, processes and ranks, the
// report (assemble_report). profile, scale, report and trace each make one call of each; the cli
// runs programs, finds their logs and writes files, and computes nothing of the report.
#pragma once
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/build_trace_model.h"
#include "analysis/report.h"
#include "analysis/run_analysis.h"

#include "analysis/run_log.h"
#include "analysis/symbolizer.h"
#include "analysis/timeline.h"

namespace ompscope::analysis {

struct LoadedRun {
  RunLog log;
  Timeline timeline;
  std::unique_ptr<Symbolizer> symbols;
};

// `launch`: the launcher's clock points (run_log.h), which calibrate any process's log.
// `starts_at_launch`: the log is the program's own process, started by the launcher: its serial
// code before the first OpenMP call ran before its tool started, so the timeline starts at the
// launch. Another process (a child, a rank) starts where its tool did. Throws ompscope::Error on
// a malformed log.
LoadedRun load_run(const std::filesystem::path& log_dir, const LaunchClock& launch = {}, bool starts_at_launch = false);

// The run's trace (`trace`, and bench/analysis/trace_writers): its nested slices, each callsite
// named by the run's symbols. The run's timeline is given up to it (build_trace_model frees its
// records as they become slices); its log and symbols stay.
TraceModel trace_model_of(LoadedRun& run);

// What `ompscope bench --calibrate` cached on this machine for a runtime library (docs/tasks.md,
// "The bench cache"), as the command that reads the cache looks it up; none where nothing is
// cached. `say_why_not`: a cache there but unusable is said in one line (once per report).
using BenchLookup = std::function<std::optional<BenchCosts>(const std::string& runtime_library, bool say_why_not)>;

struct LogAnalysis {
  // The log's process was started by the launcher: its timeline starts at the launch (load_run).
  bool starts_at_launch = false;
  // Replay the run's task graphs (scale: only the runs at its smallest count, the replay's source).
  bool replay = true;
  // The bench cache, for the deferred-task cost a replay from one thread charges; none: no cache.
  const BenchLookup* bench = nullptr;
  // Cores this log's analysis may use (ReplayOptions::workers): its share where others are
  // analysed beside it.
  int workers = 1;
};

// Reads and analyses one log directory, filling the record's observation fields (observed, rank,
// finalised, events, dropped events, the team that ran: a program that sets its own ignores
// OMP_NUM_THREADS). `local_rank`: where given, the rank's place on its node (-1: none). Throws
// ompscope::Error on a corrupt or truncated log.
RunAnalysis analyse_log(const std::filesystem::path& log_dir, const LaunchClock& launch, RunRecord& record,
                        const LogAnalysis& how = {}, int* local_rank = nullptr);

// Everything one report is assembled from: the runs of each process of the program that ran
// OpenMP code, and the notes of the command that ran them.
struct Measurement {
  std::vector<std::string> command;  // what the user ran
  int cores = 0;                     // the cores the program's threads had (a rank's share of its node)
  bool weak = false;                 // scale --weak (build_report.h)
  struct Process {
    // Its runs moved in: a braced list of runs copies each one's analysis (every region's phases
    // and constructs: a tenth of `report`'s time, and its memory twice).
    static Process of(MeasuredRun run, std::vector<std::string> command = {}, int pid = 0) {
      Process p{{}, std::move(command), pid};
      p.runs.push_back(std::move(run));
      return p;
    }
    std::vector<MeasuredRun> runs;
    std::vector<std::string> command;  // its own command line; empty: `command`
    int pid = 0;
  };
  // [0] the program's own process; the others it started (or that started it), by when they
  // started, are merged beside it as ranks are (rank_merge.h).
  std::vector<Process> processes;
  std::vector<Note> notes;           // the command's, after the report's own (target, binding, launcher)
  bool scaling_models = false;       // fit T(t) of the program and each region (scale)
  const BenchLookup* bench = nullptr;
};

// The report of one measurement: built per process (build_report, with the bench cache's entry
// for the runtime each loaded), merged where there are several, the command's notes after its
// own, the scaling models where asked for. An MPI job's ranks are one measurement each, their
// reports merged in memory by merge_rank_reports (rank_merge.h).
Report assemble_report(const Measurement& measurement);

}  // namespace ompscope::analysis
