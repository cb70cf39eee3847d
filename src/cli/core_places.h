// OMP_PLACES for one place per physical core, as the kernel sees the machine. libomp derives
// `OMP_PLACES=cores` from CPUID, which hypervisors often misreport: on the 2-vCPU AMD VM this
// project is developed on, libomp 14 decodes both vCPUs as hyperthreads of one core, so `cores`
// makes a single place and a bound 2-thread run was time-shared on one vCPU in about half of
// the runs (a balanced task program measured 30 ms instead of 23). Linux's sysfs topology is
// what the scheduler uses, so places built from it never put two threads on one CPU by mistake.
#pragma once
#include <set>
#include <string>
#include <vector>

namespace ompscope::cli {

// "0-3,8,10-11" → {0,1,2,3,8,10,11}; empty on malformed text.
std::set<int> parse_cpu_list(const std::string& text);

// One place per core: `siblings[i]` is the sibling list (sysfs thread_siblings_list) of the
// allowed CPU `cpus[i]`. Places hold only allowed CPUs and are ordered by their first CPU:
// "{0,16},{1,17}". Empty when a sibling list is missing or malformed.
std::string core_places(const std::vector<int>& cpus, const std::vector<std::string>& siblings);

// core_places for this process's allowed CPUs, read from sysfs; empty when it cannot be read
// (the caller then leaves the choice to the runtime).
std::string core_places_of_this_machine();

// The CPUs this process can use at once: the CPUs its affinity mask allows (`taskset -c 0`
// leaves one), fewer where its cgroup's CPU quota is smaller (cgroup v2 `cpu.max` "QUOTA PERIOD",
// v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`; rounded up, at least 1). A machine's CPU count
// (std::thread::hardware_concurrency) counts the online CPUs whatever the process may use: under
// `taskset -c 0` scale took 2 threads for a core each and bound them to one place.
// `quota_cpus`: the quota in CPUs from cpu_quota_of_this_process, 0 for none.
int usable_cpus(int allowed_cpus, double quota_cpus);

// The CPU quota of a cgroup from its files' text: v2 cpu.max ("max 100000" → 0: none;
// "150000 100000" → 1.5), or v1 quota and period in µs ("-1" → 0: none). 0 on malformed text.
double cpu_quota_v2(const std::string& cpu_max);
double cpu_quota_v1(const std::string& quota_us, const std::string& period_us);

// The smallest quota on this process's cgroup path (each ancestor's limit applies too), read
// from /proc/self/cgroup and /sys/fs/cgroup; 0 where there is none or it cannot be read.
double cpu_quota_of_this_process();

// usable_cpus for this process: its affinity mask and its cgroup's quota.
int usable_cpus_of_this_process();

}  // namespace ompscope::cli
