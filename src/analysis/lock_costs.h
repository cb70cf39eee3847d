// Lock and critical-section costs of docs/design.md ("Metrics"). For each lock (wait id):
//   acquisition duration = acquired − acquire request
//   contention           = for each acquisition that queued (another thread held the lock
//                          while it waited), its excess over the lock's fastest acquisition
//   algorithm cost       = the rest of the acquisition time (all of it for a lock only one
//                          thread takes: it cannot be contended)
// A sampled lock (lock sampling) is judged from its records: see lock_costs.cpp.
// plus the hold time (acquired → released) that bounds how far the lock serialises its region.
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include "analysis/timeline.h"

namespace ompscope::analysis {

struct LockCost {
  uint64_t wait_id = 0;
  uint8_t mutex_kind = 0;       // ompt_mutex_t
  uint64_t codeptr = 0;         // first acquiring callsite seen
  uint64_t acquisitions = 0;   // operations, rounded
  double operations = 0;        // operations the records stand for (lock sampling)
  uint64_t recorded = 0;        // acquisitions recorded in the log
  double fastest_s = 0;
  double acquire_s = 0;         // total acquisition time (thread-seconds)
  double algorithm_s = 0;
  double contention_s = 0;
  double queued = 0;            // acquisitions that queued (operations: a sampled record its scale)
  double hold_s = 0;            // total time held
};

struct ThreadLockSplit {
  double algorithm_s = 0;
  double contention_s = 0;
};

struct LockCosts {
  std::vector<LockCost> locks;  // in order of first acquisition
  // One uncontended atomic on the machine (the acquisitions' LockAcquisition::floor; 0: not
  // measured): no acquisition costs less (docs/locks.md, "The floor").
  double atomic_floor_s = 0;
  std::map<uint32_t, ThreadLockSplit> per_thread;  // summed over locks, by log thread index
  // Lock operations over all its locks (acquisitions and critical sections).
  double operations() const {
    double n = 0;
    for (const LockCost& l : locks) n += l.operations;
    return n;
  }
  // The most any one thread lost: removing the cause can save at most this much wall time.
  double max_thread_algorithm_s() const;
  double max_thread_contention_s() const;
};

// One entry per lock, in order of first acquisition; the caller picks the acquisitions (e.g. those
// of one region's instances).
LockCosts lock_costs(const std::vector<const LockAcquisition*>& acquisitions, const LockRecordCorrection& correction);

// The costs of all instances from those of the recorded ones, `f` = all ÷ recorded time
// (adaptive sampling): operations and times scale, each lock's acquisitions are rounded.
void scale_lock_costs(LockCosts& costs, double f);

}  // namespace ompscope::analysis
