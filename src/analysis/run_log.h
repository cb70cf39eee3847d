// An event log read back: what one run of a program under libompscope.so left in its log
// directory (meta.txt + one thread-NNNN.evt per thread), with times converted to seconds.
#pragma once
#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/log_window.h"
#include "common/event_record.h"

namespace ompscope::analysis {

struct ModuleRange {
  uint64_t load_bias = 0;  // add to a link-time address to get the run-time address
  uint64_t begin = 0;      // executable segment, run-time addresses
  uint64_t end = 0;
  std::string path;
};

struct ClockPoint {
  uint64_t ticks = 0;
  uint64_t ns = 0;  // CLOCK_MONOTONIC
};

// The clock points the launcher took right before it started the program and right after the
// program ended. They bracket every process the program started, so either calibrates the TSC of
// any of them: a process that died before finalize has no end point of its own, and one that ran
// for less than a millisecond no pair long enough.
struct LaunchClock {
  std::optional<ClockPoint> start, end;
};

struct RunMeta {
  uint32_t version = 0;
  int pid = 0;
  int ppid = 0;           // the process that started it (0: an older log)
  std::string command;    // its command line, arguments joined by spaces ("" in an older log)
  int rank = -1;          // the launcher's rank of an MPI job (docs/mpi.md); -1: none
  int ranks = 0;          // the job's size; 0: not said
  int local_rank = -1;
  std::string runtime;
  std::string clock;  // "tsc" or "monotonic"
  ClockPoint clock_start;
  ClockPoint clock_end;          // absent (ticks 0) when the program died before finalize
  // CLOCK_REALTIME − CLOCK_MONOTONIC at the start (meta "clock_realtime"), which puts the ranks of
  // a job on different nodes on one time axis (docs/mpi.md, "Traces of a job").
  int64_t realtime_offset_ns = 0;
  bool realtime_known = false;
  bool initialized = false;
  bool finalized = false;
  uint64_t dropped_events = 0;
  // The tool's own ticks between two lock records with nothing between them, measured at the
  // start (docs/locks.md, "The tool's own time"); 0: not measured (an older log).
  uint64_t lock_record_gap_ticks = 0;
  // CPU-time sampling (capture/pc_sampler.h): the period of its timer in ns (0: no samples), or
  // why none were taken; samples lost to a full ring.
  uint64_t sample_period_ns = 0;
  std::string sampling_missing;
  uint64_t dropped_samples = 0;
  // One uncontended atomic read-modify-write on this machine, measured at the start as ticks for
  // `atomic_floor_ops` of them (docs/locks.md, "The floor"); 0: not measured (an older log).
  uint64_t atomic_floor_ticks = 0;
  uint32_t atomic_floor_ops = 0;
  // The cheapest page fault on this machine, measured at the start (capture/thread_usage.h:
  // calibrate_page_fault_floor); 0: not measured (an older log).
  uint64_t page_fault_floor_ticks = 0;
  // The scheduler's tick in ns (`kernel_tick_ns`: the coarse clock's resolution), the grain of
  // getrusage's user/system split; 0: not recorded (an older log).
  uint64_t kernel_tick_ns = 0;
  // The cheapest reading of a thread's kernel accounting (`usage_reading TICKS`: capture/
  // thread_usage.h, calibrate_usage_reading); 0: not measured (an older log).
  uint64_t usage_reading_ticks = 0;
  std::vector<std::pair<std::string, int>> callbacks;  // name, ompt_set_result_t
  std::vector<ModuleRange> modules;
  // Hardware counters (docs/lost-time.md, "Hardware counters"): opened on some thread, or why
  // they did not open ("hw_counters none REASON"); neither where the run read none (the libgomp
  // interposer reads no counters; a run with no recorded region instance tries none).
  bool counters_opened = false;
  std::string counters_missing;

  bool callback_active(const std::string& name) const;
};

// Records of each EventKind, by its value.
using KindCounts = std::array<uint64_t, static_cast<size_t>(EventKind::Count)>;

// One thread's records, in time order. Either in memory (`events`: read_thread_events, hand-built
// logs) or, as read_run_log leaves them, streamed from `file` in blocks of `block_records` each
// time the timeline walks them (`events` stays empty): reading a log then takes memory for one
// block per thread walked at a time, never for the whole log (docs/design.md, "Reading a log").
// for_each_block() walks both alike.
struct ThreadEvents {
  ThreadEvents() = default;
  explicit ThreadEvents(uint32_t index, std::vector<Event> records = {}) : thread_index(index), events(std::move(records)) {}

  uint32_t thread_index = 0;
  std::vector<Event> events;  // in memory; empty where streamed
  // Streamed: the file, its valid records (the zero tail of a program that died left out), the
  // first and last record's ticks, and the records of each kind among them, as the checking read
  // found them: the timeline sizes its arrays by these counts.
  std::filesystem::path file;
  uint64_t records = 0;
  uint64_t first_ticks = 0;
  uint64_t last_ticks = 0;
  KindCounts kinds{};
  // The sync regions begun in each region part of the thread (an implicit task other than the
  // initial one), in the order the parts began, as the checking read counted them: the timeline
  // sizes each part's visits by them (a vector grown by doubling touched twice their memory and
  // copied them a score of times, the largest cost of a barrier-heavy log's analysis). One
  // number per part; empty in memory.
  std::vector<uint32_t> part_syncs;
  size_t block_records = 0;

  bool streamed() const { return !file.empty(); }
  // Its records of that kind (a streamed thread's as counted; one in memory, counted now).
  uint64_t count(EventKind kind) const;
  uint64_t size() const { return streamed() ? records : events.size(); }
  bool empty() const { return size() == 0; }
  uint64_t front_ticks() const { return streamed() ? first_ticks : events.front().time; }
  uint64_t back_ticks() const { return streamed() ? last_ticks : events.back().time; }
};

// Records per block of a streamed thread file: 1 MiB of 32-byte records.
inline constexpr size_t kStreamBlockRecords = 32768;

// Reads a streamed thread file's records block by block. Throws ompscope::Error where the file
// no longer holds the records the checking read found (it changed, or a read failed).
class ThreadFileStream {
 public:
  // `block_records`: records per block; 0: the thread's (ThreadEvents::block_records).
  explicit ThreadFileStream(const ThreadEvents& thread, size_t block_records = 0);
  ~ThreadFileStream();
  ThreadFileStream(const ThreadFileStream&) = delete;
  ThreadFileStream& operator=(const ThreadFileStream&) = delete;
  // The next block (at most block_records records); empty at the end.
  std::pair<const Event*, size_t> next();

 private:
  const ThreadEvents& thread_;
  size_t block_records_;
  int fd_ = -1;
  uint64_t done_ = 0;
  LogWindow window_;          // the block, mapped
  std::vector<Event> block_;  // or read, where it could not be mapped
};

// Calls f(const Event* first, size_t count) for consecutive blocks of the thread's records, in order.
template <class F>
void for_each_block(const ThreadEvents& thread, F&& f) {
  if (!thread.streamed()) {
    if (!thread.events.empty()) f(thread.events.data(), thread.events.size());
    return;
  }
  ThreadFileStream stream(thread);
  for (auto [first, count] = stream.next(); count > 0; std::tie(first, count) = stream.next()) f(first, count);
}

// Calls f(const Event&) for each of the thread's records, in order.
template <class F>
void for_each_event(const ThreadEvents& thread, F&& f) {
  for_each_block(thread, [&f](const Event* first, size_t count) {
    for (const Event* e = first; e != first + count; ++e) f(*e);
  });
}

// A thread's records walked a stretch at a time, each stretch from where the last one stopped:
// the timeline walks the threads' logs in epochs (timeline.cpp, walk_log), every thread's share of
// one epoch before the next, so each thread's file stays open and one block of it held between
// stretches. Blocks of `block_records` (0: the thread's).
class ThreadCursor {
 public:
  ThreadCursor(const ThreadEvents& thread, size_t block_records);
  // Calls f(e) for each record from where the last call stopped up to the first one for which
  // stop(e) holds, which is not walked (the next call starts at it), or to the end of the records.
  // True where it stopped before the end.
  template <class Stop, class F>
  bool walk_until(Stop&& stop, F&& f) {
    for (;;) {
      if (at_ == end_ && !next_block()) return false;
      for (; at_ != end_; ++at_) {
        if (stop(*at_)) return true;
        f(*at_);
      }
    }
  }

 private:
  bool next_block();
  const ThreadEvents& thread_;
  std::unique_ptr<ThreadFileStream> stream_;  // streamed threads only
  bool in_memory_taken_ = false;
  const Event* at_ = nullptr;
  const Event* end_ = nullptr;
};

struct RunLog {
  std::filesystem::path directory;
  RunMeta meta;
  std::vector<ThreadEvents> threads;  // ordered by thread_index
  double ticks_per_second = 1e9;
  uint64_t origin_ticks = 0;          // clock_start: time 0 of the run

  double seconds(uint64_t ticks) const {
    return (static_cast<double>(ticks) - static_cast<double>(origin_ticks)) / ticks_per_second;
  }
  double duration(uint64_t from, uint64_t to) const {
    return (static_cast<double>(to) - static_cast<double>(from)) / ticks_per_second;
  }
  uint64_t event_count() const;
  uint64_t last_ticks() const;
};

// Parses meta.txt. Throws ompscope::Error naming the file and line on malformed content.
RunMeta read_run_meta(const std::filesystem::path& meta_file);

// Reads one thread's records. Throws ompscope::Error on a bad magic, an unknown version, a
// record cut in half, an unknown event kind or time running backwards.
ThreadEvents read_thread_events(const std::filesystem::path& file);

// Checks one thread's file as read_thread_events does, in blocks, and returns it streamed: its
// records stay in the file (ThreadEvents::file), read again block by block by for_each_block.
ThreadEvents scan_thread_events(const std::filesystem::path& file, size_t block_records = kStreamBlockRecords);

// How read_run_log leaves the threads' records: read into memory (read_thread_events), or
// checked and left in their files, streamed in blocks of `block_records` (scan_thread_events).
struct LogReading {
  bool stream = false;
  size_t block_records = kStreamBlockRecords;
};

// Reads a whole log directory; `launch` widens the span the TSC is calibrated over.
RunLog read_run_log(const std::filesystem::path& directory, const LaunchClock& launch = {}, LogReading how = {});

}  // namespace ompscope::analysis
