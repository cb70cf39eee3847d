// The causes of a region's time lost at one thread count, each with its hint and its gain, and
// how they share the loss (docs/design.md, "Causes and their gains"; docs/lost-time.md): the
// detectors of the cause table's region causes (report/causes.h), the serial code's causes, and
// the cap that keeps their gains within what could be lost.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/report.h"
#include "analysis/run_analysis.h"
#include "analysis/team_work.h"

namespace ompscope::analysis {

// replicated_work: the team's work grows in proportion to the team (each thread does a fixed
// amount) when its CPU time at t over t0, outside worksharing constructs or in one loop whose
// iteration count grew, is t/t0 within this share (docs/design.md, "Work that grows with the team").
inline constexpr double kReplicatedBand = 0.2;
// The part of the region outside worksharing constructs at t0 that counts (below it, noise).
inline constexpr double kReplicatedMinShare = 0.1;
// A region that does all of its work outside worksharing and takes at least this many lock
// operations at t0 shows in their count whether its work grew with the team: where it did not,
// CPU time that grew t/t0 is the same work running slower (work_inflation), not repeated.
inline constexpr double kReplicatedMinOperations = 1000;
inline constexpr double kReplicatedAllOutside = 0.9;  // share of the region outside worksharing

// page_faults is named where the team's time in the kernel, with page faults, is at least this share
// of its work (below it: a few system calls), and where the instances after the first (of those
// whose kernel accounting was read) fault at least kPageFaultsRepeatShare as much each as the first:
// memory faulted in again and again, not the data's first touch, paid once (fork_shapes: a region
// run a few times whose first instance touched its data had 8.9 ms of "page faults" of 11 ms).
inline constexpr double kPageFaultsMinShare = 0.1;
inline constexpr double kPageFaultsRepeatShare = 0.5;
// The most a page fault costs in the kernel: this many times the machine's cheapest one (TeamWork::
// page_fault_floor_s: contention in the kernel, a cold cache; alloc_touch_free's 1.76 µs each at
// 2 threads against a floor of 1.64 µs), so that the faults take at least half of the kernel's
// time; or, where the log has no floor, zeroing a 2 MiB huge page (~50–200 µs). Kernel time beyond
// it is mostly system calls: lock_counts' region, 1.75 ms in the kernel with 94 faults (18.7 µs
// each: its lock waits' futex calls), and with gcc 0.8 ms with 197 (4.06 µs each against a floor
// of 1.32: the tool's own log pages and the futex calls); LULESH's at lulesh.cc:1143, 8.18 ms with
// 4 faults.
inline constexpr double kPageFaultCostSpread = 2;
inline constexpr double kPageFaultMaxCostS = 250e-6;

// The least growth of the kernel's time a team of t threads resolves: t times this, or t ticks of
// the machine's scheduler where the log records it (kernel_tick_ns: 4 ms at 250 Hz). getrusage's
// user/system split is a sample of the scheduler's ticks (1–10 ms apart) scaled to the CPU time, so
// one tick landing in the kernel, or not, moves a thread's system time by a share of its CPU time
// that no fault or system call need explain: timed_reps' delay loop, 466 µs more in the kernel at
// 2 threads beside 4 more faults (the new worker's stack), was told to allocate outside the loop.
inline constexpr double kKernelSplitResolutionS = 1e-3;

// The OpenMP runtime's work outside waits is the lock calls' own (lock_call_work_s) where the
// region takes at least kLockCallsMin lock operations and that work is at most kLockCallMaxS per
// operation: the runtime's code around an acquisition, outside the interval its callbacks bound
// (libomp looks the lock up in its table of indirect locks, and again for the callback's `impl`
// argument; lock_per_item: 97 ns per operation at 1 thread, 122 ns at 2, a cache miss or two),
// never a thread spinning on a flag, whose calls cost microseconds to milliseconds each.
// And where the lock operations are at least kLockCallsPerOtherCall times the team's other runtime
// calls (TeamWork::other_runtime_calls): lock_counts' 3 000 short instances of 10 acquisitions
// each put the runtime's fork and join in that work, 133 ns per lock operation.
inline constexpr double kLockCallsMin = 10000;
inline constexpr double kLockCallMaxS = 1e-6;
inline constexpr double kLockCallsPerOtherCall = 100;
double lock_call_work_s(const TeamWork& w);

// serial_blocked is named where the serial time off the CPU is at least this share of the serial
// time (below it: the loader, a page fault's wait, the tool's own writes).
inline constexpr double kSerialBlockedMin = 0.05;
// serial_code's hint says how much of it ran before the program's first OpenMP call (where no
// sample sees it) where that is at least this share of it and this long: a process's start before
// its main (exec, the loader, the tool's and the runtime's libraries) took 3-6 ms here, 85% of a
// short loop program's serial code, and is no set-up of the program's own.
inline constexpr double kSerialBeforeRuntimeShown = 0.25;
inline constexpr double kSerialBeforeRuntimeMinS = 0.02;

// The causes of one region at one thread count, from the figures of its typical repeat (and
// whether the threads' CPU-time imbalance is consistent, from all of them).
// `lost_s` is the region's time lost at that count; empty when no smaller count was measured
// to compare with (then only the region's whole time bounds the causes). `base`: the team's
// work at the smallest count measured, when that is smaller than `threads` (work inflation).
// `dispatch_per_chunk_s`: a dynamic loop's dispatch cost per chunk from the bench cache; 0: the
// typical figure (kDispatchS).
std::vector<Problem> diagnose_region(const std::vector<const RegionRun*>& repeats, int threads,
                                     double region_time_s, std::optional<double> lost_s,
                                     const TeamWork* base = nullptr, double dispatch_per_chunk_s = 0);

// Serial code at one thread count (the program's time outside parallel regions), beside the
// smallest count `base_threads`.
struct SerialFigures {
  int threads = 0, base_threads = 0;
  double serial_s = 0;        // at `threads`
  double blocked_s = 0;       // of it off the CPU, where the kernel's accounting was read (else 0)
  double runqueue_s = 0;      // of it waiting for a CPU
  double before_runtime_s = 0;  // of it before the runtime started (Report::serial_before_runtime_s)
  SerialWaits waits;          // what the time off the CPU waited for
  double base_serial_s = 0, base_blocked_s = 0, base_program_s = 0;  // at `base_threads`
  bool known = true;          // both counts measured a team (else no gain is computed)
};
struct SerialCauses {
  std::vector<Problem> problems;  // serial_blocked, serial_code
  double explained_s = 0;         // what they explain of `lost_s`
};
// serial_blocked (time off the CPU: no thread count shortens it) and serial_code (Amdahl's part).
// `lost_s`: the serial code's time lost at that count; `spread_s`: its repeats' spread.
SerialCauses diagnose_serial(const SerialFigures& f, double lost_s, double spread_s);

// barrier_overhead's one hint, for a region's barriers inside it (`subject`: "the 12 barriers
// inside the region", `several`) or one construct's ("its barrier"), each pass costing `each_s`.
std::string barrier_overhead_hint(const std::string& subject, bool several, double each_s);

// What the causes leave of a loss: never negative (a loss can be explained more than fully when
// overheads present at every count, fork/join for one, are among the causes; the cap in
// diagnose_region bounds that), zero without a loss.
double unexplained(double lost_s, double explained_s);

// Each cause's part of the time lost (details.lost_share_s), so that the parts and the
// unexplained rest add up to the loss exactly: its gain, all causes' gains scaled down together
// where overheads present at any count bring them above the loss ("100% explained" while the top
// gain was twice the loss); none where nothing was lost (a negative loss: the region ran faster
// than perfect scaling). A cause whose gain is smaller than the spread of the repeats' times
// (`spread_s`, slowest − fastest) carries within_spread = 1: that finding is within the noise.
// The causes are problems[from...].
void share_the_loss(std::vector<Problem>& problems, size_t from, double lost_s, double explained_s, double spread_s);

}  // namespace ompscope::analysis
