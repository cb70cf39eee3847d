#include "capture/pc_sampler.h"

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "capture/run_meta.h"

namespace ompscope::capture {
namespace {

// One sample as the handler stores it: 128 bytes, so a ring of them is page aligned.
struct SampleSlot {
  uint64_t ticks;
  uint64_t pc;
  uint32_t weight;
  uint32_t depth;
  uint64_t frames[kSampleFrames];
};
static_assert(sizeof(SampleSlot) == 128);

// 4096 samples: 16 s of one thread's CPU at 250 Hz between two drains (a thread drains at every
// region instance whose kernel accounting it reads, and the initial thread at every top-level
// fork and join), 512 KiB of anonymous memory per sampled thread, touched only as it fills.
constexpr uint32_t kRingSlots = 4096;

struct SampleRing {
  SampleSlot slots[kRingSlots];
  // The handler is the only producer and the thread itself the only consumer: one thread, so
  // signal fences order them.
  volatile uint64_t head;
  volatile uint64_t tail;
  uint64_t dropped;
  uintptr_t stack_hi;  // the top of the thread's stack: frames are read only below it
  timer_t timer;
  bool timer_armed;
};

// Plain static storage and a TLS pointer (8 bytes of a dlopen'ed tool's static TLS).
thread_local SampleRing* t_ring __attribute__((tls_model("initial-exec")));
long g_period_ns = 0;  // 0: sampling off
std::atomic<uint64_t> g_dropped{0};
// A real-time signal, not SIGPROF: a program that starts its own profiler after the tool loaded
// (setitimer(ITIMER_PROF) and a SIGPROF handler) would otherwise receive the tool's timer signals
// too, and the tool its. The highest one the program has left at its default (open_pc_sampling).
int g_signal = 0;
// The recorder's clock and pause flag (open_pc_sampling).
ClockSource g_clock = ClockSource::Monotonic;
const std::atomic<bool>* g_paused = nullptr;

void on_sample(int, siginfo_t* info, void* context) {
  SampleRing* ring = t_ring;
  if (!ring || (g_paused && g_paused->load(std::memory_order_relaxed))) return;
  const int saved_errno = errno;
  if (ring->head - ring->tail >= kRingSlots) {
    ++ring->dropped;
    errno = saved_errno;
    return;
  }
  SampleSlot& s = ring->slots[ring->head % kRingSlots];
  const auto* uc = static_cast<const ucontext_t*>(context);
  s.ticks = read_ticks(g_clock);
  s.weight = 1 + static_cast<uint32_t>(info->si_overrun > 0 ? info->si_overrun : 0);
#if defined(__x86_64__)
  s.pc = static_cast<uint64_t>(uc->uc_mcontext.gregs[REG_RIP]);
  const uintptr_t sp = static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]);
  uintptr_t fp = static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RBP]);
#elif defined(__aarch64__)
  s.pc = static_cast<uint64_t>(uc->uc_mcontext.pc);
  const uintptr_t sp = static_cast<uintptr_t>(uc->uc_mcontext.sp);
  uintptr_t fp = static_cast<uintptr_t>(uc->uc_mcontext.regs[29]);
#else
  s.pc = 0;
  const uintptr_t sp = 0;
  uintptr_t fp = 0;
#endif
  // The frame-pointer chain, each frame read only where it lies between the interrupted stack
  // pointer and the stack's top: code built without frame pointers uses the register for data,
  // and that ends the chain here instead of faulting.
  uint32_t depth = 0;
  while (depth < kSampleFrames && fp >= sp && fp + 16 <= ring->stack_hi && (fp & 7) == 0) {
    const auto* frame = reinterpret_cast<const uintptr_t*>(fp);
    const uintptr_t ret = frame[1], next = frame[0];
    if (ret < 4096) break;
    s.frames[depth++] = ret;
    if (next <= fp) break;
    fp = next;
  }
  s.depth = depth;
  std::atomic_signal_fence(std::memory_order_release);
  ring->head = ring->head + 1;
  errno = saved_errno;
}

uintptr_t stack_top() {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
  void* base = nullptr;
  size_t size = 0;
  const bool ok = pthread_attr_getstack(&attr, &base, &size) == 0;
  pthread_attr_destroy(&attr);
  return ok ? reinterpret_cast<uintptr_t>(base) + size : 0;
}

}  // namespace

void open_pc_sampling(ClockSource clock, const std::atomic<bool>* paused) {
  g_clock = clock;
  g_paused = paused;
  const char* hz_text = getenv("OMPSCOPE_SAMPLE_HZ");
  const long hz = hz_text && *hz_text ? strtol(hz_text, nullptr, 10) : 1000;
  if (hz <= 0) {
    meta_line("pc_sampling off");
    return;
  }
  // The highest real-time signal with no handler and not ignored: programs that use real-time
  // signals for themselves take them from SIGRTMIN up.
  struct sigaction sa {};
  sa.sa_sigaction = on_sample;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  for (int sig = SIGRTMAX; sig >= SIGRTMIN && g_signal == 0; --sig) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) != 0 || (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;
    if (sigaction(sig, &sa, nullptr) == 0) g_signal = sig;
  }
  if (g_signal == 0) {
    meta_line("pc_sampling none every real-time signal is the program's");
    return;
  }
  g_period_ns = hz > 1000000000 ? 1 : 1000000000 / hz;
  meta_line("pc_sampling cpu_timer %ld signal %d", g_period_ns, g_signal);
}

void begin_thread_sampling() {
  if (g_period_ns == 0 || t_ring) return;
  void* memory = mmap(nullptr, sizeof(SampleRing), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return;
  auto* ring = static_cast<SampleRing*>(memory);  // zero-filled: head = tail = 0
  ring->stack_hi = stack_top();
  sigevent ev{};
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = g_signal;
  ev._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
  if (timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &ring->timer) != 0) {
    munmap(memory, sizeof(SampleRing));
    return;
  }
  t_ring = ring;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  itimerspec spec{};
  spec.it_interval.tv_sec = g_period_ns / 1000000000;
  spec.it_interval.tv_nsec = g_period_ns % 1000000000;
  spec.it_value = spec.it_interval;
  ring->timer_armed = timer_settime(ring->timer, 0, &spec, nullptr) == 0;
}

void drain_samples(ThreadLog& log, const LogConfig& config) {
  SampleRing* ring = t_ring;
  if (!ring || ring->head == ring->tail) return;
  if (log.state != LogState::Open) return;
  const uint64_t now = read_ticks(g_clock);
  // Read the head once: samples the handler adds while this runs wait for the next drain.
  const uint64_t head = ring->head;
  std::atomic_signal_fence(std::memory_order_acquire);
  for (uint64_t i = ring->tail; i != head; ++i) {
    const SampleSlot& s = ring->slots[i % kRingSlots];
    Event* e = reserve(log, config);
    *e = Event{now, s.pc, static_cast<uint32_t>(s.ticks), static_cast<uint32_t>(s.ticks >> 32), s.weight, 0,
               EventKind::Sample, static_cast<uint8_t>(s.depth)};
    for (uint32_t f = 0; f < s.depth; f += 2) {
      const uint64_t second = f + 1 < s.depth ? s.frames[f + 1] : 0;
      Event* c = reserve(log, config);
      *c = Event{now, s.frames[f], static_cast<uint32_t>(second), static_cast<uint32_t>(second >> 32), 0, 0,
                 EventKind::SampleFrames, 0};
    }
  }
  std::atomic_signal_fence(std::memory_order_release);
  ring->tail = head;
}

void end_thread_sampling(ThreadLog& log, const LogConfig& config) {
  SampleRing* ring = t_ring;
  if (!ring) return;
  if (ring->timer_armed) timer_delete(ring->timer);
  ring->timer_armed = false;
  drain_samples(log, config);
  g_dropped.fetch_add(ring->dropped, std::memory_order_relaxed);
  ring->dropped = 0;
  // The ring stays mapped: a signal already pending runs the handler once more.
}

uint64_t dropped_samples() { return g_dropped.load(std::memory_order_relaxed); }

}  // namespace ompscope::capture
