// One run's log reduced to per-callsite figures: what the scalability analysis compares
// across thread counts and repeats.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/barrier_phases.h"
#include "analysis/constructs.h"
#include "analysis/lock_costs.h"
#include "analysis/region_profile.h"
#include "analysis/report.h"
#include "analysis/sampled_code.h"
#include "analysis/symbolizer.h"
#include "analysis/task_figures.h"

namespace ompscope::analysis {

// A region's identity across runs: its source line where debug info gives one (a compiler
// may duplicate a pragma's call when it unrolls), else module + offset, which survives
// address-space randomisation.
struct CallsiteKey {
  std::string text;
  auto operator<=>(const CallsiteKey&) const = default;
  static CallsiteKey of(const SourceLocation& where, uint64_t codeptr);
};

struct RegionRun {
  CallsiteKey key;
  SourceLocation where;
  RegionProfile profile;
  BarrierPhases phases;            // summed over instances
  LockCosts locks;                 // acquisitions made inside its instances
  std::vector<report::ConstructKind> lock_kinds;  // critical, lock, ... seen
  TaskFigures tasks;               // explicit tasks created in its instances
  ConstructTree constructs;        // the constructs inside it (analysis/constructs.h)
  RunSamples samples;              // CPU-time samples in its instances (analysis/sampled_code.h)
  uint32_t team_size = 0;
  KernelCalibration kernel;        // the machine's kernel (Timeline::kernel)
  // Adaptive sampling: profile.per_thread, phases and locks were measured on the recorded
  // instances and scaled by profile.time_s / profile.recorded_time_s to all of them.
  bool sampled() const { return profile.recorded_instances > 0 && profile.recorded_instances < profile.instances; }
};

// The lock calibrations of one run side by side (docs/locks.md, "The floor"): the tool's own
// time per recorded duration (lock_record_gap), one uncontended atomic (atomic_floor), and the
// recorded acquisitions' waits with the first taken out; `floored` of them measured less than
// the atomic (their cost is counted at it).
struct LockCalibration {
  double record_gap_s = 0;
  double atomic_floor_s = 0;
  uint64_t recorded = 0;
  uint64_t floored = 0;
  double median_raw_s = 0;  // acquired − requested, as recorded
  double median_net_s = 0;  // less the gap, before the floor
};

struct RunAnalysis {
  double wall_s = 0;
  double serial_s = 0;
  double mpi_s = 0;      // the initial thread's MPI calls outside parallel regions (docs/mpi.md)
  // Of serial_s, off the CPU without waiting for it (sleep, I/O, a child), and waiting for it
  // (ProgramProfile); serial_usage_read: the capture recorded the readings they come from.
  double serial_blocked_s = 0;
  double serial_runqueue_s = 0;
  bool serial_usage_read = false;
  SerialWaits serial_waits;  // of serial_blocked_s, what it waited for (ProgramProfile)
  // Of serial_s, the time before the runtime started (Timeline::before_runtime_s): no sample
  // places it in the code.
  double serial_before_runtime_s = 0;
  bool mpi = false;      // MPI calls were observed
  std::vector<ThreadSplit> threads;
  std::map<CallsiteKey, RegionRun> regions;
  uint64_t events = 0;
  std::string runtime;
  // Hardware counters (docs/lost-time.md): opened, or why not (RunMeta's, from meta.txt).
  bool counters_opened = false;
  std::string counters_missing;
  std::string runtime_library;  // the OpenMP runtime library the run loaded (its path in the module map)
  LockCalibration lock_calibration;
  // CPU-time samples outside every region on the initial thread; whether the run was sampled, or
  // why not (RunMeta's sampling_missing).
  RunSamples serial_samples;
  bool sampled = false;
  std::string sampling_missing;
};

// `replay`: how its task graphs are replayed (task_figures.h).
RunAnalysis analyze_run(const Timeline& timeline, const RunMeta& meta, Symbolizer& symbols, const ReplayOptions& replay = {});

// The OpenMP runtime library the run loaded (its path in the module map), empty if none.
std::string runtime_library_of(const RunMeta& meta);


// One run as a command measured it: how it ran (its record) and what its log showed.
struct MeasuredRun {
  RunRecord record;
  std::optional<RunAnalysis> analysis;  // empty when nothing was observed
};

}  // namespace ompscope::analysis
