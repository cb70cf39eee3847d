#include "analysis/log_window.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>

namespace ompscope::analysis {
namespace {

// The windows mapped now, for the SIGBUS handler: each slot's range and its file's name, written
// before the range is published (release) and read by the handler (acquire). More windows than
// slots at once (a slot per thread walking a log, and `scale` walks a few) are read instead.
constexpr size_t kSlots = 64;
constexpr size_t kNameBytes = 512;
struct Slot {
  std::atomic<uintptr_t> begin{0};
  std::atomic<uintptr_t> end{0};
  char name[kNameBytes] = {};
};
std::array<Slot, kSlots> g_slots;
std::atomic<bool> g_claimed[kSlots];
struct sigaction g_previous {};

void write_all(const char* text) {
  for (size_t left = std::strlen(text); left > 0;) {
    const ssize_t n = ::write(STDERR_FILENO, text, left);
    if (n <= 0) return;
    text += n;
    left -= static_cast<size_t>(n);
  }
}

void on_sigbus(int sig, siginfo_t* info, void* context) {
  const auto at = reinterpret_cast<uintptr_t>(info->si_addr);
  for (Slot& s : g_slots) {
    const uintptr_t begin = s.begin.load(std::memory_order_acquire);
    if (begin == 0 || at < begin || at >= s.end.load(std::memory_order_acquire)) continue;
    write_all("ompscope: ");
    write_all(s.name);
    write_all(": the log changed while it was read (another process cut it short)\n");
    ::_exit(2);
  }
  // Not a log window's: whatever handled SIGBUS before does, as if this one were not there.
  if (g_previous.sa_flags & SA_SIGINFO) {
    if (g_previous.sa_sigaction) return g_previous.sa_sigaction(sig, info, context);
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN && g_previous.sa_handler) {
    return g_previous.sa_handler(sig);
  }
  ::signal(SIGBUS, SIG_DFL);  // the fault happens again on return, and ends the process
}

void install_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, &g_previous);
  });
}

int claim_slot() {
  for (size_t i = 0; i < kSlots; ++i) {
    bool free = false;
    if (g_claimed[i].compare_exchange_strong(free, true)) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

const Event* LogWindow::map(int fd, const std::filesystem::path& file, uint64_t at, size_t count) {
  release();
  if (count == 0) return nullptr;
  if (slot_ < 0) slot_ = claim_slot();
  if (slot_ < 0) return nullptr;  // every slot taken: read instead
  install_handler();
  static const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t offset = sizeof(LogFileHeader) + at * sizeof(Event);
  const uint64_t start = offset / page * page;
  length_ = static_cast<size_t>(offset - start + count * sizeof(Event));
  // Populated at once: one call brings the window's pages in, where faults took them 16 at a time.
  void* base = ::mmap(nullptr, length_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, static_cast<off_t>(start));
  if (base == MAP_FAILED) {
    length_ = 0;
    return nullptr;
  }
  base_ = base;
  Slot& s = g_slots[static_cast<size_t>(slot_)];
  const std::string name = file.string();
  s.begin.store(0, std::memory_order_release);
  std::memcpy(s.name, name.c_str(), std::min(name.size() + 1, kNameBytes - 1));
  s.name[kNameBytes - 1] = '\0';
  s.end.store(reinterpret_cast<uintptr_t>(base) + length_, std::memory_order_release);
  s.begin.store(reinterpret_cast<uintptr_t>(base), std::memory_order_release);
  return reinterpret_cast<const Event*>(static_cast<const char*>(base) + (offset - start));
}

LogWindow::~LogWindow() {
  release();
  if (slot_ >= 0) g_claimed[static_cast<size_t>(slot_)].store(false);
}

void LogWindow::release() {
  if (base_ != nullptr) {
    g_slots[static_cast<size_t>(slot_)].begin.store(0, std::memory_order_release);
    ::munmap(base_, length_);
    base_ = nullptr;
    length_ = 0;
  }
}

}  // namespace ompscope::analysis
