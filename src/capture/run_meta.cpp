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
char* g_initial_text = nullptr;
const char** g_initial_environment = nullptr;

bool make_directory(const char* path) {
  if (mkdir(path, 0755) == 0 || errno == EEXIST) return true;
  fprintf(stderr, "ompscope: cannot create log directory %s: %s; program runs unobserved\n", path, strerror(errno));
  return false;
}

// Creates directory[0..n) + name + pid afresh, or name + pid.1, .2, ... when it exists (an
// exec'd image keeps its pid; a log left by an earlier run): never one that exists, so every
// file the process then creates in it is new (O_EXCL) and none can be a planted link.
bool make_own_directory(char* directory, size_t size, size_t n, const char* name, int pid) {
  for (int image = 0;; ++image) {
    const int m = image == 0 ? snprintf(directory + n, size - n, "%s%d", name, pid)
                             : snprintf(directory + n, size - n, "%s%d.%d", name, pid, image);
    if (m <= 0 || static_cast<size_t>(m) >= size - n) return false;
    if (mkdir(directory, 0755) == 0) return true;
    if (errno != EEXIST || image >= 1000) {
      fprintf(stderr, "ompscope: cannot create log directory %s: %s; program runs unobserved\n", directory,
              strerror(errno));
      return false;
    }
  }
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
  // In a directory this process just made (make_own_directory): a file there already is not ours.
  g_meta_fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC, 0644);
  return g_meta_fd >= 0;
}

// The environment the process was started with (/proc/self/environ), as an environ-style array
// that lives as long as the process; nullptr where it cannot be read. Not the current environ: an
// Open MPI singleton's MPI_Init sets PMIX_RANK in its own environment, and the tool may start
// after that (capture/mpi_interposer.cpp), though no launcher made the process a rank.
static const char* const* initial_environment() {
  const int fd = open("/proc/self/environ", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  size_t capacity = 1 << 16, used = 0;
  char* text = static_cast<char*>(malloc(capacity + 1));
  for (ssize_t n; text;) {
    if (used == capacity) {
      char* grown = static_cast<char*>(realloc(text, 2 * capacity + 1));
      if (!grown) break;
      text = grown;
      capacity *= 2;
    }
    n = read(fd, text + used, capacity - used);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    used += static_cast<size_t>(n);
  }
  close(fd);
  if (!text) return nullptr;
  text[used] = '\0';
  size_t count = 0;
  for (size_t i = 0; i < used; ++i) count += text[i] == '\0';
  const char** entries = static_cast<const char**>(malloc((count + 2) * sizeof(char*)));
  if (!entries) {
    free(text);
    return nullptr;
  }
  size_t k = 0;
  for (size_t i = 0; i < used; i += strlen(text + i) + 1) entries[k++] = text + i;
  entries[k] = nullptr;
  g_initial_text = text;  // kept: g_rank.variable points into it
  g_initial_environment = entries;
  return entries;
}

bool open_log_directory(char* directory, size_t size) {
  const char* const* started_with = initial_environment();
  g_rank = launcher_rank(started_with ? started_with : environ);
  const char* dir = getenv("OMPSCOPE_LOG_DIR");
  const int pid = static_cast<int>(getpid());
  if (!(dir && dir[0])) {
    if (!make_own_directory(directory, size, 0, "ompscope-log-", pid)) return false;
  } else {
    // Every process that loads a tool library shares OMPSCOPE_LOG_DIR (its children inherit it):
    // each writes pid-PID in it (a rank's under rank-R, docs/mpi.md), so none truncates another's
    // log. An exec'd image keeps its pid: it takes pid-PID.1, .2, ... beside the first one's.
    int n = snprintf(directory, size, "%s", dir);
    if (n <= 0 || static_cast<size_t>(n) >= size || !make_directory(directory)) return false;
    if (g_rank.ranked()) {
      char name[32];
      if (!rank_directory_name(g_rank.rank, name, sizeof name)) return false;
      const int m = snprintf(directory + n, size - static_cast<size_t>(n), "/%s", name);
      if (m <= 0 || static_cast<size_t>(m) >= size - static_cast<size_t>(n) || !make_directory(directory)) return false;
      n += m;
    }
    if (!make_own_directory(directory, size, static_cast<size_t>(n), "/pid-", pid)) return false;
  }
  if (!open_run_meta(directory)) {
    fprintf(stderr, "ompscope: cannot write to log directory %s: %s; program runs unobserved\n", directory,
            strerror(errno));
    return false;
  }
  return true;
}

void write_process_meta() {
  meta_line("pid %d", static_cast<int>(getpid()));
  meta_line("ppid %d", static_cast<int>(getppid()));
  // The command line, its arguments joined by spaces (the report lists each process by it).
  char command[2048];
  const int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  ssize_t n = fd >= 0 ? read(fd, command, sizeof command - 1) : -1;
  if (fd >= 0) close(fd);
  if (n <= 0) return;
  if (command[n - 1] == '\0') --n;
  for (ssize_t i = 0; i < n; ++i)
    if (command[i] == '\0' || command[i] == '\n') command[i] = ' ';
  command[n] = '\0';
  meta_line("command %s", command);
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
