#include "analysis/pipeline.h"

#include <algorithm>
#include <utility>

#include "analysis/build_report.h"
#include "analysis/rank_merge.h"
#include "analysis/region_identity.h"
#include "analysis/scaling_models.h"

namespace ompscope::analysis {

LoadedRun load_run(const std::filesystem::path& log_dir, const LaunchClock& launch, bool starts_at_launch) {
  LoadedRun run;
  run.log = read_run_log(log_dir, launch, {.stream = true});  // the records stay in their files
  run.timeline = build_timeline(run.log);
  if (starts_at_launch && launch.start) {
    const double runtime_start = run.timeline.start;
    run.timeline.start = std::min(run.timeline.start, run.log.seconds(launch.start->ticks));
    run.timeline.before_runtime_s = runtime_start - run.timeline.start;
  }
  run.symbols = std::make_unique<Symbolizer>(run.log.meta.modules);
  identify_region_bodies(
      run.timeline, [&](uint64_t address) { return run.symbols->outlined_body_entry(address); },
      [&](uint64_t address) { return run.symbols->tail_called_fork_body(address); },
      [&](uint64_t fork, uint64_t entry) { return run.symbols->fork_passes_body(fork, entry); });
  return run;
}

TraceModel trace_model_of(LoadedRun& run) {
  return build_trace_model(
      std::exchange(run.timeline, Timeline{}),
      [&](uint64_t address, bool body) {
        return callsite_of(body ? run.symbols->resolve_body(address) : run.symbols->resolve(address), address);
      },
      run.log.meta.pid, run.log.meta.clock_start.ns);
}

RunAnalysis analyse_log(const std::filesystem::path& log_dir, const LaunchClock& launch, RunRecord& rec,
                        const LogAnalysis& how, int* local_rank) {
  const LoadedRun run = load_run(log_dir, launch, how.starts_at_launch);
  if (local_rank) *local_rank = run.log.meta.local_rank;
  const Timeline& timeline = run.timeline;
  rec.observed = true;
  rec.rank = run.log.meta.rank;
  rec.finalized = run.log.meta.finalized;
  rec.events = timeline.events;
  rec.dropped_events = run.log.meta.dropped_events;
  // The team that ran, not the count asked for: a program that sets its own (omp_set_num_threads,
  // num_threads, a count from its command line) ignores OMP_NUM_THREADS.
  uint32_t team = 0;
  for (const auto& r : timeline.regions)
    if (r.parent_parallel_id == 0) team = std::max(team, r.team_size);
  rec.threads_measured = team > 0;
  if (team > 0) rec.threads = static_cast<int>(team);
  else if (rec.threads == 0) rec.threads = 1;
  // The bench cache's deferred-task cost for the runtime the run loaded, for the replay of task
  // graphs recorded at one thread (what is wrong with the cache is said once, by the report).
  std::optional<BenchCosts> bench;
  if (how.bench && *how.bench) bench = (*how.bench)(runtime_library_of(run.log.meta), false);
  return analyze_run(timeline, run.log.meta, *run.symbols, {how.replay, bench ? bench->task_tree_s : 0.0, how.workers});
}

Report assemble_report(const Measurement& m) {
  const auto bench_of = [&](const std::vector<MeasuredRun>& runs) -> std::optional<BenchCosts> {
    if (!m.bench || !*m.bench) return std::nullopt;
    for (const MeasuredRun& run : runs)
      if (run.analysis && !run.analysis->runtime_library.empty()) return (*m.bench)(run.analysis->runtime_library, true);
    return std::nullopt;
  };
  std::vector<Report> reports;
  std::vector<int> pids;
  for (const Measurement::Process& p : m.processes) {
    reports.push_back(build_report(p.command.empty() ? m.command : p.command, m.cores, p.runs, bench_of(p.runs), m.weak));
    pids.push_back(p.pid);
  }
  if (reports.empty()) reports.push_back(build_report(m.command, m.cores, {}, std::nullopt, m.weak));
  // Other processes that ran OpenMP code are listed after the program's own, as ranks are.
  Report report = reports.size() == 1 ? std::move(reports.front()) : merge_process_reports(reports, pids);
  report.command = m.command;  // what the user ran; each process's own is in its place
  for (const Note& note : m.notes) report.notes.push_back(note);
  if (m.scaling_models) add_scaling_models(report);
  return report;
}

}  // namespace ompscope::analysis
