// Lock and critical-section costs of docs/design.md ("Metrics"). For each lock (wait id):
//   acquisition duration = acquired − acquire request
//   algorithm cost       = count × fastest acquisition seen for that lock (all of the
//                          acquisition time for a lock only one thread takes: it cannot be contended)
//   contention           = the rest of the acquisition time
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
  uint64_t acquisitions = 0;
  double fastest_s = 0;
  double acquire_s = 0;         // total acquisition time (thread-seconds)
  double algorithm_s = 0;
  double contention_s = 0;
  double hold_s = 0;            // total time held
};

struct ThreadLockSplit {
  double algorithm_s = 0;
  double contention_s = 0;
};

struct LockCosts {
  std::vector<LockCost> locks;  // in order of first acquisition
  std::map<uint32_t, ThreadLockSplit> per_thread;  // summed over locks, by log thread index
  // The most any one thread lost: removing the cause can save at most this much wall time.
  double max_thread_algorithm_s() const;
  double max_thread_contention_s() const;
};

// One entry per lock, in order of first acquisition; the caller picks the acquisitions (e.g. those
// of one region's instances).
LockCosts lock_costs(const std::vector<const LockAcquisition*>& acquisitions);

}  // namespace ompscope::analysis
