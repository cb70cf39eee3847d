// Time and peak memory of each stage of `ompscope trace` after the run, on a log directory (a
// synthetic one from synthetic_log, or a run's): read + timeline + symbols, the trace model, then
// one writer, OTF2 or Perfetto JSON (every slice: no --max-events cut). One writer per process,
// so that the peak RSS printed after each stage is that stage's (bench/analysis_stream.sh,
// BENCHMARKS.md "Streaming analysis").
//   trace_writers LOG_DIR otf2|perfetto OUT
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "analysis/pipeline.h"
#include "common/allocator.h"
#include "output/otf2_trace.h"
#include "output/perfetto_trace.h"

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double peak_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 || (std::string(argv[2]) != "otf2" && std::string(argv[2]) != "perfetto")) {
    std::fprintf(stderr, "usage: trace_writers LOG_DIR otf2|perfetto OUT\n");
    return 2;
  }
  const std::string format = argv[2];
  const std::filesystem::path out = argv[3];
  auto t0 = std::chrono::steady_clock::now();
  ompscope::analysis::LoadedRun run = ompscope::analysis::load_run(argv[1]);
  std::printf("%-10s %9.3f s %9.0f MB peak  %llu events\n", "timeline", seconds_since(t0), peak_mb(),
              static_cast<unsigned long long>(run.timeline.events));
  t0 = std::chrono::steady_clock::now();
  ompscope::return_freed_memory_at_once();  // as `trace` does (src/cli/trace_command.cpp)
  const ompscope::analysis::TraceModel model = ompscope::analysis::trace_model_of(run);
  std::printf("%-10s %9.3f s %9.0f MB peak  %llu slices\n", "model", seconds_since(t0), peak_mb(),
              static_cast<unsigned long long>(model.slice_count()));
  t0 = std::chrono::steady_clock::now();
  unsigned long long written = 0;
  if (format == "otf2") {
    written = ompscope::output::write_otf2_trace(model, out, "trace_writers").events;
  } else {
    std::ofstream file(out, std::ios::binary);
    ompscope::output::PerfettoOptions options;
    options.max_events = UINT64_MAX;
    written = ompscope::output::write_perfetto_trace(model, file, options).events_written;
    file.flush();
    if (!file) {
      std::fprintf(stderr, "trace_writers: cannot write %s\n", out.c_str());
      return 1;
    }
  }
  const double s = seconds_since(t0);
  std::printf("%-10s %9.3f s %9.0f MB peak  %llu events written, %.3g events/s\n", format.c_str(), s, peak_mb(), written,
              s > 0 ? static_cast<double>(written) / s : 0.0);
  return 0;
}
