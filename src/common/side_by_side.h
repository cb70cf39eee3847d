// Independent pieces of work on up to N threads: each thread, this one among them, takes the next
// piece in turn until none is left. What a piece writes is its own (its index's slot); a failure
// is rethrown once every thread has ended, the first by index. For the analysis of several runs
// at once (cli/measurement.cpp), a run's task figures and a graph's replays (src/analysis).
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <vector>

namespace ompscope {

namespace detail {
// Runs run(arg) on this thread and on up to `helpers` other threads at once, and returns once every
// one of them has returned. The other threads are kept from one call to the next (side_by_side.cpp):
// a task-heavy log's figures are computed in batches of 256 instances, and a thread started and
// joined per batch (575 for 10 M synthetic events) began each with an empty heap and empty replay
// buffers. A thread that finds `run` ended already on the others (all pieces taken) does nothing.
void run_beside_helpers(size_t helpers, void (*run)(void*), void* arg);
}  // namespace detail

// Calls piece(i) for each i in [0, n) on min(n, workers) threads (at least this one), taken in
// the order `order` gives where it is not empty (a permutation of [0, n): the longest first, so
// that no long piece is left alone at the end); the failure rethrown is still the first by index.
template <class Piece>
void side_by_side(size_t n, size_t workers, Piece&& piece, const std::vector<size_t>& order = {}) {
  std::vector<std::exception_ptr> failed(n);
  std::atomic<size_t> next{0};
  const auto work = [&] {
    for (size_t k = next++; k < n; k = next++) {
      const size_t i = order.empty() ? k : order[k];
      try {
        piece(i);
      } catch (...) {
        failed[i] = std::current_exception();
      }
    }
  };
  const size_t helpers = std::min(n, workers) > 1 ? std::min(n, workers) - 1 : 0;
  if (helpers == 0) {
    work();
  } else {
    detail::run_beside_helpers(helpers, [](void* w) { (*static_cast<decltype(work)*>(w))(); },
                               const_cast<void*>(static_cast<const void*>(&work)));
  }
  for (const std::exception_ptr& e : failed)
    if (e) std::rethrow_exception(e);
}

}  // namespace ompscope
