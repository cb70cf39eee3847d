#include "analysis/run_log.h"

#include <fcntl.h>
#include <omp-tools.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "common/safe_file.h"

namespace ompscope::analysis {
namespace fs = std::filesystem;

bool RunMeta::callback_active(const std::string& name) const {
  for (const auto& [n, result] : callbacks)
    if (n == name) return result > 1;  // ompt_set_never = 1, ompt_set_error = 0
  return false;
}

uint64_t RunLog::event_count() const {
  uint64_t n = 0;
  for (const auto& t : threads) n += t.size();
  return n;
}

uint64_t RunLog::last_ticks() const {
  // A program killed (SIGKILL) before its first record reached the disk has neither records nor
  // an end point: its run ends where it started, never before.
  uint64_t last = std::max(meta.clock_end.ticks, meta.clock_start.ticks);
  for (const auto& t : threads)
    if (!t.empty()) last = std::max(last, t.back_ticks());
  return last;
}

RunMeta read_run_meta(const fs::path& meta_file) {
  if (fs::exists(meta_file)) require_regular_file(meta_file);  // a FIFO would block (docs/safety.md)
  std::ifstream in(meta_file);
  if (!in) throw Error(fmt::format("{}: cannot read (not an ompscope log directory?)", meta_file.string()));
  RunMeta meta;
  std::string line;
  int line_no = 0;
  auto bad = [&](const std::string& why) {
    return Error(fmt::format("{}:{}: corrupt log meta: {}", meta_file.string(), line_no, why));
  };
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    std::istringstream fields(line);
    std::string key;
    fields >> key;
    if (line_no == 1 && key != "ompscope-log") throw bad("does not start with 'ompscope-log'");
    if (key == "ompscope-log") {
      if (!(fields >> meta.version)) throw bad("missing version");
      if (meta.version != kLogVersion)
        throw Error(fmt::format("{}: log format version {}, this ompscope reads version {}",
                                meta_file.string(), meta.version, kLogVersion));
    } else if (key == "pid") {
      fields >> meta.pid;
    } else if (key == "ppid") {
      fields >> meta.ppid;
    } else if (key == "command") {
      std::getline(fields >> std::ws, meta.command);
    } else if (key == "rank") {
      if (!(fields >> meta.rank >> meta.ranks >> meta.local_rank) || meta.rank < 0)
        throw bad("rank needs the rank, the job's size and the local rank");
    } else if (key == "runtime") {
      std::getline(fields >> std::ws, meta.runtime);
    } else if (key == "clock") {
      fields >> meta.clock;
      if (meta.clock != "tsc" && meta.clock != "monotonic") throw bad("unknown clock '" + meta.clock + "'");
    } else if (key == "clock_start" || key == "clock_end") {
      ClockPoint p;
      if (!(fields >> p.ticks >> p.ns)) throw bad("clock point needs ticks and ns");
      (key == "clock_start" ? meta.clock_start : meta.clock_end) = p;
    } else if (key == "clock_realtime") {
      uint64_t realtime = 0, monotonic = 0;
      if (!(fields >> realtime >> monotonic)) throw bad("clock_realtime needs the realtime and the monotonic ns");
      meta.realtime_offset_ns = static_cast<int64_t>(realtime - monotonic);
      meta.realtime_known = true;
    } else if (key == "callback") {
      std::string name;
      int result = 0;
      if (!(fields >> name >> result)) throw bad("callback needs a name and a result");
      meta.callbacks.emplace_back(name, result);
    } else if (key == "module") {
      ModuleRange m;
      if (!(fields >> std::hex >> m.load_bias >> m.begin >> m.end)) throw bad("module needs three addresses");
      std::getline(fields >> std::ws, m.path);
      bool known = std::any_of(meta.modules.begin(), meta.modules.end(), [&](const ModuleRange& o) {
        return o.begin == m.begin && o.path == m.path;
      });
      if (!known) meta.modules.push_back(std::move(m));
    } else if (key == "initialized") {
      meta.initialized = true;
    } else if (key == "finalized") {
      meta.finalized = true;
    } else if (key == "hw_counters") {
      std::string first;
      fields >> first;
      if (first == "none") {
        std::getline(fields >> std::ws, meta.counters_missing);
        if (meta.counters_missing.empty()) meta.counters_missing = "no reason given";
      } else {
        meta.counters_opened = true;
      }
    } else if (key == "dropped") {
      fields >> meta.dropped_events;
    } else if (key == "pc_sampling") {
      std::string how;
      fields >> how;
      if (how == "cpu_timer") {
        if (!(fields >> meta.sample_period_ns) || meta.sample_period_ns == 0)
          throw bad("pc_sampling cpu_timer needs its period in ns");
      } else {
        std::getline(fields >> std::ws, meta.sampling_missing);
        if (meta.sampling_missing.empty()) meta.sampling_missing = how;
      }
    } else if (key == "pc_samples_dropped") {
      fields >> meta.dropped_samples;
    } else if (key == "lock_record_gap") {
      if (!(fields >> meta.lock_record_gap_ticks)) throw bad("lock_record_gap needs a tick count");
    } else if (key == "page_fault_floor") {
      if (!(fields >> meta.page_fault_floor_ticks)) throw bad("page_fault_floor needs a tick count");
    } else if (key == "kernel_tick_ns") {
      if (!(fields >> meta.kernel_tick_ns)) throw bad("kernel_tick_ns needs a count of nanoseconds");
    } else if (key == "usage_reading") {
      if (!(fields >> meta.usage_reading_ticks)) throw bad("usage_reading needs a tick count");
    } else if (key == "atomic_floor") {
      if (!(fields >> meta.atomic_floor_ticks >> meta.atomic_floor_ops) || meta.atomic_floor_ops == 0)
        throw bad("atomic_floor needs a tick count and a count of operations");
    }
    // Other keys (threads, chunk_bytes, omp_version, error) are informational.
  }
  if (line_no == 0) throw Error(fmt::format("{}: empty log meta (the tool never started?)", meta_file.string()));
  if (meta.clock.empty() || meta.clock_start.ns == 0) throw bad("no clock calibration point");
  return meta;
}

namespace {

// One thread file opened for reading, its header checked.
struct ThreadFile {
  int fd = -1;
  uint64_t records = 0;  // whole records after the header, the zero tail included
  uint32_t thread_index = 0;
  ThreadFile() = default;
  ThreadFile(const ThreadFile&) = delete;
  ThreadFile& operator=(const ThreadFile&) = delete;
  ~ThreadFile() {
    if (fd >= 0) ::close(fd);
  }
};

// Reads `k` records at record `at` (after the header) into `into`; false on a short read.
bool read_records(int fd, uint64_t at, Event* into, size_t k) {
  auto* p = reinterpret_cast<char*>(into);
  size_t left = k * sizeof(Event);
  auto offset = static_cast<off_t>(sizeof(LogFileHeader) + at * sizeof(Event));
  while (left > 0) {
    const ssize_t n = ::pread(fd, p, left, offset);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    offset += n;
    left -= static_cast<size_t>(n);
  }
  return true;
}

// Records [at, at + k) of the file: mapped into `window` (log_window.h), or read into `block`
// where they cannot be mapped; null where the file no longer holds them all.
const Event* records_at(int fd, const fs::path& file, uint64_t at, size_t k, LogWindow& window, std::vector<Event>& block) {
  if (const Event* mapped = window.map(fd, file, at, k)) return mapped;
  if (block.size() < k) block.insert(block.end(), k - block.size(), Event{});
  return read_records(fd, at, block.data(), k) ? block.data() : nullptr;
}

void open_thread_file(const fs::path& file, ThreadFile& out) {
  if (fs::exists(file)) require_regular_file(file);  // a FIFO would block (docs/safety.md)
  out.fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (out.fd < 0) throw Error(fmt::format("{}: cannot read", file.string()));
  struct stat st {};
  if (::fstat(out.fd, &st) != 0) throw Error(fmt::format("{}: cannot read", file.string()));
  const auto size = static_cast<uint64_t>(st.st_size);
  if (size == 0) {
    // Created at the thread's first record, written at its first full chunk or at the end: a
    // process killed (SIGKILL) before either left it empty. Not corrupt: nothing was captured.
    const std::string name = file.filename().string();
    const unsigned long index = std::strtoul(name.c_str() + std::strlen(kThreadFilePrefix), nullptr, 10);
    if (index >= kMaxThreadLogs)
      throw Error(fmt::format("{}: not a thread file of an ompscope log (a log holds at most {} threads)",
                              file.string(), kMaxThreadLogs));
    out.thread_index = static_cast<uint32_t>(index);
    return;
  }
  LogFileHeader header{};
  if (size < sizeof header || ::pread(out.fd, &header, sizeof header, 0) != static_cast<ssize_t>(sizeof header))
    throw Error(fmt::format("{}: truncated log (shorter than its header)", file.string()));
  if (memcmp(header.magic, kLogMagic, sizeof header.magic) != 0)
    throw Error(fmt::format("{}: not an ompscope event log (bad magic)", file.string()));
  if (header.version != kLogVersion || header.record_size != sizeof(Event))
    throw Error(fmt::format("{}: log format version {} with {}-byte records, this ompscope reads version {}",
                            file.string(), header.version, header.record_size, kLogVersion));
  const uint64_t body = size - sizeof header;
  if (body % sizeof(Event) != 0)
    throw Error(fmt::format("{}: truncated log (ends inside record {})", file.string(), body / sizeof(Event)));
  // Per-thread figures are indexed by it: a damaged header must not size them.
  if (header.thread_index >= kMaxThreadLogs)
    throw Error(fmt::format("{}: corrupt log: thread index {} (a log holds at most {} threads)", file.string(),
                            header.thread_index, kMaxThreadLogs));
  out.thread_index = header.thread_index;
  out.records = body / sizeof(Event);
}

// Checks records in file order: known kinds, time never going back, nothing but zeros after the
// first zero kind (the unwritten tail of a log whose program died).
class RecordCheck {
 public:
  explicit RecordCheck(const fs::path& file) : file_(file) {}
  void check(const Event* block, size_t k) {
    for (size_t i = 0; i < k; ++i, ++at_) {
      const Event& e = block[i];
      if (ended_) {
        if (e.kind != EventKind::None)
          throw Error(fmt::format("{}: corrupt log: record {} follows the end marker", file_.string(), at_));
        continue;
      }
      if (e.kind == EventKind::None) {
        ended_ = true;
        continue;
      }
      if (static_cast<uint8_t>(e.kind) >= static_cast<uint8_t>(EventKind::Count))
        throw Error(fmt::format("{}: corrupt log: record {} has unknown kind {}", file_.string(), at_,
                                static_cast<int>(e.kind)));
      if (e.time < previous_)
        throw Error(fmt::format("{}: corrupt log: record {} goes back in time", file_.string(), at_));
      if (valid_ == 0) first_ = e.time;
      previous_ = e.time;
      ++kinds_[static_cast<uint8_t>(e.kind)];
      ++valid_;
      count_part_syncs(e);
    }
  }
  uint64_t valid() const { return valid_; }
  uint64_t first() const { return first_; }
  uint64_t last() const { return previous_; }
  const KindCounts& kinds() const { return kinds_; }
  std::vector<uint32_t> take_part_syncs() { return std::move(part_syncs_); }

 private:
  // The sync regions begun in each of the thread's region parts (an implicit task other than
  // the initial one), in the order the parts began: each part's visits are then stored in one
  // allocation of their size (ThreadEvents::part_syncs).
  void count_part_syncs(const Event& e) {
    if (e.kind == EventKind::ImplicitTaskBegin) {
      const bool part = (e.detail & ompt_task_initial) == 0;
      open_parts_.push_back(part ? part_syncs_.size() : kNotAPart);
      if (part) part_syncs_.push_back(0);
    } else if (e.kind == EventKind::ImplicitTaskEnd) {
      if (!open_parts_.empty()) open_parts_.pop_back();
    } else if (e.kind == EventKind::SyncBegin && !open_parts_.empty() && open_parts_.back() != kNotAPart) {
      ++part_syncs_[open_parts_.back()];
    }
  }
  static constexpr size_t kNotAPart = SIZE_MAX;

  const fs::path& file_;
  uint64_t at_ = 0, valid_ = 0, previous_ = 0, first_ = 0;
  KindCounts kinds_{};
  bool ended_ = false;
  std::vector<uint32_t> part_syncs_;
  std::vector<size_t> open_parts_;  // into part_syncs_, or kNotAPart: the implicit tasks open
};

// Reads the file's records in blocks of `block_records`, checks them and hands each block to `f`.
template <class F>
RecordCheck read_checked(const fs::path& file, ThreadFile& tf, size_t block_records, F&& f) {
  open_thread_file(file, tf);
  RecordCheck check(file);
  // A block at a time, mapped (log_window.h), or read through a buffer where it cannot be: a
  // vector resized to the whole file would construct every record first (the record has member
  // initialisers), which took a third of the reading time.
  LogWindow window;
  std::vector<Event> block;
  for (uint64_t at = 0; at < tf.records;) {
    const size_t k = static_cast<size_t>(std::min<uint64_t>(tf.records - at, std::max<size_t>(block_records, 1)));
    const Event* records = records_at(tf.fd, file, at, k, window, block);
    if (records == nullptr) throw Error(fmt::format("{}: read error", file.string()));
    check.check(records, k);
    f(records, k);
    at += k;
  }
  return check;
}

}  // namespace

ThreadEvents read_thread_events(const fs::path& file) {
  ThreadFile tf;
  ThreadEvents out;
  const RecordCheck check = read_checked(file, tf, kStreamBlockRecords, [&](const Event* block, size_t k) {
    if (out.events.empty()) out.events.reserve(tf.records);
    out.events.insert(out.events.end(), block, block + k);
  });
  out.thread_index = tf.thread_index;
  out.events.resize(check.valid());
  return out;
}

ThreadEvents scan_thread_events(const fs::path& file, size_t block_records) {
  ThreadFile tf;
  RecordCheck check = read_checked(file, tf, block_records, [](const Event*, size_t) {});
  ThreadEvents out;
  out.thread_index = tf.thread_index;
  out.file = file;
  out.records = check.valid();
  out.first_ticks = check.first();
  out.last_ticks = check.last();
  out.kinds = check.kinds();
  out.part_syncs = check.take_part_syncs();
  out.block_records = std::max<size_t>(block_records, 1);
  return out;
}

uint64_t ThreadEvents::count(EventKind kind) const {
  if (streamed()) return kinds[static_cast<uint8_t>(kind)];
  return static_cast<uint64_t>(std::count_if(events.begin(), events.end(), [kind](const Event& e) { return e.kind == kind; }));
}

ThreadFileStream::ThreadFileStream(const ThreadEvents& thread, size_t block_records)
    : thread_(thread), block_records_(block_records ? block_records : thread.block_records) {
  if (thread.records == 0) return;
  fd_ = ::open(thread.file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw Error(fmt::format("{}: cannot read", thread.file.string()));
}

ThreadFileStream::~ThreadFileStream() {
  if (fd_ >= 0) ::close(fd_);
}

std::pair<const Event*, size_t> ThreadFileStream::next() {
  if (done_ >= thread_.records) return {nullptr, 0};
  const auto k = static_cast<size_t>(std::min<uint64_t>(thread_.records - done_, std::max<size_t>(block_records_, 1)));
  // Mapped where it can be. A file cut short since the checking read is an error, found here
  // before its block is mapped (a mapped page past a file's end raises SIGBUS when read); cut
  // short while its block is read, it ends the process with one line (log_window.h).
  struct stat st {};
  const bool held = ::fstat(fd_, &st) == 0 &&
                    static_cast<uint64_t>(st.st_size) >= sizeof(LogFileHeader) + (done_ + k) * sizeof(Event);
  const Event* records = held ? records_at(fd_, thread_.file, done_, k, window_, block_) : nullptr;
  if (records == nullptr)
    throw Error(fmt::format("{}: the log changed while it was read (record {} is gone)", thread_.file.string(), done_));
  done_ += k;
  return {records, k};
}

ThreadCursor::ThreadCursor(const ThreadEvents& thread, size_t block_records) : thread_(thread) {
  if (thread.streamed()) stream_ = std::make_unique<ThreadFileStream>(thread, block_records);
}

bool ThreadCursor::next_block() {
  if (stream_) {
    const auto [first, count] = stream_->next();
    at_ = first;
    end_ = first + count;
    return count > 0;
  }
  if (in_memory_taken_ || thread_.events.empty()) return false;
  in_memory_taken_ = true;
  at_ = thread_.events.data();
  end_ = at_ + thread_.events.size();
  return true;
}

RunLog read_run_log(const fs::path& directory, const LaunchClock& launch, LogReading how) {
  if (!fs::is_directory(directory))
    throw Error(fmt::format("{}: no such log directory", directory.string()));
  RunLog log;
  log.directory = directory;
  log.meta = read_run_meta(directory / kMetaFileName);
  for (const auto& entry : fs::directory_iterator(directory)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with(kThreadFilePrefix) && name.ends_with(kThreadFileSuffix))
      log.threads.push_back(how.stream ? scan_thread_events(entry.path(), how.block_records)
                                        : read_thread_events(entry.path()));
  }
  std::sort(log.threads.begin(), log.threads.end(),
            [](const ThreadEvents& a, const ThreadEvents& b) { return a.thread_index < b.thread_index; });
  for (size_t i = 1; i < log.threads.size(); ++i)
    if (log.threads[i].thread_index == log.threads[i - 1].thread_index)
      throw Error(fmt::format("{}: corrupt log: two thread files hold thread {}", directory.string(),
                              log.threads[i].thread_index));

  ClockPoint start = log.meta.clock_start;
  ClockPoint end = log.meta.clock_end;
  log.origin_ticks = start.ticks;
  // The launcher's points come before the program started and after it ended: the longer span
  // calibrates better, and a process that ran for less than a millisecond has no other.
  if (launch.end && launch.end->ns > end.ns) end = *launch.end;
  if (launch.start && launch.start->ns < start.ns && launch.start->ticks < start.ticks) start = *launch.start;
  if (log.meta.clock == "monotonic") {
    log.ticks_per_second = 1e9;
  } else if (end.ns > start.ns + 1000000 && end.ticks > start.ticks) {
    log.ticks_per_second = static_cast<double>(end.ticks - start.ticks) * 1e9 /
                           static_cast<double>(end.ns - start.ns);
  } else {
    throw Error(fmt::format("{}: the TSC cannot be calibrated: the run left no end clock point", directory.string()));
  }
  return log;
}

}  // namespace ompscope::analysis
