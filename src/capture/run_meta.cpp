#include "capture/run_meta.h"

#include <fcntl.h>
#include <link.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>

#include "common/event_record.h"

namespace ompscope::capture {
namespace {

int g_meta_fd = -1;

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
