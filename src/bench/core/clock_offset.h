// Offset of a worker thread's clock against the master thread's clock, measured by ping-pong
// through shared memory (Cristian's method). Clocks of different sockets may disagree; the
// direct method converts every thread's timestamps to master time with these offsets.
// OpenMP-free: the bench programs run it inside a parallel region, the tests on std::threads
// with a clock skewed on purpose.
#pragma once
#include <atomic>
#include <cstdint>
#include <limits>
#include <span>
#include <thread>
#include <vector>

namespace ompscope::bench {

// One round trip, all in clock ticks: the master's clock when it asked, the worker's clock when
// it answered, the master's clock when it saw the answer.
struct PingSample {
  uint64_t master_sent = 0;
  uint64_t worker_read = 0;
  uint64_t master_received = 0;
};

// worker clock - master clock. The true offset lies within +- uncertainty, however the delays
// split between the two directions. `consistent` is false when no single offset fits every
// round trip: the clocks drifted apart during the exchange, or the worker moved to a CPU whose
// clock disagrees; the estimate is then the middle of the disagreement.
struct OffsetEstimate {
  int64_t offset = 0;
  int64_t uncertainty = 0;
  bool consistent = true;
};

// Each round trip bounds the offset: the worker read its clock after the master sent and before
// the master saw the answer. The estimate is the middle of the intersection of all those bounds,
// so one quick round trip anywhere is enough, and more samples only tighten it (on a loaded
// machine most round trips wait for a time slice). The intersection is kept, not the samples:
// batches of round trips add to it until it is narrow enough.
class OffsetBounds {
 public:
  // Throws std::invalid_argument on a sample whose round trip runs backwards.
  void add(const PingSample& s);
  // Throws std::invalid_argument before any sample was added.
  OffsetEstimate estimate() const;

 private:
  int64_t lowest_ = std::numeric_limits<int64_t>::min();
  int64_t highest_ = std::numeric_limits<int64_t>::max();
  bool empty_ = true;
};

// OffsetBounds over `samples`; throws as it does.
OffsetEstimate estimate_offset(std::span<const PingSample> samples);

// Spins on `done`, yielding now and then so a descheduled partner (more threads than cores, a
// loaded machine) gets the CPU instead of waiting for a whole time slice.
template <class Done>
void spin_until(Done&& done) {
  for (unsigned spins = 0; !done(); ++spins) {
    if (spins >= 2000) {
      std::this_thread::yield();
      spins = 0;
    }
  }
}

// One master and one worker exchange `rounds` pings. Single use: one channel per worker.
// Clock: a callable returning uint64_t ticks on the calling thread's clock.
class PingPongChannel {
 public:
  template <class Clock>
  std::vector<PingSample> run_master(Clock&& now, int rounds) {
    std::vector<PingSample> samples(static_cast<std::size_t>(rounds));
    for (int r = 1; r <= rounds; ++r) {
      PingSample& s = samples[static_cast<std::size_t>(r - 1)];
      s.master_sent = now();
      request_.store(static_cast<uint32_t>(r), std::memory_order_release);
      spin_until([&] { return answered_.load(std::memory_order_acquire) == static_cast<uint32_t>(r); });
      s.master_received = now();
      s.worker_read = worker_read_.load(std::memory_order_relaxed);
    }
    return samples;
  }

  template <class Clock>
  void run_worker(Clock&& now, int rounds) {
    for (int r = 1; r <= rounds; ++r) {
      spin_until([&] { return request_.load(std::memory_order_acquire) == static_cast<uint32_t>(r); });
      worker_read_.store(now(), std::memory_order_relaxed);
      answered_.store(static_cast<uint32_t>(r), std::memory_order_release);
    }
  }

 private:
  // Separate cache lines: the request and the answer travel in opposite directions.
  alignas(64) std::atomic<uint32_t> request_{0};
  alignas(64) std::atomic<uint32_t> answered_{0};
  std::atomic<uint64_t> worker_read_{0};
};

}  // namespace ompscope::bench
