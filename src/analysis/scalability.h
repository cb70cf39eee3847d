// Runs at several thread counts (and repeats) → the ranked report: per region T(t), E(t),
// time lost, and causes with predicted gains (docs/design.md, "Metrics" and "Causes and their gains").
#pragma once
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/report.h"
#include "analysis/run_analysis.h"
#include "analysis/sampled_findings.h"

namespace ompscope::analysis {

struct MeasuredRun {
  RunRecord record;
  std::optional<RunAnalysis> analysis;  // empty when nothing was observed
};

// `weak` (scale --weak): the program is meant to scale weakly, its work growing with the team: the
// efficiency is T(t0)/T(t), the time lost T(t) − T(t0), and no work is replicated_work.
// `bench`: what `ompscope bench` measured on this machine for the runtime the runs loaded (its
// cache, docs/tasks.md): the report shows it beside the per-task figures, and a loop's schedule
// hint takes its dispatch cost per chunk.
Report build_report(const std::vector<std::string>& command, int cores,
                    const std::vector<MeasuredRun>& runs, const std::optional<BenchCosts>& bench = std::nullopt,
                    bool weak = false);

// Thread counts measured, not assumed (docs/design.md, "Thread counts"): the counts whose runs
// ran no parallel region, so that the team is unknown there (no speedup or efficiency is taken
// from them), and the notes that say where the team that ran differs from the count asked for.
std::set<int> unmeasured_counts(const std::vector<MeasuredRun>& runs);
std::vector<Note> thread_count_notes(const std::vector<MeasuredRun>& runs);

// The repeat whose figures a region's report shows at one thread count: the one closest to the
// median time (the first of equally close ones). Its time, its per-thread split and its causes
// are one run's, so they add up (medians of each figure, taken from different repeats, left a
// third of alloc_touch_free's loss unexplained).
const RegionRun& typical_repeat(const std::vector<const RegionRun*>& repeats);

// The team's work in a region (thread time outside waits in barriers, locks, fork/join, and
// outside the locks it holds), in the typical repeat, with the kernel's accounting of it scaled
// from what it was read over to all of it: the stretches of work, and the barrier visits in which
// the team ran tasks (ThreadSplit::task_usage: a task region's bodies run there), standing for
// their task time (usage.wall_s == work_s when any was read and no task ran in a barrier).
struct TeamWork {
  int threads = 0;  // the count it was measured at
  double work_s = 0;
  WorkUsage usage;
  bool usage_read = false;
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
  // The team's CPU time per sampled line (mean over the repeats; analysis/sampled_code.h), where
  // the runs were sampled: repeated work repeats every line of it.
  LineTimes sampled_lines;
};
TeamWork team_work(const std::vector<const RegionRun*>& repeats);

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

// serial_blocked is named where the serial time off the CPU is at least this share of the serial
// time (below it: the loader, a page fault's wait, the tool's own writes).
inline constexpr double kSerialBlockedMin = 0.05;

// What the hardware counters name of the growth of a region's work on the CPU from the smallest
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

double median(std::vector<double> values);

}  // namespace ompscope::analysis
