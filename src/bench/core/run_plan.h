// What `ompscope bench` runs and how it reports progress: default thread counts, the CPU count
// that decides "oversubscribed", and the time-left estimate.
#pragma once
#include <string>
#include <vector>

namespace ompscope::bench {

// CPUs this process may run on (the calling thread's affinity mask), at least 1: the CLI labels
// thread counts above it "oversubscribed". Wrong inside an OpenMP program with OMP_PROC_BIND,
// whose runtime binds the initial thread to one place; the bench programs ask
// omp_get_num_procs(), which both runtimes take from the mask before binding.
int available_cpus();

// 1, 2, the powers of two up to `cores`, and `cores` itself; ascending, no duplicates.
std::vector<int> default_thread_counts(int cores);

// Time left if the remaining runs take as long as the finished ones did on average;
// negative when nothing has finished yet (no basis for a guess).
double estimate_seconds_left(double elapsed_s, int runs_done, int runs_total);

// "42s", "3m05s"; "?" for a negative (unknown) duration.
std::string format_duration(double seconds);

}  // namespace ompscope::bench
