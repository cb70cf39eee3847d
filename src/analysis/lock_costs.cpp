#include "analysis/lock_costs.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "common/sort_runs.h"

namespace ompscope::analysis {

double LockCosts::max_thread_algorithm_s() const {
  double m = 0;
  for (const auto& [thread, s] : per_thread) m = std::max(m, s.algorithm_s);
  return m;
}

double LockCosts::max_thread_contention_s() const {
  double m = 0;
  for (const auto& [thread, s] : per_thread) m = std::max(m, s.contention_s);
  return m;
}

LockCosts lock_costs(const std::vector<const LockAcquisition*>& acquisitions, const LockRecordCorrection& correction) {
  std::unordered_map<uint64_t, size_t> index;
  LockCosts result;
  std::vector<LockCost>& out = result.locks;
  for (const LockAcquisition* ap : acquisitions) {
    const LockAcquisition& a = *ap;
    result.atomic_floor_s = correction.floor;  // where the locks had a record
    auto [it, inserted] = index.try_emplace(a.wait_id, out.size());
    if (inserted) {
      LockCost c;
      c.wait_id = a.wait_id;
      c.mutex_kind = a.mutex_kind;
      c.codeptr = a.codeptr;
      c.fastest_s = std::numeric_limits<double>::infinity();
      out.push_back(c);
    }
    LockCost& c = out[it->second];
    // A sampled record stands for `scale` operations like it, its durations capped (lock sampling).
    const double d = a.wait(correction);
    c.operations += a.scale;
    ++c.recorded;
    c.acquire_s += d * a.scale;
    c.fastest_s = std::min(c.fastest_s, d);
    c.hold_s += a.hold(correction) * a.scale;
  }
  // Second pass: which acquisitions queued, known once every acquisition of a lock is seen.
  // A lock whose every operation was recorded: an acquisition queued if another thread held the
  // lock while it waited, i.e. the acquisition just before it released the lock after it was
  // requested (holds of one lock follow one another). Its excess over the lock's fastest is
  // contention; every other acquisition's time is the algorithm's own (cache misses included:
  // two threads taking one of 100 000 cold locks in turn almost never queue).
  // A sampled lock (lock sampling): with 8 records or more, as before sampling knew which
  // queued: every acquisition's excess over the fastest is contention where another thread took
  // the lock too; with fewer (a cold lock among many) all of it is algorithm cost: too few
  // records to tell noise from queueing, and such a lock is rarely wanted at once.
  constexpr uint64_t kFewestSampled = 8;
  std::unordered_map<uint64_t, std::vector<const LockAcquisition*>> of_lock;
  for (const LockAcquisition* a : acquisitions) {
    std::vector<const LockAcquisition*>& list = of_lock[a->wait_id];
    if (list.empty()) list.reserve(out[index[a->wait_id]].recorded);  // its records, counted above: no doubling
    list.push_back(a);
  }
  for (auto& [wait_id, list] : of_lock) {
    LockCost& c = out[index[wait_id]];
    const bool exact = std::all_of(list.begin(), list.end(), [](const LockAcquisition* a) { return a->scale == 1; });
    const uint32_t first_thread = list.front()->thread;
    const bool shared = std::any_of(list.begin(), list.end(), [first_thread](const LockAcquisition* a) { return a->thread != first_thread; });
    // In order of request already (the timeline's), so nearly of acquisition: runs merged, not
    // sorted again (2% of a loop log's report). Two acquisitions at one tick keep the order of
    // their requests.
    stable_sort_runs(list.begin(), list.end(), [](const LockAcquisition* a, const LockAcquisition* b) { return a->acquired < b->acquired; });
    for (size_t i = 0; i < list.size(); ++i) {
      const LockAcquisition& a = *list[i];
      bool queued;
      if (exact) {
        queued = i > 0 && list[i - 1]->thread != a.thread && list[i - 1]->released > a.request;
      } else {
        queued = shared && c.recorded >= kFewestSampled;
      }
      const double d = a.wait(correction);
      const double algorithm = queued ? std::min(d, c.fastest_s) : d;
      ThreadLockSplit& split = result.per_thread[a.thread];
      split.algorithm_s += algorithm * a.scale;
      split.contention_s += (d - algorithm) * a.scale;
      c.algorithm_s += algorithm * a.scale;
      c.contention_s += (d - algorithm) * a.scale;
      if (d > algorithm) c.queued += a.scale;
    }
    c.acquisitions = static_cast<uint64_t>(c.operations + 0.5);
  }
  return result;
}

void scale_lock_costs(LockCosts& costs, double f) {
  for (LockCost& c : costs.locks) {
    c.operations *= f;
    c.acquisitions = static_cast<uint64_t>(c.operations + 0.5);
    c.acquire_s *= f;
    c.algorithm_s *= f;
    c.contention_s *= f;
    c.queued *= f;
    c.hold_s *= f;
  }
  for (auto& [thread, split] : costs.per_thread) {
    split.algorithm_s *= f;
    split.contention_s *= f;
  }
}

}  // namespace ompscope::analysis
