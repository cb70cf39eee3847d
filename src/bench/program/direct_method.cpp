#include "bench/program/direct_method.h"

#include <immintrin.h>

#include <memory>

namespace ompscope::bench {

ThreadClockOffsets calibrate_thread_offsets(const TickClock& clock, const DirectSettings& settings) {
  const int team = omp_get_max_threads();
  const auto workers = static_cast<std::size_t>(team);
  ThreadClockOffsets result{std::vector<int64_t>(workers, 0), std::vector<int64_t>(workers, 0)};
  std::vector<OffsetBounds> bounds(workers);
  // lfence on both sides: rdtsc may otherwise run ahead of the load that saw the ping, and a
  // single early read narrows every later bound on the offset wrongly.
  auto now = [&clock] {
    _mm_lfence();
    const uint64_t t = clock.now();
    _mm_lfence();
    return t;
  };
  const uint64_t began = clock.now();
  const uint64_t target = clock.ticks(settings.offset_target_s);
  // Batches narrow the same bounds: every round trip so far holds, so a machine too loaded for
  // any quick round trip in one batch still converges across them.
  for (bool settled = team == 1; !settled;) {
    std::vector<std::unique_ptr<PingPongChannel>> channels;
    for (int k = 0; k < team; ++k) channels.push_back(std::make_unique<PingPongChannel>());
    std::vector<std::vector<PingSample>> batch(workers);
    // The master serves the workers one after another; each worker waits on its own channel.
#pragma omp parallel num_threads(team)
    {
      const int me = omp_get_thread_num();
      if (me == 0) {
        for (int k = 1; k < team; ++k)
          batch[static_cast<std::size_t>(k)] = channels[static_cast<std::size_t>(k)]->run_master(now, settings.ping_rounds);
      } else {
        channels[static_cast<std::size_t>(me)]->run_worker(now, settings.ping_rounds);
      }
    }
    ++result.batches;
    settled = true;
    result.consistent = true;
    for (std::size_t k = 1; k < workers; ++k) {
      for (const PingSample& s : batch[k]) bounds[k].add(s);
      const OffsetEstimate e = bounds[k].estimate();
      result.offset[k] = e.offset;
      result.uncertainty[k] = e.uncertainty;
      result.consistent = result.consistent && e.consistent;
      settled = settled && static_cast<uint64_t>(e.uncertainty) <= target;
    }
    // Clocks that disagree with themselves do not settle by waiting, nor do threads that share a
    // CPU (oversubscribed: one of them answers only when the other is descheduled).
    settled = settled || !result.consistent || settings.oversubscribed ||
              clock.seconds(static_cast<double>(clock.now() - began)) > settings.offset_budget_s;
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
