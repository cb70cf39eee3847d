// Events per second of the offline analysis, stage by stage, on a real log directory (one run):
// reading the per-thread files (into memory, and the streamed path's checking read), building the
// timeline (from memory and from the streamed files), the analyses of a built timeline alone, and
// the whole per-run analysis (profile, barrier phases, locks, tasks; symbolising is cached after
// the first repetition). Google
// Benchmark repetitions give min/median/stddev; items are log events.
//   analysis_throughput LOG_DIR [--benchmark_repetitions=5 ...]
// bench/analysis_throughput.sh records the logs BENCHMARKS.md quotes.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "analysis/constructs.h"
#include "analysis/run_analysis.h"
#include "analysis/run_log.h"
#include "analysis/task_replay.h"
#include "analysis/task_work.h"
#include "analysis/timeline.h"

namespace ompscope::analysis {
namespace {

std::filesystem::path g_log_dir;

uint64_t event_count(const RunLog& log) { return log.event_count(); }

constexpr LogReading kStreamed{.stream = true};

void BM_ReadLog(benchmark::State& state) {
  uint64_t events = 0;
  for (auto _ : state) {
    RunLog log = read_run_log(g_log_dir);
    events = event_count(log);
    benchmark::DoNotOptimize(log);
  }
  state.SetItemsProcessed(static_cast<int64_t>(events * state.iterations()));
}

void BM_BuildTimeline(benchmark::State& state) {
  const RunLog log = read_run_log(g_log_dir);
  for (auto _ : state) {
    Timeline t = build_timeline(log);
    benchmark::DoNotOptimize(t);
  }
  state.SetItemsProcessed(static_cast<int64_t>(event_count(log) * state.iterations()));
}

// The checking read of the streamed path: every record read and checked, none kept.
void BM_ScanLogStreamed(benchmark::State& state) {
  uint64_t events = 0;
  for (auto _ : state) {
    RunLog log = read_run_log(g_log_dir, {}, kStreamed);
    events = event_count(log);
    benchmark::DoNotOptimize(log);
  }
  state.SetItemsProcessed(static_cast<int64_t>(events * state.iterations()));
}

// The timeline of a streamed log: its walks read the files again, block by block.
void BM_BuildTimelineStreamed(benchmark::State& state) {
  const RunLog log = read_run_log(g_log_dir, {}, kStreamed);
  for (auto _ : state) {
    Timeline t = build_timeline(log);
    benchmark::DoNotOptimize(t);
  }
  state.SetItemsProcessed(static_cast<int64_t>(event_count(log) * state.iterations()));
}

// The analyses after the timeline alone (profile, barrier phases, constructs, locks, tasks).
void BM_AnalysesOfTheTimeline(benchmark::State& state) {
  const RunLog log = read_run_log(g_log_dir, {}, kStreamed);
  const Timeline timeline = build_timeline(log);
  Symbolizer symbols(log.meta.modules);
  for (auto _ : state) {
    RunAnalysis a = analyze_run(timeline, log.meta, symbols);
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(static_cast<int64_t>(event_count(log) * state.iterations()));
}

// The whole per-run analysis as `report` runs it: the log streamed from its files, the timeline,
// the analyses (its peak memory, under heaptrack, is the report's without the CLI's allocator).
void BM_AnalyseRun(benchmark::State& state) {
  const RunLog log = read_run_log(g_log_dir, {}, kStreamed);
  Symbolizer symbols(log.meta.modules);
  for (auto _ : state) {
    RunAnalysis a = analyze_run(build_timeline(log), log.meta, symbols);
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(static_cast<int64_t>(event_count(log) * state.iterations()));
}

// The replay of the instance with the most tasks at one thread count (the argument), on one
// thread: what a recursive tree's report spends per count (task_figures replays the team's size
// and each power of two above it). Items are the instance's tasks.
void BM_ReplayOfTheLargestInstance(benchmark::State& state) {
  const RunLog log = read_run_log(g_log_dir, {}, kStreamed);
  const Timeline timeline = build_timeline(log);
  const ConstructInputs inputs(timeline);
  const RegionInstance* largest = nullptr;
  std::span<const TaskInstance* const> tasks;
  for (const RegionInstance& inst : timeline.regions)
    if (const auto these = inputs.tasks.find(inst.parallel_id); these.size() > tasks.size()) largest = &inst, tasks = these;
  if (largest == nullptr) {
    state.SkipWithError("no task instance in this log");
    return;
  }
  const ReplayScripts* scripts = replay_scripts(task_nodes(*largest, tasks));
  if (scripts == nullptr) {
    state.SkipWithError("the largest instance cannot be replayed (sampled-out tasks: OMPSCOPE_SAMPLING=off)");
    return;
  }
  const std::vector<int> count{static_cast<int>(state.range(0))};
  for (auto _ : state) benchmark::DoNotOptimize(replay_instance(*scripts, count, 2e-7));
  state.SetItemsProcessed(static_cast<int64_t>(tasks.size() * state.iterations()));
}

BENCHMARK(BM_ReadLog)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BuildTimeline)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ScanLogStreamed)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BuildTimelineStreamed)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_AnalysesOfTheTimeline)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_AnalyseRun)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReplayOfTheLargestInstance)->RangeMultiplier(4)->Range(2, 256)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace ompscope::analysis

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: analysis_throughput LOG_DIR [benchmark flags]\n");
    return 2;
  }
  ompscope::analysis::g_log_dir = argv[1];
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
