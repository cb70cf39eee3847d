#include "bench/program/direct_method.h"

#include <memory>

namespace ompscope::bench {

ThreadClockOffsets calibrate_thread_offsets(const TickClock& clock, int rounds) {
  const int team = omp_get_max_threads();
  ThreadClockOffsets result{std::vector<int64_t>(static_cast<std::size_t>(team), 0),
                            std::vector<int64_t>(static_cast<std::size_t>(team), 0)};
  std::vector<std::unique_ptr<PingPongChannel>> channels;
  for (int k = 0; k < team; ++k) channels.push_back(std::make_unique<PingPongChannel>());
  std::vector<std::vector<PingSample>> samples(static_cast<std::size_t>(team));
  auto now = [&clock] { return clock.now(); };
  // The master serves the workers one after another; each worker waits on its own channel.
#pragma omp parallel num_threads(team)
  {
    const int me = omp_get_thread_num();
    if (me == 0) {
      for (int k = 1; k < team; ++k)
        samples[static_cast<std::size_t>(k)] = channels[static_cast<std::size_t>(k)]->run_master(now, rounds);
    } else {
      channels[static_cast<std::size_t>(me)]->run_worker(now, rounds);
    }
  }
  for (int k = 1; k < team; ++k) {
    const OffsetEstimate e = estimate_offset(samples[static_cast<std::size_t>(k)]);
    result.offset[static_cast<std::size_t>(k)] = e.offset;
    result.uncertainty[static_cast<std::size_t>(k)] = e.uncertainty;
  }
  return result;
}

bool direct_sampling_done(const TickClock& clock, const DirectSettings& settings, uint64_t began,
                          std::size_t kept, DirectMeasurement& m) {
  if (kept >= static_cast<std::size_t>(settings.samples)) return true;
  const double elapsed = clock.seconds(static_cast<double>(clock.now() - began));
  if ((elapsed > settings.time_budget_s && kept >= DirectSettings::kMinSamples) ||
      elapsed > 5 * settings.time_budget_s) {
    m.stopped_by_time_budget = true;
    return true;
  }
  return false;
}

void record_sample(const TickClock& clock, const ThreadClockOffsets& offsets,
                   const std::vector<uint64_t>& entries_local, const std::vector<uint64_t>& exits_local,
                   const std::vector<int>& entry_threads, const std::vector<int>& exit_threads,
                   DirectMeasurement& m) {
  std::vector<uint64_t> entries(entries_local.size()), exits(exits_local.size());
  for (std::size_t i = 0; i < entries.size(); ++i)
    entries[i] = local_to_master(entries_local[i], offsets.offset[static_cast<std::size_t>(entry_threads[i])]);
  for (std::size_t i = 0; i < exits.size(); ++i)
    exits[i] = local_to_master(exits_local[i], offsets.offset[static_cast<std::size_t>(exit_threads[i])]);
  const ConstructCost cost = construct_cost(entries, exits);
  m.min_cost_s.push_back(clock.seconds(cost.minimum));
  m.avg_cost_s.push_back(clock.seconds(cost.average));
}

}  // namespace ompscope::bench
