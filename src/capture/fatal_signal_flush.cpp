#include "capture/fatal_signal_flush.h"

#include <signal.h>

#include <atomic>

#include "capture/thread_log.h"

namespace ompscope::capture {
namespace {

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS,  SIGFPE,  SIGILL, SIGABRT, SIGTRAP, SIGSYS,
                                 SIGINT,  SIGTERM, SIGQUIT, SIGHUP, SIGXCPU, SIGXFSZ, SIGPIPE};
constexpr int kSignalSlots = 65;
struct sigaction g_previous[kSignalSlots];
std::atomic<bool> g_flushed{false};
void (*g_last_words)() = nullptr;

void on_fatal_signal(int signal) {
  // Once: a second fault while flushing (or in another thread) goes straight to the old action.
  if (!g_flushed.exchange(true)) {
    flush_all_logs_from_signal();
    if (g_last_words) g_last_words();
  }
  // Hand the signal back: with the previous action restored, the re-raised signal is delivered
  // when this handler returns (it is blocked until then), whether it came from a fault, kill or
  // abort().
  sigaction(signal, &g_previous[signal], nullptr);
  raise(signal);
}

}  // namespace

void install_fatal_signal_flush(void (*last_words)()) {
  g_last_words = last_words;
  for (int signal : kFatalSignals) {
    struct sigaction current {};
    if (sigaction(signal, nullptr, &current) != 0 || current.sa_handler == SIG_IGN) continue;
    struct sigaction mine {};
    mine.sa_handler = on_fatal_signal;
    sigemptyset(&mine.sa_mask);
    mine.sa_flags = SA_RESTART;
    sigaction(signal, &mine, &g_previous[signal]);
  }
}

}  // namespace ompscope::capture
