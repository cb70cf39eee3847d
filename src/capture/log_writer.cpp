#include "capture/log_writer.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>

namespace ompscope::capture {
namespace {

// Every buffer is queued at most once at a time, so a ring this size never overflows.
constexpr size_t kQueueCapacity = 4096 * kBuffersPerLog;

struct PendingChunk {
  LogFile* file;
  LogBuffer* buffer;
};

// Static initialisers and no destructors: usable after static destruction (docs/runtime-quirks.md Q3).
pthread_mutex_t g_mutex = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t g_work = PTHREAD_COND_INITIALIZER;
pthread_cond_t g_written = PTHREAD_COND_INITIALIZER;
PendingChunk g_queue[kQueueCapacity];
size_t g_head = 0, g_tail = 0;  // pop at head, push at tail; guarded by g_mutex
enum class WriterState { NotStarted, Running, Failed } g_state = WriterState::NotStarted;

void* writer_main(void*) {
  for (;;) {
    pthread_mutex_lock(&g_mutex);
    while (g_head == g_tail) pthread_cond_wait(&g_work, &g_mutex);
    const PendingChunk chunk = g_queue[g_head % kQueueCapacity];
    ++g_head;
    pthread_mutex_unlock(&g_mutex);

    LogBuffer& b = *chunk.buffer;
    const uint64_t bytes = b.queued_bytes.load(std::memory_order_acquire);
    write_to_log_file(*chunk.file, b.data, bytes, b.file_offset, true);
    pthread_mutex_lock(&g_mutex);
    b.queued_bytes.store(0, std::memory_order_release);
    pthread_cond_broadcast(&g_written);
    pthread_mutex_unlock(&g_mutex);
  }
  return nullptr;
}

// fork() copies the queue but not the writer thread: the child starts its own on demand, with
// an empty queue (the parent's chunks are the parent's to write), a mutex nobody holds and
// fresh condition variables (the copies still count the parent's writer as a waiter).
void before_fork() { pthread_mutex_lock(&g_mutex); }
void after_fork_in_parent() { pthread_mutex_unlock(&g_mutex); }
void after_fork_in_child() {
  g_head = g_tail = 0;
  g_state = WriterState::NotStarted;
  pthread_cond_init(&g_work, nullptr);
  pthread_cond_init(&g_written, nullptr);
  pthread_mutex_unlock(&g_mutex);
}

bool g_fork_handlers_installed = false;  // guarded by g_mutex

// Called with g_mutex held.
bool start_writer() {
  if (!g_fork_handlers_installed)
    g_fork_handlers_installed = pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child) == 0;
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);  // the new thread inherits "all blocked"
  pthread_t thread;
  const bool started = pthread_create(&thread, nullptr, writer_main, nullptr) == 0;
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  if (!started) return false;
  pthread_detach(thread);
  return true;
}

}  // namespace

bool queue_for_writer(LogFile& file, LogBuffer& buffer) {
  pthread_mutex_lock(&g_mutex);
  if (g_state == WriterState::NotStarted) g_state = start_writer() ? WriterState::Running : WriterState::Failed;
  const bool running = g_state == WriterState::Running;
  if (running) {
    g_queue[g_tail % kQueueCapacity] = PendingChunk{&file, &buffer};
    ++g_tail;
    pthread_cond_signal(&g_work);
  }
  pthread_mutex_unlock(&g_mutex);
  return running;
}

void wait_until_written(const LogBuffer& buffer) {
  if (buffer.queued_bytes.load(std::memory_order_acquire) == 0) return;
  pthread_mutex_lock(&g_mutex);
  while (buffer.queued_bytes.load(std::memory_order_acquire) != 0) pthread_cond_wait(&g_written, &g_mutex);
  pthread_mutex_unlock(&g_mutex);
}

namespace {

// The bytes that reached the file: all of them unless the disk is full or failing.
uint64_t write_chunk(int direct_fd, int buffered_fd, const char* p, uint64_t bytes, uint64_t offset) {
  uint64_t written = 0;
  int fd = direct_fd >= 0 ? direct_fd : buffered_fd;
  while (written < bytes) {
    const ssize_t n = pwrite(fd, p + written, bytes - written, static_cast<off_t>(offset + written));
    if (n > 0) {
      written += static_cast<uint64_t>(n);
      fd = buffered_fd;  // a short direct write leaves an unaligned remainder
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && errno == EINVAL && fd != buffered_fd) {
      fd = buffered_fd;  // this filesystem or device refuses the alignment: go through the cache
    } else {
      break;
    }
  }
  return written;
}

}  // namespace

bool write_to_log_file(LogFile& file, const void* data, uint64_t bytes, uint64_t offset, bool whole_chunk) {
  uint64_t end = file.end_offset.load(std::memory_order_relaxed);
  while (end < offset + bytes && !file.end_offset.compare_exchange_weak(end, offset + bytes)) {
  }
  if (file.failed.load(std::memory_order_acquire)) return false;
  const uint64_t written = write_chunk(whole_chunk ? file.direct_fd : -1, file.tail_fd, static_cast<const char*>(data), bytes, offset);
  if (written == bytes) return true;
  const uint64_t kept = offset + written / sizeof(Event) * sizeof(Event);
  file.failed_at.store(kept, std::memory_order_relaxed);
  file.failed.store(true, std::memory_order_release);
  if (ftruncate(file.tail_fd, static_cast<off_t>(kept)) != 0) {
    // The torn record stays; the reader reports a log that ends mid-record.
  }
  return false;
}

}  // namespace ompscope::capture
