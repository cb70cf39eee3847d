#include "capture/hw_counters.h"

#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ompscope::capture {

const CounterSpec kHardwareCounters[3] = {
    {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},  // last-level cache misses (perf_event_open(2))
};

int open_counter_group(const CounterSpec* specs, int n, CounterGroup* group) {
  *group = CounterGroup{};
  if (n <= 0 || n > kMaxCounters) return EINVAL;
  for (int i = 0; i < n; ++i) {
    perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = specs[i].type;
    attr.config = specs[i].config;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    attr.pinned = i == 0;
    const long fd = syscall(SYS_perf_event_open, &attr, 0, -1, i == 0 ? -1 : group->fds[0], PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) {
      const int error = errno ? errno : EINVAL;
      close_counter_group(group);
      return error;
    }
    group->fds[i] = static_cast<int>(fd);
    group->count = i + 1;
  }
  return 0;
}

bool read_counter_group(const CounterGroup& group, uint64_t* values) {
  if (!group.open()) return false;
  // PERF_FORMAT_GROUP with both times: nr, time_enabled, time_running, then one value per counter.
  uint64_t buffer[3 + kMaxCounters];
  const ssize_t want = static_cast<ssize_t>((3 + group.count) * sizeof(uint64_t));
  if (read(group.fds[0], buffer, sizeof buffer) != want) return false;  // 0: the pinned group is in error
  if (buffer[0] != static_cast<uint64_t>(group.count) || buffer[1] != buffer[2]) return false;
  for (int i = 0; i < group.count; ++i) values[i] = buffer[3 + i];
  return true;
}

void close_counter_group(CounterGroup* group) {
  for (int i = group->count; i-- > 0;)
    if (group->fds[i] >= 0) close(group->fds[i]);
  *group = CounterGroup{};
}

const char* counter_failure_text(int error) {
  switch (error) {
    case ENOENT: return "ENOENT: no PMU, the CPU offers no such event";
    case EOPNOTSUPP: return "EOPNOTSUPP: no PMU, hardware events not supported";
    case ENODEV: return "ENODEV: no PMU";
    case EACCES: return "EACCES: not permitted by perf_event_paranoid";
    case EPERM: return "EPERM: not permitted";
    case ENOSYS: return "ENOSYS: no perf_event_open in this kernel";
    case EMFILE: return "EMFILE: no file descriptors left";
    case EINVAL: return "EINVAL: rejected by the kernel";
    case EBUSY: return "EBUSY: counters in use by another tool";
    default: return "perf_event_open failed";
  }
}

}  // namespace ompscope::capture
