#include "capture/run_meta.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <link.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "common/event_record.h"
#include "common/launcher_rank.h"

namespace ompscope::capture {
namespace {

int g_meta_fd = -1;
LauncherRank g_rank;

bool make_directory(const char* path) {
  if (mkdir(path, 0755) == 0 || errno == EEXIST) return true;
  fprintf(stderr, "ompscope: cannot create log directory %s: %s; program runs unobserved\n", path, strerror(errno));
  return false;
}

int write_module(dl_phdr_info* info, size_t, void*) {
  char exe[4096];
  const char* path = info->dlpi_name;
  if (path == nullptr || path[0] == '\0') {
    // The main program has an empty name here; /proc/self/exe is only meaningful in-process.
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return 0;
    exe[n] = '\0';
    path = exe;
  }
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
    uint64_t lo = info->dlpi_addr + ph.p_vaddr;
    meta_line("module %lx %lx %lx %s", static_cast<unsigned long>(info->dlpi_addr),
              static_cast<unsigned long>(lo), static_cast<unsigned long>(lo + ph.p_memsz), path);
  }
  return 0;
}

}  // namespace

bool open_run_meta(const char* directory) {
  char path[4096];
  int n = snprintf(path, sizeof path, "%s/%s", directory, kMetaFileName);
  if (n <= 0 || static_cast<size_t>(n) >= sizeof path) return false;
  g_meta_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  return g_meta_fd >= 0;
}

bool open_log_directory(char* directory, size_t size) {
  g_rank = launcher_rank(environ);
  const char* dir = getenv("OMPSCOPE_LOG_DIR");
  int n = dir && dir[0] ? snprintf(directory, size, "%s", dir)
                        : snprintf(directory, size, "ompscope-log-%d", static_cast<int>(getpid()));
  if (n <= 0 || static_cast<size_t>(n) >= size) return false;
  if (g_rank.ranked() && dir && dir[0]) {
    // The ranks share OMPSCOPE_LOG_DIR (the launcher exports it to all): each takes rank-R in it.
    char name[32];
    if (!make_directory(directory) || !rank_directory_name(g_rank.rank, name, sizeof name)) return false;
    const int m = snprintf(directory + n, size - static_cast<size_t>(n), "/%s", name);
    if (m <= 0 || static_cast<size_t>(m) >= size - static_cast<size_t>(n)) return false;
  }
  if (!make_directory(directory)) return false;
  if (!open_run_meta(directory)) {
    fprintf(stderr, "ompscope: cannot write to log directory %s: %s; program runs unobserved\n", directory,
            strerror(errno));
    return false;
  }
  return true;
}

void write_rank_meta() {
  if (g_rank.rank >= 0)
    meta_line("rank %d %d %d %s", g_rank.rank, g_rank.size, g_rank.local_rank, g_rank.variable);
}

void meta_line(const char* format, ...) {
  if (g_meta_fd < 0) return;
  char line[8192];
  va_list args;
  va_start(args, format);
  int n = vsnprintf(line, sizeof line - 1, format, args);
  va_end(args);
  if (n < 0) return;
  if (static_cast<size_t>(n) > sizeof line - 2) n = sizeof line - 2;
  line[n++] = '\n';
  // One write per line: O_APPEND keeps lines whole even if two threads ever wrote at once.
  if (write(g_meta_fd, line, static_cast<size_t>(n)) < 0) {
    // A full disk loses meta lines; the reader reports a log without its finalize line.
  }
}

namespace {
char* append_decimal(char* out, uint64_t v) {
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) *out++ = digits[--n];
  return out;
}
}  // namespace

void meta_line_from_signal(const char* key, uint64_t a, uint64_t b) {
  if (g_meta_fd < 0) return;
  char line[128];
  char* out = line;
  for (const char* k = key; *k && out < line + 64; ++k) *out++ = *k;
  *out++ = ' ';
  out = append_decimal(out, a);
  *out++ = ' ';
  out = append_decimal(out, b);
  *out++ = '\n';
  if (write(g_meta_fd, line, static_cast<size_t>(out - line)) < 0) {
    // Nothing to do in a dying process.
  }
}

void write_module_map() { dl_iterate_phdr(write_module, nullptr); }

bool module_text_range(const void* address, uintptr_t* lo, uintptr_t* hi) {
  struct Query {
    uintptr_t address, lo = 0, hi = 0;
  } q{reinterpret_cast<uintptr_t>(address)};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* q = static_cast<Query*>(data);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
          const uintptr_t lo = info->dlpi_addr + ph.p_vaddr, hi = lo + ph.p_memsz;
          if (q->address >= lo && q->address < hi) {
            q->lo = lo;
            q->hi = hi;
            return 1;
          }
        }
        return 0;
      },
      &q);
  *lo = q.lo;
  *hi = q.hi;
  return q.hi != 0;
}

void close_run_meta() {
  if (g_meta_fd >= 0) close(g_meta_fd);
  g_meta_fd = -1;
}

}  // namespace ompscope::capture
