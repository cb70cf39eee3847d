#include "analysis/lock_costs.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

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

LockCosts lock_costs(const std::vector<const LockAcquisition*>& acquisitions) {
  std::unordered_map<uint64_t, size_t> index;
  LockCosts result;
  std::vector<LockCost>& out = result.locks;
  for (const LockAcquisition* ap : acquisitions) {
    const LockAcquisition& a = *ap;
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
    // A sampled record stands for `weight` operations like it (adaptive sampling).
    const double d = std::max(0.0, a.acquired - a.request);
    c.acquisitions += a.weight;
    c.acquire_s += d * a.weight;
    c.fastest_s = std::min(c.fastest_s, d);
    c.hold_s += std::max(0.0, a.released - a.acquired) * a.weight;
  }
  // Second pass: the split needs each lock's fastest acquisition, known only now.
  // A lock only one thread ever takes cannot be contended: its slower acquisitions are the
  // algorithm's own variation (cache misses, preemption), so all of it is algorithm cost.
  std::unordered_map<uint64_t, uint32_t> first_thread;
  std::unordered_map<uint64_t, bool> shared;
  for (const LockAcquisition* a : acquisitions) {
    auto [it, inserted] = first_thread.try_emplace(a->wait_id, a->thread);
    if (!inserted && it->second != a->thread) shared[a->wait_id] = true;
  }
  for (const LockAcquisition* a : acquisitions) {
    const LockCost& c = out[index[a->wait_id]];
    ThreadLockSplit& split = result.per_thread[a->thread];
    const double d = std::max(0.0, a->acquired - a->request);
    const double algorithm = shared[a->wait_id] ? c.fastest_s : d;
    split.algorithm_s += algorithm * a->weight;
    split.contention_s += (d - algorithm) * a->weight;
  }
  for (LockCost& c : out) {
    c.algorithm_s = shared[c.wait_id] ? static_cast<double>(c.acquisitions) * c.fastest_s : c.acquire_s;
    c.contention_s = std::max(0.0, c.acquire_s - c.algorithm_s);
  }
  return result;
}

}  // namespace ompscope::analysis
