// lock_costs: the lock definitions of docs/design.md on hand-built acquisitions.
//   acquisition duration = acquired − request
//   contention           = for each acquisition that queued (another thread held the lock while
//                          it waited), its excess over the lock's fastest acquisition
//   algorithm cost       = the rest
#include "analysis/lock_costs.h"

#include <omp-tools.h>

#include <gtest/gtest.h>

namespace ompscope::analysis {
namespace {

LockAcquisition acq(uint32_t thread, uint64_t wait_id, uint64_t codeptr, ompt_mutex_t kind, double request,
                    double acquired, double released) {
  LockAcquisition a;
  a.thread = thread;
  a.wait_id = wait_id;
  a.codeptr = codeptr;
  a.mutex_kind = static_cast<uint8_t>(kind);
  a.request = request;
  a.acquired = acquired;
  a.released = released;
  return a;
}

std::vector<const LockAcquisition*> pointers(const std::vector<LockAcquisition>& v) {
  std::vector<const LockAcquisition*> out;
  for (const LockAcquisition& a : v) out.push_back(&a);
  return out;
}

TEST(LockCosts, OnlyAnAcquisitionThatQueuedBehindAnotherThreadHasContention) {
  // Acquisitions of 10, 30 and 50 s, fastest 10. Thread 1 requests at 5 and waits while thread 0
  // holds the lock (50 → 52): it queued, 50 − 10 = 40 s of contention. Thread 0's 30 s wait at
  // 20 found nobody holding the lock (its own hold ended at 15): slow, but the algorithm's own.
  const std::vector<LockAcquisition> v = {acq(0, 0xA, 0x100, ompt_mutex_lock, 0, 10, 15),
                                          acq(0, 0xA, 0x100, ompt_mutex_lock, 20, 50, 52),
                                          acq(1, 0xA, 0x100, ompt_mutex_lock, 5, 55, 60)};
  const LockCosts c = lock_costs(pointers(v), {});
  ASSERT_EQ(c.locks.size(), 1u);
  const LockCost& a = c.locks[0];
  EXPECT_EQ(a.wait_id, 0xAu);
  EXPECT_EQ(a.mutex_kind, ompt_mutex_lock);
  EXPECT_EQ(a.codeptr, 0x100u);
  EXPECT_EQ(a.acquisitions, 3u);
  EXPECT_EQ(a.recorded, 3u);
  EXPECT_DOUBLE_EQ(a.fastest_s, 10);
  EXPECT_DOUBLE_EQ(a.acquire_s, 10 + 30 + 50);
  EXPECT_DOUBLE_EQ(a.algorithm_s, 10 + 30 + 10);
  EXPECT_DOUBLE_EQ(a.contention_s, 40);
  EXPECT_DOUBLE_EQ(a.queued, 1);  // thread 1's acquisition alone
  EXPECT_DOUBLE_EQ(a.hold_s, 5 + 2 + 5);

  ASSERT_EQ(c.per_thread.size(), 2u);
  EXPECT_DOUBLE_EQ(c.per_thread.at(0).algorithm_s, 10 + 30);
  EXPECT_DOUBLE_EQ(c.per_thread.at(0).contention_s, 0);
  EXPECT_DOUBLE_EQ(c.per_thread.at(1).algorithm_s, 10);
  EXPECT_DOUBLE_EQ(c.per_thread.at(1).contention_s, 40);
  EXPECT_DOUBLE_EQ(c.max_thread_algorithm_s(), 40);
  EXPECT_DOUBLE_EQ(c.max_thread_contention_s(), 40);
}

TEST(LockCosts, SampledRecordsStandForTheirScaleWithCappedDurations) {
  // Two records standing for 100 operations each: a sampled shared lock with fewer than 8
  // records is judged cold (all algorithm); the second wait (1000 s, preempted) is capped at 3.
  std::vector<LockAcquisition> v = {acq(0, 0xA, 0x100, ompt_mutex_lock, 0, 2, 3),
                                    acq(1, 0xA, 0x100, ompt_mutex_lock, 10, 1010, 1011)};
  for (LockAcquisition& a : v) {
    a.scale = 100;
    a.wait_cap = 3;
  }
  const LockCosts c = lock_costs(pointers(v), {});
  ASSERT_EQ(c.locks.size(), 1u);
  EXPECT_EQ(c.locks[0].acquisitions, 200u);
  EXPECT_EQ(c.locks[0].recorded, 2u);
  EXPECT_DOUBLE_EQ(c.locks[0].acquire_s, 100 * (2 + 3));
  EXPECT_DOUBLE_EQ(c.locks[0].algorithm_s, 100 * (2 + 3));
  EXPECT_DOUBLE_EQ(c.locks[0].contention_s, 0);
  EXPECT_DOUBLE_EQ(c.locks[0].hold_s, 100 * (1 + 1));
}

TEST(LockCosts, SeveralLocksAreKeptApartInOrderOfFirstAcquisition) {
  // Lock 0xB (a critical section) is acquired first; lock 0xA (a lock) next, then 0xB again.
  const std::vector<LockAcquisition> v = {acq(1, 0xB, 0x200, ompt_mutex_critical, 100, 102, 110),
                                          acq(0, 0xA, 0x100, ompt_mutex_lock, 0, 4, 8),
                                          acq(2, 0xB, 0x201, ompt_mutex_critical, 101, 110, 111),
                                          acq(1, 0xA, 0x101, ompt_mutex_lock, 10, 16, 17)};
  const LockCosts c = lock_costs(pointers(v), {});
  ASSERT_EQ(c.locks.size(), 2u);

  const LockCost& b = c.locks[0];
  EXPECT_EQ(b.wait_id, 0xBu);
  EXPECT_EQ(b.mutex_kind, ompt_mutex_critical);
  EXPECT_EQ(b.codeptr, 0x200u);  // the first callsite seen
  EXPECT_EQ(b.acquisitions, 2u);
  EXPECT_DOUBLE_EQ(b.fastest_s, 2);
  EXPECT_DOUBLE_EQ(b.algorithm_s, 2 * 2);
  EXPECT_DOUBLE_EQ(b.contention_s, (2 + 9) - 4);
  EXPECT_DOUBLE_EQ(b.queued, 1);
  EXPECT_DOUBLE_EQ(b.hold_s, 8 + 1);

  const LockCost& a = c.locks[1];
  EXPECT_EQ(a.wait_id, 0xAu);
  EXPECT_EQ(a.acquisitions, 2u);
  EXPECT_DOUBLE_EQ(a.fastest_s, 4);
  // Thread 1 requested 0xA at 10, after thread 0 released it at 8: it did not queue.
  EXPECT_DOUBLE_EQ(a.algorithm_s, 4 + 6);
  EXPECT_DOUBLE_EQ(a.contention_s, 0);
  EXPECT_DOUBLE_EQ(a.queued, 0);
  EXPECT_DOUBLE_EQ(a.hold_s, 4 + 1);

  // Per thread, summed over locks: thread 1 took 0xB (2 s) and 0xA (6 s), all algorithm;
  // thread 2 queued for 0xB behind thread 1 (held 102 → 110): 9 − 2 = 7 s of contention.
  ASSERT_EQ(c.per_thread.size(), 3u);
  EXPECT_DOUBLE_EQ(c.per_thread.at(0).algorithm_s, 4);
  EXPECT_DOUBLE_EQ(c.per_thread.at(0).contention_s, 0);
  EXPECT_DOUBLE_EQ(c.per_thread.at(1).algorithm_s, 2 + 6);
  EXPECT_DOUBLE_EQ(c.per_thread.at(1).contention_s, 0);
  EXPECT_DOUBLE_EQ(c.per_thread.at(2).algorithm_s, 2);
  EXPECT_DOUBLE_EQ(c.per_thread.at(2).contention_s, 7);
  EXPECT_DOUBLE_EQ(c.max_thread_algorithm_s(), 8);
  EXPECT_DOUBLE_EQ(c.max_thread_contention_s(), 7);

  // The totals split exactly: algorithm + contention = all acquisition time.
  for (const LockCost& l : c.locks) EXPECT_DOUBLE_EQ(l.algorithm_s + l.contention_s, l.acquire_s);
}

TEST(LockCosts, UncontendedLockIsAllAlgorithm) {
  const std::vector<LockAcquisition> v = {acq(0, 0xA, 0x100, ompt_mutex_lock, 0, 0.5, 1),
                                          acq(0, 0xA, 0x100, ompt_mutex_lock, 2, 2.5, 3)};
  const LockCosts c = lock_costs(pointers(v), {});
  ASSERT_EQ(c.locks.size(), 1u);
  EXPECT_DOUBLE_EQ(c.locks[0].algorithm_s, 1);
  EXPECT_DOUBLE_EQ(c.locks[0].contention_s, 0);
  EXPECT_DOUBLE_EQ(c.max_thread_contention_s(), 0);
}

// The floor (docs/locks.md, "The floor"): the tool's gap is taken out of a recorded wait, but
// never below one uncontended atomic, nor below what was recorded where that is less. A machine
// whose gap calibration took in the lock's own atomic (an AMD EPYC VM: 1.2 ns left per
// acquisition of a private lock) no longer reports a lock cheaper than an atomic.
TEST(LockCosts, TheToolGapNeverTakesAWaitBelowOneAtomic) {
  std::vector<LockAcquisition> v = {acq(0, 0xA, 0x100, ompt_mutex_lock, 0, 10, 30),   // 10 recorded
                                    acq(0, 0xA, 0x100, ompt_mutex_lock, 40, 52, 60),  // 12
                                    acq(0, 0xA, 0x100, ompt_mutex_lock, 70, 73, 80),  // 3: below the floor as recorded
                                    acq(0, 0xA, 0x100, ompt_mutex_lock, 90, 120, 130)};  // 30
  const LockRecordCorrection correction{.tool_gap = 9, .floor = 4};
  EXPECT_DOUBLE_EQ(v[0].wait(correction), 4);   // 10 − 9 = 1 < 4: the floor
  EXPECT_DOUBLE_EQ(v[1].wait(correction), 4);   // 12 − 9 = 3 < 4
  EXPECT_DOUBLE_EQ(v[2].wait(correction), 3);   // recorded 3: never more than recorded
  EXPECT_DOUBLE_EQ(v[3].wait(correction), 21);  // 30 − 9 = 21: above the floor, the gap's subtraction holds
  const LockCosts c = lock_costs(pointers(v), correction);
  EXPECT_DOUBLE_EQ(c.atomic_floor_s, 4);
  EXPECT_DOUBLE_EQ(c.locks[0].algorithm_s, 4 + 4 + 3 + 21);
  // Without a floor (an older log), the gap alone: 1 + 3 + 0 + 21.
  EXPECT_DOUBLE_EQ(lock_costs(pointers(v), {.tool_gap = 9}).locks[0].algorithm_s, 1 + 3 + 0 + 21);
}

TEST(LockCosts, NoAcquisitionsNoCosts) {
  const LockCosts c = lock_costs({}, {});
  EXPECT_TRUE(c.locks.empty());
  EXPECT_TRUE(c.per_thread.empty());
  EXPECT_DOUBLE_EQ(c.max_thread_algorithm_s(), 0);
  EXPECT_DOUBLE_EQ(c.max_thread_contention_s(), 0);
}

}  // namespace
}  // namespace ompscope::analysis
