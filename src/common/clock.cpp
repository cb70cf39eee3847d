#include "common/clock.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace ompscope {

// Reads /proc/cpuinfo with plain read(2): this runs inside the observed program during tool
// start-up, where allocation-free code is the safe choice.
bool tsc_is_invariant() {
  // OMPSCOPE_CLOCK=monotonic: capture as a machine without an invariant TSC would (CLOCK_MONOTONIC,
  // each timestamp a vDSO call), to reproduce such a machine's figures (scripts/machine_matrix.sh).
  if (const char* forced = getenv("OMPSCOPE_CLOCK"); forced && strcmp(forced, "monotonic") == 0) return false;
  int fd = open("/proc/cpuinfo", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  static char buf[1 << 16];
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return false;
  buf[n] = '\0';
  const char* flags = strstr(buf, "\nflags");
  if (!flags) return false;
  const char* eol = strchr(flags + 1, '\n');
  auto has = [&](const char* flag) {
    const char* p = strstr(flags, flag);
    return p && (!eol || p < eol);
  };
  return has(" constant_tsc") && has(" nonstop_tsc");
}

const char* clock_source_name(ClockSource source) {
  return source == ClockSource::Tsc ? "tsc" : "monotonic";
}

}  // namespace ompscope
