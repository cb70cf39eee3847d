// ns per recorded event on the capture hot path (timestamp + slot + 32-byte store), including
// the amortised cost of handing full chunks to the writer thread, on a real log file. The
// "process_cpu_ns" counter adds the writer thread's CPU time: the whole cost of the log.
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "capture/thread_log.h"

namespace ompscope::capture {
namespace {

thread_local ThreadLog t_log;

double process_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

void run(benchmark::State& state, ClockSource clock) {
  static const std::string dir =
      (std::filesystem::temp_directory_path() / ("ompscope-hotpath-" + std::to_string(getpid()))).string();
  std::filesystem::create_directories(dir);
  const LogConfig config{dir.c_str()};  // the tool's default chunk size
  // Open the log before timing: the per-run file creation is not per-event cost.
  append_event(t_log, config, clock, Event{});
  uint32_t i = 0;
  const double cpu_before = process_cpu_seconds();
  for (auto _ : state) {
    append_event(t_log, config, clock, Event{0, 0x401000, i, i + 1, 0, 0, EventKind::SyncBegin, 2});
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
  close_thread_log(t_log, config);  // waits for the writer: its work is part of the cost
  state.counters["process_cpu_ns"] =
      (process_cpu_seconds() - cpu_before) * 1e9 / static_cast<double>(state.iterations());
  t_log = ThreadLog{};
  std::filesystem::remove_all(dir);
}

void BM_AppendEventTsc(benchmark::State& state) { run(state, ClockSource::Tsc); }
void BM_AppendEventMonotonic(benchmark::State& state) { run(state, ClockSource::Monotonic); }

// 2^24 events = 512 MiB of log: crosses 512 chunk boundaries, so hand-off cost is included.
// Within one pre-populated chunk: the per-event cost alone.
BENCHMARK(BM_AppendEventTsc)->Iterations(100000)->Repetitions(7)->ReportAggregatesOnly(true);
BENCHMARK(BM_AppendEventTsc)->Iterations(1 << 24)->Repetitions(7)->ReportAggregatesOnly(true);
BENCHMARK(BM_AppendEventMonotonic)->Iterations(1 << 24)->Repetitions(7)->ReportAggregatesOnly(true);

}  // namespace
}  // namespace ompscope::capture

BENCHMARK_MAIN();
