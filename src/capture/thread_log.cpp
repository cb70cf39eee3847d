#include "capture/thread_log.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>

#include "capture/log_file.h"
#include "capture/log_writer.h"

namespace ompscope::capture {
namespace {

// Static storage, never freed: the flushes at exit and on fatal signals walk every log.
constexpr uint32_t kMaxLogs = kMaxThreadLogs;
constinit LogFile g_files[kMaxLogs]{};
std::atomic<uint32_t> g_thread_count{0};
std::atomic<uint64_t> g_dropped{0};
std::atomic<uint32_t> g_next_id_block{1};
std::atomic<bool> g_disowned{false};
constexpr uint32_t kIdBlock = 1024;

// Where events go while a log cannot grow: rewritten over and over, each pass counted as dropped.
// The policy when full is "stop": a thread whose log cannot grow records nothing more.
// Tiny on purpose: a dlopen'ed tool gets only a few hundred bytes of static TLS from glibc
// (a larger block makes libomp fail to load the tool with "cannot allocate memory in static TLS").
constexpr size_t kScratchEvents = 2;
thread_local Event t_scratch[kScratchEvents] __attribute__((tls_model("initial-exec")));

// The pages this thread faulted in for its own log (populate): the program's page-fault counts
// in its readings are the kernel's less these (thread_usage.h), so that a region that allocates
// nothing does not read the tool's log pages as its own faults (lock_counts' 3 000 short
// instances: 384 faults, all the tool's).
thread_local uint64_t t_own_page_faults __attribute__((tls_model("initial-exec"))) = 0;

void count_lost_events(uint64_t n) { g_dropped.fetch_add(n, std::memory_order_relaxed); }

void redirect_to_scratch(ThreadLog& log, LogState state) {
  log.state = state;
  log.pos = t_scratch;
  log.end = t_scratch + kScratchEvents;
}

uint64_t filled_bytes(const LogBuffer& b, const Event* pos) {
  return static_cast<uint64_t>(pos - b.data) * sizeof(Event);
}

bool open_files(LogFile& file, uint32_t thread_index, const LogConfig& config) {
  char path[4096];
  int n = snprintf(path, sizeof path, "%s/%s%04u%s", config.directory, kThreadFilePrefix,
                   thread_index, kThreadFileSuffix);
  if (n <= 0 || static_cast<size_t>(n) >= sizeof path) return false;
  // New in the process's own fresh directory (run_meta.cpp): never through a link, never another's.
  file.tail_fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (file.tail_fd < 0) return false;
  // Full chunks bypass the page cache: on a VM, first-touch page-cache pages cost microseconds
  // each, more than the events they hold. tmpfs and some filesystems refuse O_DIRECT.
  file.direct_fd = open(path, O_WRONLY | O_DIRECT | O_NOFOLLOW | O_CLOEXEC);
  return true;
}

// A chunk's pages are faulted in ahead of the hot path, piece by piece: the first 64 KiB when
// the chunk is mapped, then as much again as is populated each time the records reach the end
// of the populated part. A page's first touch costs 3.5-10.7 µs on the VMs measured; populating the
// first chunk whole cost a thread ~0.9 ms at start-up, mostly for pages a short run never fills.
constexpr uint64_t kFirstPopulated = 64 * 1024;

}  // namespace

bool fault_in_pages(void* begin, size_t bytes) {
  if (madvise(begin, bytes, MADV_POPULATE_WRITE) != 0 && errno != EINVAL)  // EINVAL: kernels before 5.14
    return false;  // ENOMEM and the like: no memory to record into
  // And a store into each page, populated or not. On a Firecracker VM (Linux 6.18 guest)
  // MADV_POPULATE_WRITE maps a page in the guest in 0.6 us, but the host backs it only at the
  // first access, 4.6 us later, on the hot path: every 128 records one event took ~4 us, and
  // under adaptive sampling it landed in a recorded task's body, which then stood for its 127
  // unrecorded siblings (fine_tasks' light bodies read 100-160 ns against 33 ns recording every
  // task). The store costs tens of ns a page where populate did it all.
  const long page = sysconf(_SC_PAGESIZE);
  for (size_t off = 0; off < bytes; off += static_cast<size_t>(page)) static_cast<volatile char*>(begin)[off] = 0;
  return true;
}

namespace {

// Faults in the chunk's pages from the populated part's end up to `to`; false if the memory
// cannot be had.
bool populate(LogBuffer& b, uint64_t to) {
  char* begin = reinterpret_cast<char*>(b.data) + b.populated_bytes;
  // The faults it takes, as the kernel counts them for the thread (whatever a kernel counts for
  // MADV_POPULATE_WRITE), so that what the readings subtract never exceeds what they counted.
  rusage before, after;
  const bool counted = getrusage(RUSAGE_THREAD, &before) == 0;
  if (!fault_in_pages(begin, to - b.populated_bytes)) return false;
  if (counted && getrusage(RUSAGE_THREAD, &after) == 0 && after.ru_minflt >= before.ru_minflt)
    t_own_page_faults += static_cast<uint64_t>(after.ru_minflt - before.ru_minflt);
  b.populated_bytes = to;
  return true;
}

// Backs a ring slot with memory on first use.
bool ensure_buffer(LogBuffer& b, const LogConfig& config) {
  if (b.data) return true;
  void* p = mmap(nullptr, config.chunk_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return false;
  b.data = static_cast<Event*>(p);
  b.populated_bytes = 0;
  if (populate(b, std::min<uint64_t>(kFirstPopulated, config.chunk_bytes))) return true;
  munmap(p, config.chunk_bytes);
  b.data = nullptr;
  return false;
}

Event* populated_end(const LogBuffer& b) { return b.data + b.populated_bytes / sizeof(Event); }

enum class Growth { Grown, ChunkFull, NoMemory };

// The records reached the end of the populated part of the chunk: populate more, if the chunk
// has more.
Growth grow_populated(ThreadLog& log, const LogConfig& config) {
  LogBuffer& b = log.file->buffers[log.file->current];
  if (b.populated_bytes >= config.chunk_bytes) return Growth::ChunkFull;
  if (!populate(b, std::min<uint64_t>(2 * b.populated_bytes, config.chunk_bytes))) return Growth::NoMemory;
  log.end = populated_end(b);
  return Growth::Grown;
}

void start_filling(ThreadLog& log, LogBuffer& b, uint64_t file_offset) {
  b.file_offset = file_offset;
  log.pos = b.data;
  log.end = populated_end(b);
}

void write_header(ThreadLog& log) {
  static_assert(sizeof(LogFileHeader) % sizeof(Event) == 0, "records stay aligned after the header");
  LogFileHeader header{};
  memcpy(header.magic, kLogMagic, sizeof header.magic);
  header.version = kLogVersion;
  header.record_size = sizeof(Event);
  header.thread_index = log.thread_index;
  header.pid = static_cast<uint32_t>(getpid());
  memcpy(log.pos, &header, sizeof header);
  log.pos += sizeof header / sizeof(Event);
}

bool open_log(ThreadLog& log, const LogConfig& config) {
  log.thread_index = g_thread_count.fetch_add(1, std::memory_order_relaxed);
  if (log.thread_index >= kMaxLogs) return false;
  LogFile& file = g_files[log.thread_index];
  file.direct_fd = file.tail_fd = -1;
  if (!open_files(file, log.thread_index, config) || !ensure_buffer(file.buffers[0], config)) {
    if (file.tail_fd >= 0) close(file.tail_fd);
    if (file.direct_fd >= 0) close(file.direct_fd);
    return false;
  }
  file.current = 0;
  log.file = &file;
  start_filling(log, file.buffers[0], 0);
  write_header(log);
  file.owner.store(&log, std::memory_order_release);
  return true;
}

// The chunk in `current` is full: hand it to the writer and continue in the next ring slot,
// waiting only if that slot's previous chunk is still being written.
bool hand_off(ThreadLog& log, const LogConfig& config) {
  LogFile& file = *log.file;
  LogBuffer& full = file.buffers[file.current];
  full.queued_bytes.store(filled_bytes(full, log.pos), std::memory_order_release);
  if (!queue_for_writer(file, full)) {
    write_to_log_file(file, full.data, full.queued_bytes.load(), full.file_offset, true);
    full.queued_bytes.store(0, std::memory_order_release);
  }
  if (file.failed.load(std::memory_order_acquire)) return false;
  const uint32_t next = (file.current + 1) % kBuffersPerLog;
  LogBuffer& b = file.buffers[next];
  if (!ensure_buffer(b, config)) return false;
  wait_until_written(b);
  file.current = next;
  start_filling(log, b, full.file_offset + config.chunk_bytes);
  return true;
}

// Writes the partly filled chunk after every queued chunk of this log.
void write_current(LogFile& file, const Event* pos, bool may_wait) {
  for (LogBuffer& b : file.buffers) {
    if (may_wait) {
      wait_until_written(b);
    } else if (const uint64_t bytes = b.queued_bytes.load(std::memory_order_acquire)) {
      write_to_log_file(file, b.data, bytes, b.file_offset, true);  // the writer may be halfway through it
    }
  }
  const LogBuffer& current = file.buffers[file.current];
  const uint64_t bytes = filled_bytes(current, pos);
  if (bytes > 0) write_to_log_file(file, current.data, bytes, current.file_offset, false);
}

// Writes what `pos` says was filled, waits for the writer to finish this log's chunks (so their
// losses are counted by now) and closes the file, once no flush on another thread (exit, a
// fatal signal) is still writing it: its descriptors must not be reused under it. The chunks
// stay mapped.
void finish_file(ThreadLog& log, const Event* pos) {
  LogFile& file = *log.file;
  file.owner.store(nullptr);  // sequentially consistent with flush_open_logs' count and load
  while (file.flushers.load() != 0) sched_yield();
  if (g_disowned.load(std::memory_order_relaxed)) return;
  write_current(file, pos, true);
  close(file.tail_fd);
  if (file.direct_fd >= 0) close(file.direct_fd);
}

void flush_open_logs(bool may_wait) {
  if (g_disowned.load(std::memory_order_relaxed)) return;
  const uint32_t n = std::min(g_thread_count.load(std::memory_order_acquire), kMaxLogs);
  for (uint32_t i = 0; i < n; ++i) {
    LogFile& file = g_files[i];
    file.flushers.fetch_add(1);
    if (const ThreadLog* owner = file.owner.load())
      write_current(file, __atomic_load_n(&owner->pos, __ATOMIC_RELAXED), may_wait);
    file.flushers.fetch_sub(1);
  }
}

}  // namespace

void roll_over(ThreadLog& log, const LogConfig& config) {
  switch (log.state) {
    case LogState::Unopened:
      if (g_disowned.load(std::memory_order_relaxed) || !open_log(log, config)) {
        redirect_to_scratch(log, LogState::Dropping);
        return;
      }
      log.state = LogState::Open;
      return;
    case LogState::Open: {
      if (g_disowned.load(std::memory_order_relaxed)) {
        // A forked child: keep recording into the private copy of the chunk, never to the file.
        log.pos = log.file->buffers[log.file->current].data;
        return;
      }
      const Growth growth = grow_populated(log, config);
      if (growth == Growth::Grown || (growth == Growth::ChunkFull && hand_off(log, config))) return;
      // Without memory for the rest of the chunk, what it holds is written now; after a failed
      // hand-off the chunk is already queued.
      finish_file(log, growth == Growth::NoMemory ? log.pos : log.file->buffers[log.file->current].data);
      redirect_to_scratch(log, LogState::Dropping);
      return;
    }
    case LogState::Dropping:
    case LogState::Closed:
      log.dropped += static_cast<uint64_t>(log.pos - t_scratch);
      count_lost_events(static_cast<uint64_t>(log.pos - t_scratch));
      log.pos = t_scratch;
      return;
  }
}

void close_thread_log(ThreadLog& log, const LogConfig&) {
  switch (log.state) {
    case LogState::Open:
      finish_file(log, log.pos);
      break;
    case LogState::Dropping:
    case LogState::Closed:
      log.dropped += static_cast<uint64_t>(log.pos - t_scratch);
      count_lost_events(static_cast<uint64_t>(log.pos - t_scratch));
      break;
    case LogState::Unopened:
      break;
  }
  redirect_to_scratch(log, LogState::Closed);
}

void flush_all_logs() { flush_open_logs(true); }

void flush_all_logs_from_signal() { flush_open_logs(false); }

void disown_logs_after_fork() { g_disowned.store(true, std::memory_order_relaxed); }

uint64_t own_page_faults() { return t_own_page_faults; }

uint32_t next_object_id(ThreadLog& log) {
  if (log.next_id == log.id_limit) [[unlikely]] {
    log.next_id = g_next_id_block.fetch_add(kIdBlock, std::memory_order_relaxed);
    log.id_limit = log.next_id + kIdBlock;
  }
  return log.next_id++;
}

uint64_t total_dropped_events() {
  uint64_t lost = g_dropped.load(std::memory_order_relaxed);
  const uint32_t n = std::min(g_thread_count.load(std::memory_order_acquire), kMaxLogs);
  for (uint32_t i = 0; i < n; ++i) {
    const LogFile& file = g_files[i];
    if (file.failed.load(std::memory_order_acquire))
      lost += (file.end_offset.load(std::memory_order_relaxed) - file.failed_at.load(std::memory_order_relaxed)) / sizeof(Event);
  }
  return lost;
}
uint32_t threads_seen() { return g_thread_count.load(std::memory_order_relaxed); }

}  // namespace ompscope::capture
