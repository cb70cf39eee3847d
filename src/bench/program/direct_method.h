// The direct method: every thread timestamps its own entry into and exit from one construct
// instance; the timestamps are brought to the master's clock with calibrated offsets, and the
// instance's cost is read off them (window_sync.h). For constructs inside a parallel region,
// all threads first wait for an agreed future instant so they enter together.
#pragma once
#include <omp.h>

#include <cstdint>
#include <vector>

#include "bench/core/clock_offset.h"
#include "bench/core/window_sync.h"
#include "bench/program/tick_clock.h"

namespace ompscope::bench {

struct DirectSettings {
  int samples = 1000;
  // The window may grow to a few scheduler time slices: on a loaded machine a thread released
  // by the barrier before the start may wait that long for a CPU.
  double initial_window_s = 20e-6;
  double max_window_s = 20e-3;
  // Clock offsets: ping-pong batches of this many rounds until every worker's offset is known
  // to offset_target_s, or offset_budget_s has passed (the offsets then say how uncertain they are).
  int ping_rounds = 200;
  double offset_target_s = 0.5e-6;
  double offset_budget_s = 1.0;
  // Sampling stops after this long once kMinSamples are kept (after 5x this long regardless):
  // on a loaded machine the run must still end in bounded time.
  double time_budget_s = 2.0;
  static constexpr int kMinSamples = 10;
  // More threads than CPUs: nobody can enter "together"; waits yield instead of spinning and
  // late entries are kept, since they are what oversubscription costs. The same happens after
  // kFailuresBeforeUnsynchronised failed samples in a row (unbound threads the OS put on one
  // CPU, a machine loaded past its cores).
  bool oversubscribed = false;
  static constexpr int kFailuresBeforeUnsynchronised = 64;
};

// Offsets of each team thread's clock against thread 0's, in ticks (entry 0 is 0). Measured in
// a parallel region of the default team, whose thread numbers keep their OS threads in the
// following regions (hot teams in libomp, the thread pool in libgomp; bound with OMP_PROC_BIND).
struct ThreadClockOffsets {
  std::vector<int64_t> offset;
  std::vector<int64_t> uncertainty;
  bool consistent = true;  // see OffsetEstimate
  int batches = 0;         // ping-pong batches it took
};
ThreadClockOffsets calibrate_thread_offsets(const TickClock& clock, const DirectSettings& settings);

struct DirectMeasurement {
  std::vector<double> min_cost_s;
  std::vector<double> avg_cost_s;
  int missed_windows = 0;        // samples dropped because a thread arrived after the start
  int late_entries_dropped = 0;  // samples dropped because a thread entered long after it
  bool unsynchronised = false;   // late entries kept (see DirectSettings::oversubscribed)
  double window_s = 0;           // the window length at the end
  bool stopped_by_time_budget = false;
};

// Whether to stop sampling: enough samples, or out of time (see DirectSettings).
bool direct_sampling_done(const TickClock& clock, const DirectSettings& settings, uint64_t began,
                          std::size_t kept, DirectMeasurement& m);

// Per-thread timestamps of one sample; padded so threads do not share cache lines.
struct alignas(64) ThreadStamps {
  uint64_t entry = 0;
  uint64_t exit = 0;
  bool arrived_late = false;
};

// Collects the costs of kept samples in master time, into `m`.
void record_sample(const TickClock& clock, const ThreadClockOffsets& offsets,
                   const std::vector<uint64_t>& entries_local, const std::vector<uint64_t>& exits_local,
                   const std::vector<int>& entry_threads, const std::vector<int>& exit_threads,
                   DirectMeasurement& m);

// A construct that every thread of a parallel region executes: `body(thread_num)` runs between
// each thread's two timestamps.
template <class Body>
DirectMeasurement measure_in_region(const TickClock& clock, const ThreadClockOffsets& offsets,
                                    const DirectSettings& settings, Body&& body) {
  const int team = static_cast<int>(offsets.offset.size());
  const uint64_t late_entry_ticks = clock.ticks(5e-6);
  const uint64_t began = clock.now();
  std::vector<ThreadStamps> stamps(static_cast<std::size_t>(team));
  StartWindow window(clock.ticks(settings.initial_window_s), clock.ticks(settings.max_window_s));
  DirectMeasurement m;
  std::vector<int> all_threads(static_cast<std::size_t>(team));
  for (int k = 0; k < team; ++k) all_threads[static_cast<std::size_t>(k)] = k;
  std::vector<uint64_t> entries(static_cast<std::size_t>(team)), exits(static_cast<std::size_t>(team));
  uint64_t start_master = 0;
  bool done = false;
  bool unsynchronised = settings.oversubscribed;
  int failures_in_a_row = 0;

#pragma omp parallel num_threads(team)
  {
    const int me = omp_get_thread_num();
    ThreadStamps& mine = stamps[static_cast<std::size_t>(me)];
    while (true) {
      if (me == 0) {
        done = direct_sampling_done(clock, settings, began, m.min_cost_s.size(), m);
        start_master = window.start_after(clock.now());
      }
#pragma omp barrier
      if (done) break;
      const uint64_t my_start = master_to_local(start_master, offsets.offset[static_cast<std::size_t>(me)]);
      mine.arrived_late = clock.now() > my_start;
      if (unsynchronised)
        spin_until([&] { return clock.now() >= my_start; });
      else
        while (clock.now() < my_start) {
        }
      mine.entry = clock.now();
      body(me);
      mine.exit = clock.now();
#pragma omp barrier
      if (me == 0) {
        bool anyone_late = false;
        bool entered_late = false;
        for (int k = 0; k < team; ++k) {
          const ThreadStamps& s = stamps[static_cast<std::size_t>(k)];
          anyone_late = anyone_late || s.arrived_late;
          const uint64_t start_k = master_to_local(start_master, offsets.offset[static_cast<std::size_t>(k)]);
          entered_late = entered_late || s.entry - start_k > late_entry_ticks;
          entries[static_cast<std::size_t>(k)] = s.entry;
          exits[static_cast<std::size_t>(k)] = s.exit;
        }
        const bool counts = window.record(!anyone_late) && (unsynchronised || !entered_late);
        if (counts) {
          record_sample(clock, offsets, entries, exits, all_threads, all_threads, m);
          failures_in_a_row = 0;
        } else {
          if (!anyone_late) ++m.late_entries_dropped;
          if (++failures_in_a_row >= DirectSettings::kFailuresBeforeUnsynchronised) unsynchronised = true;
        }
      }
    }
  }
  m.unsynchronised = unsynchronised;
  m.missed_windows = window.missed();
  m.window_s = clock.seconds(static_cast<double>(window.length()));
  return m;
}

// A construct that starts a team (parallel, firstprivate): run_region(fork_stamp, entry_stamps)
// takes the master's timestamp into fork_stamp just before the fork and each thread's first
// timestamp inside the region into entry_stamps[thread_num].
template <class RunRegion>
DirectMeasurement measure_fork(const TickClock& clock, const ThreadClockOffsets& offsets,
                               const DirectSettings& settings, RunRegion&& run_region) {
  const std::size_t team = offsets.offset.size();
  std::vector<ThreadStamps> stamps(team);
  std::vector<uint64_t> fork(1), entries(team);
  std::vector<int> master{0}, all_threads(team);
  for (std::size_t k = 0; k < team; ++k) all_threads[k] = static_cast<int>(k);
  DirectMeasurement m;
  const uint64_t began = clock.now();
  while (!direct_sampling_done(clock, settings, began, m.min_cost_s.size(), m)) {
    run_region(fork[0], stamps);
    for (std::size_t k = 0; k < team; ++k) entries[k] = stamps[k].entry;
    record_sample(clock, offsets, fork, entries, master, all_threads, m);
  }
  return m;
}

// A construct that ends a team (reduction): run_region(exit_stamps, join_stamp) takes each
// thread's last timestamp inside the region into exit_stamps[thread_num].exit and the master's
// first timestamp after the join into join_stamp.
template <class RunRegion>
DirectMeasurement measure_join(const TickClock& clock, const ThreadClockOffsets& offsets,
                               const DirectSettings& settings, RunRegion&& run_region) {
  const std::size_t team = offsets.offset.size();
  std::vector<ThreadStamps> stamps(team);
  std::vector<uint64_t> join(1), leaving(team);
  std::vector<int> master{0}, all_threads(team);
  for (std::size_t k = 0; k < team; ++k) all_threads[k] = static_cast<int>(k);
  DirectMeasurement m;
  const uint64_t began = clock.now();
  while (!direct_sampling_done(clock, settings, began, m.min_cost_s.size(), m)) {
    run_region(stamps, join[0]);
    for (std::size_t k = 0; k < team; ++k) leaving[k] = stamps[k].exit;
    record_sample(clock, offsets, leaving, join, all_threads, master, m);
  }
  return m;
}

}  // namespace ompscope::bench
