// The team's work in a region at one thread count, and what the hardware counters name of its
// growth from the smallest count: the figures work_inflation and replicated_work compare
// (docs/lost-time.md, "Work inflation").
#pragma once
#include <string>
#include <vector>

#include "analysis/run_analysis.h"
#include "analysis/sampled_findings.h"

namespace ompscope::analysis {

// The team's work in a region (thread time outside waits in barriers, locks, fork/join, and
// outside the locks it holds), in the typical repeat, with the kernel's accounting of it scaled
// from what it was read over to all of it: the stretches of work, and the barrier visits in which
// the team ran tasks (ThreadSplit::task_usage: a task region's bodies run there), standing for
// their task time (usage.wall_s == work_s when any was read and no task ran in a barrier).
struct TeamWork {
  int threads = 0;  // the count it was measured at
  double work_s = 0;
  // The kernel's accounting; its system time is at least the minor faults at the machine's cheapest
  // fault (kernel.page_fault_floor_s), as getrusage's tick-sampled split can read less.
  WorkUsage usage;
  bool usage_read = false;
  KernelCalibration kernel;  // the machine's kernel, from the typical repeat
  std::vector<const TaskFigures*> tasks;  // the repeats' task figures, where they ran tasks (task inflation)
  // Where the work was (replicated_work): the region's time and, of it, the time in none of its
  // worksharing constructs (loop, sections, single, masked, ...; per team, as the construct tree
  // keeps times); its loops with the iteration count the runtime reported per visit.
  double time_s = 0;
  double outside_worksharing_s = 0;
  struct Loop {
    std::string path;  // identity across runs (ConstructRun::path)
    std::string place; // file:line
    double iterations_per_visit = 0;
    double time_s = 0;  // per team
  };
  std::vector<Loop> loops;
  // A base scaled to the team (scale --weak): work is meant to grow with the team; no replicated_work.
  bool weak = false;
  // Lock operations the team took in the region (recorded and counted: lock sampling), a count of
  // the work it did that no machine's speed changes (replicated_work).
  double lock_operations = 0;
  // The team's other runtime calls in the region (typical repeat): a fork and a join for each
  // thread and instance, the barriers, the tasks. Lock calls that outnumber them far hold the
  // runtime's work outside waits (region_causes.h, kLockCallsPerOtherCall).
  double other_runtime_calls = 0;
  // The team's CPU time per sampled line (mean over the repeats; analysis/sampled_code.h), where
  // the runs were sampled: repeated work repeats every line of it.
  LineTimes sampled_lines;
  // The team's CPU time in the OpenMP runtime outside its waits (mean over the repeats): samples
  // whose innermost frame is the runtime's, in worksharing constructs, tasks and the region's own
  // code, not in barriers, taskwaits or lock acquisitions. Threads that call the runtime in a loop
  // (a hand-written wait spinning on `omp flush`: NPB LU's pipelined sweeps) spend it there, and
  // its growth is waiting, not slower work. `runtime_place`: the construct that held most of it
  // at this count ("the loop at lu.cpp:446"; empty: the region's own code, or none).
  double runtime_work_s = 0;
  std::string runtime_place;
  std::string runtime_function;  // the runtime's function most of it was sampled in ("__kmpc_flush")
  // How unevenly the threads spent it: the most any thread spent less the team's mean (mean over
  // the repeats). A thread that spun waiting for another's flag arrives at the next barrier last
  // having worked no more: that part of the barriers' CPU-time imbalance is the spin's.
  double runtime_work_spread_s = 0;
};
TeamWork team_work(const std::vector<const RegionRun*>& repeats);
// The team's CPU time per sampled line, the mean over the repeats (TeamWork::sampled_lines).
LineTimes mean_line_times(const std::vector<const RegionRun*>& repeats);
// Stretches read over more than this many times the work they hold are the readings' own time:
// each reading costs ~1.3 µs of system calls (capture/thread_usage.h), and between barriers 62 ns
// apart (many_barriers) they were 94% of the stretches and 87% of those in the kernel, which the
// analysis then took for the program's system calls. Such a run's usage is left unread.
inline constexpr double kReadingsOverWork = 2.0;

// count (docs/lost-time.md, "Hardware counters"), from the team's counts over its work at t and
// at t0. `kind` stays Unknown where either count read none (the work_inflation hint then names
// false sharing and memory bandwidth both).
struct CpuSlowdown {
  enum class Kind { Unknown, MoreInstructions, Frequency, CacheMisses, MemoryBandwidth, Coherence };
  Kind kind = Kind::Unknown;
  double ipc = 0, base_ipc = 0;    // instructions per cycle at t and at t0
  double mpki = 0, base_mpki = 0;  // last-level cache misses per 1000 instructions
  double instruction_growth = 0;   // instructions at t ÷ at t0 − 1, for the same work
  double extra_cycles_per_miss = 0;  // the cycles' growth ÷ the misses at t
};
// Instructions growing by more than this share are named first: the work itself changed.
inline constexpr double kInstructionGrowth = 0.10;
// IPC falling by less than this share: the same cycles per instruction, each one slower.
inline constexpr double kIpcFall = 0.05;
// Misses per instruction growing by this share or more: memory traffic grew.
inline constexpr double kMissGrowth = 0.25;
// More extra cycles per last-level cache miss than a miss to DRAM takes on its own (~100–150 ns
// at 3–4 GHz, streaming misses overlapping to far less): not the misses' cost.
inline constexpr double kMissCostCycles = 500;
CpuSlowdown name_cpu_slowdown(const WorkUsage& now, const WorkUsage& base);

// The hardware counts of the stretches they were read over, scaled to all of the work the usage
// stands for.
struct WorkCounts {
  double cycles = 0, instructions = 0, misses = 0;
};
WorkCounts counts_of(const WorkUsage& u);

}  // namespace ompscope::analysis
