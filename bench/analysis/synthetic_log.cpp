// Writes a synthetic ompscope log directory of about N events (meta.txt + one thread file per
// thread), for the analysis benchmark (bench/analysis_stream.sh, BENCHMARKS.md "Streaming
// analysis"): a CLOCK_MONOTONIC run of T threads (default 2) repeating one parallel region whose
// every instance has an imbalanced worksharing loop and its barrier, a critical section taken by
// each thread, and a task tree (4 tasks created by thread 0, run by thread 1, each creating two
// children it waits for in a taskwait), then the join barrier. About 68 events per instance at 2
// threads; 12 tasks. Every instance is alike apart from its loop's imbalance (a short cycle), so
// logs of any length give reports of one shape, their totals in proportion. ROOT_TASKS (default 4)
// sets the tree's roots; 0 leaves the tree out: a loop program's log (BENCHMARKS.md, Session
// 2026-12-04).
//   synthetic_log DIR EVENTS [THREADS [ROOT_TASKS]]
#include <omp-tools.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "common/event_record.h"

namespace {

using ompscope::Event;
using ompscope::EventKind;

constexpr uint64_t kRegion = 0x401000, kLoop = 0x401100, kCritical = 0x401200, kTask = 0x401300, kLock = 0x7000;
constexpr uint32_t kRootTasks = 4;  // the default

class ThreadFile {
 public:
  ThreadFile(const std::filesystem::path& dir, uint32_t index) {
    char name[64];
    std::snprintf(name, sizeof name, "%s%04u%s", ompscope::kThreadFilePrefix, index, ompscope::kThreadFileSuffix);
    f_ = std::fopen((dir / name).c_str(), "wb");
    if (!f_) {
      std::perror(name);
      std::exit(1);
    }
    ompscope::LogFileHeader h{};
    std::memcpy(h.magic, ompscope::kLogMagic, sizeof h.magic);
    h.version = ompscope::kLogVersion;
    h.record_size = sizeof(Event);
    h.thread_index = index;
    h.pid = 4242;
    std::fwrite(&h, sizeof h, 1, f_);
    buffer_.reserve(kBuffer);
  }
  ~ThreadFile() {
    flush();
    std::fclose(f_);
  }
  void add(uint64_t t, EventKind kind, uint32_t id = 0, uint32_t id2 = 0, uint32_t arg = 0, uint16_t arg2 = 0,
           uint8_t detail = 0, uint64_t codeptr = 0) {
    buffer_.push_back(Event{t, codeptr, id, id2, arg, arg2, kind, detail});
    ++count;
    if (buffer_.size() == kBuffer) flush();
  }
  void mutex(uint64_t t, EventKind kind) {
    Event e{t, kCritical, 0, 0, 0, 0, kind, static_cast<uint8_t>(ompt_mutex_critical)};
    e.set_wait_id(kLock);
    buffer_.push_back(e);
    ++count;
    if (buffer_.size() == kBuffer) flush();
  }
  uint64_t count = 0;

 private:
  static constexpr size_t kBuffer = 1 << 15;
  void flush() {
    if (!buffer_.empty() && std::fwrite(buffer_.data(), sizeof(Event), buffer_.size(), f_) != buffer_.size()) {
      std::perror("write");
      std::exit(1);
    }
    buffer_.clear();
  }
  std::FILE* f_;
  std::vector<Event> buffer_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: synthetic_log DIR EVENTS [THREADS [ROOT_TASKS]]\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const uint64_t target = std::strtoull(argv[2], nullptr, 10);
  const uint32_t threads = argc > 3 ? static_cast<uint32_t>(std::atoi(argv[3])) : 2;
  const long root_tasks = argc > 4 ? std::atol(argv[4]) : kRootTasks;
  if (threads < 2 || threads > 256) {
    std::fprintf(stderr, "synthetic_log: THREADS must be 2 to 256\n");
    return 2;
  }
  if (root_tasks < 0 || root_tasks > 1000) {
    std::fprintf(stderr, "synthetic_log: ROOT_TASKS must be 0 to 1000\n");
    return 2;
  }
  std::filesystem::create_directories(dir);
  std::vector<std::unique_ptr<ThreadFile>> files;
  for (uint32_t i = 0; i < threads; ++i) files.push_back(std::make_unique<ThreadFile>(dir, i));
  const auto total = [&] {
    uint64_t n = 0;
    for (const auto& f : files) n += f->count;
    return n;
  };

  const uint64_t start = 1'000'000;  // ns; the clock's origin
  constexpr uint32_t kInitialParallel = 1, kInitialTask = 2;
  ThreadFile& master = *files[0];
  master.add(start + 10, EventKind::ThreadBegin, 0, 0, 0, 0, ompt_thread_initial);
  master.add(start + 20, EventKind::ImplicitTaskBegin, kInitialParallel, kInitialTask, 1, 0, ompt_task_initial);
  uint32_t next_id = 16;
  uint64_t t = start + 1000;
  uint64_t instance = 0;
  while (total() < target) {
    const uint32_t parallel = next_id++;
    std::vector<uint32_t> implicit(threads);
    for (uint32_t& id : implicit) id = next_id++;
    master.add(t, EventKind::ParallelBegin, parallel, kInitialTask, threads, 0, 0, kRegion);
    // The loop: thread i works 2000 + 300 i ns, plus a cycle of 0–700 ns on the last thread.
    uint64_t release = 0;
    std::vector<uint64_t> arrive(threads);
    for (uint32_t i = 0; i < threads; ++i) {
      ThreadFile& f = *files[i];
      const uint64_t begin = t + 10 + 5 * i;
      if (instance == 0 && i > 0) f.add(begin - 2, EventKind::ThreadBegin, 0, 0, 0, 0, ompt_thread_worker);
      f.add(begin, EventKind::ImplicitTaskBegin, parallel, implicit[i], threads, static_cast<uint16_t>(i), ompt_task_implicit);
      f.add(begin + 5, EventKind::WorkBegin, parallel, 0, 1000, 0, ompt_work_loop, kLoop);
      arrive[i] = begin + 5 + 2000 + 300 * i + (i + 1 == threads ? 100 * (instance % 8) : 0);
      f.add(arrive[i], EventKind::WorkEnd, parallel, 0, 0, 0, ompt_work_loop, kLoop);
      f.add(arrive[i] + 1, EventKind::SyncBegin, parallel, implicit[i], 0, 0, ompt_sync_region_barrier_implicit_workshare, kLoop);
      release = std::max(release, arrive[i] + 1);
    }
    release += 50;
    // The critical section, taken in thread order: each waits for the one before.
    uint64_t held_until = 0;
    for (uint32_t i = 0; i < threads; ++i) {
      ThreadFile& f = *files[i];
      const uint64_t depart = release + 3 * i;
      f.add(depart, EventKind::SyncEnd, parallel, implicit[i], 0, 0, ompt_sync_region_barrier_implicit_workshare, kLoop);
      const uint64_t request = depart + 10;
      const uint64_t acquired = std::max(request + 20, held_until + 5);
      held_until = acquired + 200;
      f.mutex(request, EventKind::MutexAcquire);
      f.mutex(acquired, EventKind::MutexAcquired);
      f.mutex(held_until, EventKind::MutexReleased);
    }
    // Thread 0 creates the root tasks and goes to the join barrier; thread 1 runs the tree there.
    uint64_t c = held_until + 20;
    std::vector<uint32_t> roots(static_cast<size_t>(root_tasks));
    for (uint32_t& r : roots) {
      r = next_id++;
      master.add(c, EventKind::TaskCreate, r, implicit[0], ompt_task_explicit, 0, 0, kTask);
      c += 60;
    }
    master.add(c, EventKind::SyncBegin, parallel, implicit[0], 0, 0, ompt_sync_region_barrier_implicit_parallel, kRegion);
    ThreadFile& worker = *files[1];
    uint64_t w = c + 10;
    worker.add(w, EventKind::SyncBegin, parallel, implicit[1], 0, 0, ompt_sync_region_barrier_implicit_parallel, kRegion);
    for (uint32_t r : roots) {
      worker.add(w += 20, EventKind::TaskSchedule, implicit[1], r, 0, 0, ompt_task_switch);
      const uint32_t a = next_id++, b = next_id++;
      worker.add(w += 100, EventKind::TaskCreate, a, r, ompt_task_explicit, 0, 0, kTask);
      worker.add(w += 60, EventKind::TaskCreate, b, r, ompt_task_explicit, 0, 0, kTask);
      worker.add(w += 10, EventKind::SyncBegin, parallel, r, 0, 0, ompt_sync_region_taskwait, kTask + 8);
      for (uint32_t child : {a, b}) {
        worker.add(w += 15, EventKind::TaskSchedule, r, child, 0, 0, ompt_task_switch);
        worker.add(w += 150 + 10 * (child % 3), EventKind::TaskSchedule, child, r, 0, 0, ompt_task_complete);
      }
      worker.add(w += 10, EventKind::SyncEnd, parallel, r, 0, 0, ompt_sync_region_taskwait, kTask + 8);
      worker.add(w += 30, EventKind::TaskSchedule, r, implicit[1], 0, 0, ompt_task_complete);
    }
    const uint64_t join = w + 40;
    for (uint32_t i = 2; i < threads; ++i)
      files[i]->add(held_until + 30, EventKind::SyncBegin, parallel, implicit[i], 0, 0,
                    ompt_sync_region_barrier_implicit_parallel, kRegion);
    for (uint32_t i = 0; i < threads; ++i) {
      ThreadFile& f = *files[i];
      f.add(join + 2 * i, EventKind::SyncEnd, parallel, implicit[i], 0, 0, ompt_sync_region_barrier_implicit_parallel, kRegion);
      f.add(join + 2 * i + 5, EventKind::ImplicitTaskEnd, parallel, implicit[i], 0, static_cast<uint16_t>(i), ompt_task_implicit);
    }
    master.add(join + 2 * threads + 10, EventKind::ParallelEnd, parallel, kInitialTask, 0, 0, 0, kRegion);
    t = join + 2 * threads + 500;  // serial code between instances
    ++instance;
  }
  master.add(t, EventKind::ImplicitTaskEnd, kInitialParallel, kInitialTask, 1, 0, ompt_task_initial);
  const uint64_t end = t + 1000;
  const uint64_t events = total();
  files.clear();

  std::FILE* meta = std::fopen((dir / ompscope::kMetaFileName).c_str(), "w");
  if (!meta) {
    std::perror("meta.txt");
    return 1;
  }
  std::fprintf(meta,
               "ompscope-log %u\npid 4242\ncommand synthetic_log\nruntime LLVM OMP (synthetic)\nclock monotonic\n"
               "clock_start %llu %llu\ninitialized\nclock_end %llu %llu\nfinalized\ndropped 0\n",
               ompscope::kLogVersion, static_cast<unsigned long long>(start), static_cast<unsigned long long>(start),
               static_cast<unsigned long long>(end), static_cast<unsigned long long>(end));
  std::fclose(meta);
  std::printf("%llu events, %llu region instances, %u threads\n", static_cast<unsigned long long>(events),
              static_cast<unsigned long long>(instance), threads);
  return 0;
}
