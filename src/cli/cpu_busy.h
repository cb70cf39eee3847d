// How busy the CPUs this process may run on were while a program of ours ran (`bench`): the
// kernel's per-CPU busy time (/proc/stat) beside the CPU time our waited-for children used
// (getrusage). What the CPUs spent beyond our children's was another process's, or the
// hypervisor's (steal): a calibration measured beside it measures the load, not the runtime.
// A steady competing process does not widen a calibration's own spread (every sample pays it
// alike): on a 2-vCPU VM beside one busy loop, libomp's task_tree cost was cached ~50× the quiet one.
#pragma once
#include <string>

namespace ompscope::cli {

struct CpuBusySnapshot {
  bool read = false;      // /proc/stat and the affinity mask could be read
  int cpus = 0;           // the CPUs of this process's affinity mask
  double busy_s = 0;      // their busy time since boot (user, nice, system, irq, softirq, steal)
  double children_s = 0;  // user + system time of this process's waited-for children
  double wall_s = 0;      // a monotonic clock
  double tick_s = 0;      // the kernel's accounting tick: each CPU's busy time is known to a tick
};

CpuBusySnapshot cpu_busy_now();

// Parses /proc/stat's text: the busy seconds of the CPUs whose numbers are set in `cpus_mask`
// (bit i: cpuI; CPUs beyond the mask's 1024 bits are not counted), at `ticks_per_s`; -1 where no
// line of those CPUs is found.
double busy_seconds_of(const std::string& proc_stat, const unsigned char (&cpus_mask)[128], double ticks_per_s);

// Of the CPUs' capacity between two snapshots (wall time × CPUs), the share that was surely busy
// with something other than our children: the busy time beyond theirs, less a tick per CPU at
// each end (on a quiet 2-vCPU VM a 0.1 s window read up to 12% by the ticks alone); 0 where a
// snapshot was not read or no time passed.
double others_share(const CpuBusySnapshot& before, const CpuBusySnapshot& after);

}  // namespace ompscope::cli
