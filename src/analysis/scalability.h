// Runs at several thread counts (and repeats) → the ranked report: per region T(t), E(t),
// time lost, and causes with predicted gains (docs/design.md, "Metrics" and "Causes and their gains").
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "analysis/report.h"
#include "analysis/run_analysis.h"

namespace ompscope::analysis {

struct MeasuredRun {
  RunRecord record;
  std::optional<RunAnalysis> analysis;  // empty when nothing was observed
};

// `bench`: what `ompscope bench` measured on this machine for the runtime the runs loaded (its
// cache, docs/tasks.md): the report shows it beside the per-task figures, and a loop's schedule
// hint takes its dispatch cost per chunk.
Report build_report(const std::vector<std::string>& command, int cores,
                    const std::vector<MeasuredRun>& runs, const std::optional<BenchCosts>& bench = std::nullopt);

// The repeat whose figures a region's report shows at one thread count: the one closest to the
// median time (the first of equally close ones). Its time, its per-thread split and its causes
// are one run's, so they add up (medians of each figure, taken from different repeats, left a
// third of alloc_touch_free's loss unexplained).
const RegionRun& typical_repeat(const std::vector<const RegionRun*>& repeats);

// The team's work in a region (thread time outside waits in barriers, locks, fork/join, and
// outside the locks it holds), in the typical repeat, with the kernel's accounting of it scaled
// from the stretches of work it was read over to all of it (usage.wall_s == work_s when any was
// read).
struct TeamWork {
  int threads = 0;  // the count it was measured at
  double work_s = 0;
  WorkUsage usage;
  bool usage_read = false;
  std::vector<const TaskFigures*> tasks;  // the repeats' task figures, where they ran tasks (task inflation)
};
TeamWork team_work(const std::vector<const RegionRun*>& repeats);

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
