// ns per recorded event on the capture hot path (timestamp + slot + 32-byte store), including
// the amortised cost of moving to the next mmap'ed chunk, on a real log file.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "capture/thread_log.h"

namespace ompscope::capture {
namespace {

thread_local ThreadLog t_log;

void run(benchmark::State& state, ClockSource clock) {
  static const std::string dir =
      (std::filesystem::temp_directory_path() / ("ompscope-hotpath-" + std::to_string(getpid()))).string();
  std::filesystem::create_directories(dir);
  const LogConfig config{dir.c_str(), 4u << 20};
  // Open the log before timing: the per-run file creation is not per-event cost.
  append_event(t_log, config, clock, Event{});
  uint32_t i = 0;
  for (auto _ : state) {
    append_event(t_log, config, clock, Event{0, 0x401000, i, i + 1, 0, 0, EventKind::SyncBegin, 2});
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
  close_thread_log(t_log, config);
  t_log = ThreadLog{};
  std::filesystem::remove_all(dir);
}

void BM_AppendEventTsc(benchmark::State& state) { run(state, ClockSource::Tsc); }
void BM_AppendEventMonotonic(benchmark::State& state) { run(state, ClockSource::Monotonic); }

// 2^24 events = 512 MiB of log: crosses 128 chunk boundaries, so roll-over cost is included.
// Within one pre-populated chunk: the per-event cost alone.
BENCHMARK(BM_AppendEventTsc)->Iterations(100000)->Repetitions(7)->ReportAggregatesOnly(true);
BENCHMARK(BM_AppendEventTsc)->Iterations(1 << 24)->Repetitions(7)->ReportAggregatesOnly(true);
BENCHMARK(BM_AppendEventMonotonic)->Iterations(1 << 24)->Repetitions(7)->ReportAggregatesOnly(true);

}  // namespace
}  // namespace ompscope::capture

BENCHMARK_MAIN();
