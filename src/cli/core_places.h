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

}  // namespace ompscope::cli
