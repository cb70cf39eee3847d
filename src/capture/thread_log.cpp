#include "capture/thread_log.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>

namespace ompscope::capture {
namespace {

std::atomic<uint32_t> g_thread_count{0};
std::atomic<uint64_t> g_dropped{0};
std::atomic<uint32_t> g_next_id_block{1};
constexpr uint32_t kIdBlock = 1024;
#ifdef MADV_POPULATE_WRITE
constexpr int kPopulateWrite = MADV_POPULATE_WRITE;
#else
constexpr int kPopulateWrite = 23;  // Linux 5.14 uapi value; older glibc headers lack the name
#endif

// Where events go while a log cannot grow: rewritten over and over, each pass counted as dropped.
// The policy when full is "stop": a thread whose log cannot grow records nothing more.
// Tiny on purpose: a dlopen'ed tool gets only a few hundred bytes of static TLS from glibc
// (a larger block makes libomp fail to load the tool with "cannot allocate memory in static TLS").
constexpr size_t kScratchEvents = 2;
thread_local Event t_scratch[kScratchEvents] __attribute__((tls_model("initial-exec")));

void count_dropped(ThreadLog& log, uint64_t n) {
  log.dropped += n;
  g_dropped.fetch_add(n, std::memory_order_relaxed);
}

void redirect_to_scratch(ThreadLog& log, LogState state) {
  log.state = state;
  log.chunk = nullptr;
  log.pos = t_scratch;
  log.end = t_scratch + kScratchEvents;
}

bool open_file(ThreadLog& log, const LogConfig& config) {
  log.thread_index = g_thread_count.fetch_add(1, std::memory_order_relaxed);
  char path[4096];
  int n = snprintf(path, sizeof path, "%s/%s%04u%s", config.directory, kThreadFilePrefix,
                   log.thread_index, kThreadFileSuffix);
  if (n <= 0 || static_cast<size_t>(n) >= sizeof path) return false;
  log.fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  return log.fd >= 0;
}

bool map_chunk(ThreadLog& log, const LogConfig& config, uint64_t index) {
  off_t offset = static_cast<off_t>(index * config.chunk_bytes);
  if (posix_fallocate(log.fd, offset, static_cast<off_t>(config.chunk_bytes)) != 0) return false;
  void* p = mmap(nullptr, config.chunk_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
                 log.fd, offset);
  if (p == MAP_FAILED) return false;
  // A shared file mapping faults on the first write to each page even when populated (the
  // kernel tracks dirtying): take those faults here, on the slow path, not one per 128 events.
  // Kernels before 5.14 lack MADV_POPULATE_WRITE; the faults then stay on the hot path.
  madvise(p, config.chunk_bytes, kPopulateWrite);
  log.chunk = static_cast<Event*>(p);
  log.chunk_index = index;
  log.pos = log.chunk;
  log.end = log.chunk + config.chunk_bytes / sizeof(Event);
  return true;
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

// The file was grown chunk by chunk; trim it to what was written, dropping a zero tail and any
// chunk reserved but never used.
void trim_and_close(ThreadLog& log, const LogConfig& config) {
  uint64_t used = log.chunk_index * config.chunk_bytes +
                  static_cast<uint64_t>(log.pos - log.chunk) * sizeof(Event);
  munmap(log.chunk, config.chunk_bytes);
  if (ftruncate(log.fd, static_cast<off_t>(used)) != 0) {
    // The zero tail stays; readers stop at the first zero record, so the log remains valid.
  }
  close(log.fd);
  log.fd = -1;
}

}  // namespace

void roll_over(ThreadLog& log, const LogConfig& config) {
  switch (log.state) {
    case LogState::Unopened:
      log.fd = -1;
      if (!open_file(log, config) || !map_chunk(log, config, 0)) {
        if (log.fd >= 0) close(log.fd);
        log.fd = -1;
        redirect_to_scratch(log, LogState::Dropping);
        return;
      }
      log.state = LogState::Open;
      write_header(log);
      return;
    case LogState::Open:
      munmap(log.chunk, config.chunk_bytes);
      if (!map_chunk(log, config, log.chunk_index + 1)) {
        // Keep the file: its chunks so far are valid, the unwritten remainder is zero.
        close(log.fd);
        log.fd = -1;
        redirect_to_scratch(log, LogState::Dropping);
      }
      return;
    case LogState::Dropping:
    case LogState::Closed:
      count_dropped(log, static_cast<uint64_t>(log.pos - t_scratch));
      log.pos = t_scratch;
      return;
  }
}

void close_thread_log(ThreadLog& log, const LogConfig& config) {
  switch (log.state) {
    case LogState::Open:
      trim_and_close(log, config);
      break;
    case LogState::Dropping:
    case LogState::Closed:
      count_dropped(log, static_cast<uint64_t>(log.pos - t_scratch));
      break;
    case LogState::Unopened:
      break;
  }
  redirect_to_scratch(log, LogState::Closed);
}

uint32_t next_object_id(ThreadLog& log) {
  if (log.next_id == log.id_limit) [[unlikely]] {
    log.next_id = g_next_id_block.fetch_add(kIdBlock, std::memory_order_relaxed);
    log.id_limit = log.next_id + kIdBlock;
  }
  return log.next_id++;
}

uint64_t total_dropped_events() { return g_dropped.load(std::memory_order_relaxed); }
uint32_t threads_seen() { return g_thread_count.load(std::memory_order_relaxed); }

}  // namespace ompscope::capture
