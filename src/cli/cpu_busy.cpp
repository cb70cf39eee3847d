#include "cli/cpu_busy.h"

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

namespace ompscope::cli {

double busy_seconds_of(const std::string& proc_stat, const unsigned char (&cpus_mask)[128], double ticks_per_s) {
  std::istringstream in(proc_stat);
  std::string line;
  double ticks = 0;
  bool found = false;
  while (std::getline(in, line)) {
    // "cpuN user nice system idle iowait irq softirq steal guest guest_nice"; "cpu " is the sum.
    if (line.size() < 4 || line.compare(0, 3, "cpu") != 0 || line[3] < '0' || line[3] > '9') continue;
    std::istringstream fields(line.substr(3));
    unsigned cpu = 0;
    unsigned long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    if (!(fields >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq)) continue;
    fields >> steal;  // absent before Linux 2.6.11
    if (cpu >= 8 * sizeof(cpus_mask) || !(cpus_mask[cpu / 8] & (1u << (cpu % 8)))) continue;
    // guest time is inside user already; idle and iowait are the CPU's own idleness.
    ticks += static_cast<double>(user + nice + system + irq + softirq + steal);
    found = true;
  }
  return found ? ticks / ticks_per_s : -1;
}

CpuBusySnapshot cpu_busy_now() {
  CpuBusySnapshot s;
  s.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  rusage children{};
  if (getrusage(RUSAGE_CHILDREN, &children) != 0) return s;
  s.children_s = static_cast<double>(children.ru_utime.tv_sec + children.ru_stime.tv_sec) +
                 1e-6 * static_cast<double>(children.ru_utime.tv_usec + children.ru_stime.tv_usec);
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return s;
  unsigned char mask[128] = {};
  for (int cpu = 0; cpu < std::min<int>(CPU_SETSIZE, 8 * static_cast<int>(sizeof(mask))); ++cpu)
    if (CPU_ISSET(cpu, &set)) mask[cpu / 8] = static_cast<unsigned char>(mask[cpu / 8] | (1u << (cpu % 8)));
  std::ifstream file("/proc/stat");
  std::stringstream text;
  text << file.rdbuf();
  const long ticks_per_s = sysconf(_SC_CLK_TCK);
  if (!file || ticks_per_s <= 0) return s;
  s.busy_s = busy_seconds_of(text.str(), mask, static_cast<double>(ticks_per_s));
  s.cpus = CPU_COUNT(&set);
  s.tick_s = 1.0 / static_cast<double>(ticks_per_s);
  s.read = s.busy_s >= 0 && s.cpus > 0;
  return s;
}

double others_share(const CpuBusySnapshot& before, const CpuBusySnapshot& after) {
  if (!before.read || !after.read || before.cpus != after.cpus) return 0;
  const double capacity = (after.wall_s - before.wall_s) * after.cpus;
  if (capacity <= 0) return 0;
  const double others = (after.busy_s - before.busy_s) - (after.children_s - before.children_s) -
                        2 * after.tick_s * after.cpus;
  return std::clamp(others / capacity, 0.0, 1.0);
}

}  // namespace ompscope::cli
