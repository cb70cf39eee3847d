// An event log directory, as `ompscope report DIR` on a raw log reads it: analysis/run_log checks
// the per-thread records and streams them, then the timeline and the run's analyses are built from them (the
// records are outside input: a log from another version, a crashed program, a damaged disk).
// The input is the thread files one after another; each starts with the log's magic, at which
// it is cut. meta.txt is a fixed, valid one (log_meta_fuzz fuzzes that file).
#include <cstring>
#include <filesystem>

#include "analysis/run_analysis.h"
#include "analysis/run_log.h"
#include "analysis/symbolizer.h"
#include "analysis/timeline.h"
#include "common/error.h"
#include "common/event_record.h"
#include "fuzz_input.h"

namespace {
constexpr const char* kMeta =
    "ompscope-log 1\npid 1\nomp_version 201611\nruntime LLVM OMP version: 5.0.20140926\nclock tsc\n"
    "clock_start 8530131956456 3280744540965\nchunk_bytes 1048576\n"
    "sampling regions 1000 10 locks 10000 16 tasks 2000 16 128\n"
    "callback thread_begin 5\ncallback parallel_begin 5\ncallback implicit_task 5\ncallback work 5\n"
    "callback dispatch 1\ncallback sync_region 5\ncallback mutex_acquire 5\ncallback task_create 5\n"
    "callback task_schedule 5\ncallback mutex_acquired 5\ncallback mutex_released 5\ninitialized 1\nclock_end 8530169402372 3280758936914\nthreads 2\ndropped 0\n"
    "finalized 1\n";
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace fs = std::filesystem;
  static const fs::path dir = [] {
    fs::path d = fs::path(ompscope::fuzz::scratch_directory()) / "log";
    fs::create_directories(d);
    ompscope::fuzz::write_file((d / ompscope::kMetaFileName).string(), kMeta);
    return d;
  }();
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename() != ompscope::kMetaFileName) fs::remove(entry.path());

  const std::string_view input = ompscope::fuzz::text_of(data, size);
  const std::string_view magic(ompscope::kLogMagic, sizeof ompscope::kLogMagic);
  size_t begin = 0;
  for (int thread = 0; begin < input.size() && thread < 64; ++thread) {
    size_t next = input.find(magic, begin + 1);
    if (next == std::string_view::npos) next = input.size();
    char name[32];
    snprintf(name, sizeof name, "thread-%04d.evt", thread);
    ompscope::fuzz::write_file((dir / name).string(), input.substr(begin, next - begin));
    begin = next;
  }
  try {
    // Streamed, as load_run reads a log, in blocks of 5 records: block boundaries everywhere; walked
    // in epochs of one record: an epoch ends at every fork outside every region.
    const ompscope::analysis::RunLog log = ompscope::analysis::read_run_log(dir, {}, {.stream = true, .block_records = 5});
    ompscope::analysis::Symbolizer symbols(log.meta.modules);
    const ompscope::analysis::Timeline timeline = ompscope::analysis::build_timeline(log, 1);
    ompscope::analysis::analyze_run(timeline, log.meta, symbols);
  } catch (const ompscope::Error&) {
  }
  return 0;
}
