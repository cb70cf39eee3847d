// Adaptive sampling decisions: which region instances and lock operations are recorded.
#include "capture/adaptive_sampling.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace ompscope::capture {
namespace {

std::string region_pattern(const SamplingPolicy& policy, uint64_t codeptr, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += record_region_instance(policy, codeptr) ? 'R' : '.';
  return out;
}

TEST(AdaptiveSampling, ARegionIsRecordedInFullThenOneInstanceInN) {
  const SamplingPolicy policy{true, 3, 4, 0, 1};
  EXPECT_EQ(region_pattern(policy, 0x1000, 12), "RRRR...R...R");
  // Each callsite learns on its own.
  EXPECT_EQ(region_pattern(policy, 0x2000, 5), "RRRR.");
  EXPECT_EQ(region_pattern(policy, 0x1000, 4), "...R");
}

TEST(AdaptiveSampling, SwitchedOffEveryInstanceIsRecorded) {
  SamplingPolicy policy{true, 1, 100, 1, 100};
  policy.enabled = false;
  EXPECT_EQ(region_pattern(policy, 0x3000, 5), "RRRRR");
  LockSampling locks{};
  for (int i = 0; i < 5; ++i) {
    EXPECT_TRUE(lock_operation_recorded(locks, policy, 0x40));
    EXPECT_EQ(lock_acquired_weight(locks), 1u);
    EXPECT_TRUE(lock_release_recorded(locks));
  }
  EXPECT_FALSE(has_unrecorded_lock_ops(locks));
}

SamplingPolicy lock_policy(uint32_t full, uint32_t every, uint32_t max_every) {
  SamplingPolicy p;
  p.full_lock_ops = full;
  p.lock_every = every;
  p.max_lock_every = max_every;
  return p;
}

// One character per operation at `site`: '.' not recorded, else the weight of its record.
std::string lock_pattern(LockSampling& s, const SamplingPolicy& policy, uint64_t site, int n) {
  std::string out;
  for (int op = 0; op < n; ++op) {
    const bool recorded = lock_operation_recorded(s, policy, site);
    const uint32_t weight = lock_acquired_weight(s);
    EXPECT_EQ(recorded, weight > 0);
    EXPECT_EQ(lock_release_recorded(s), recorded);
    out += recorded ? static_cast<char>('0' + weight) : '.';
  }
  return out;
}

// Two acquiring sites in different sampling slots, and one more sharing the first one's slot.
struct Sites {
  uint64_t a = 0x40, b = 0, same_as_a = 0;
  Sites() {
    for (uint64_t c = 0x48; !b || !same_as_a; c += 8) {
      if (!b && lock_slot_of(c) != lock_slot_of(a)) b = c;
      if (!same_as_a && lock_slot_of(c) == lock_slot_of(a)) same_as_a = c;
    }
  }
};

TEST(AdaptiveSampling, LockOperationsFollowGeometricStridesPerSlot) {
  // Two recorded in full, then strides of 2 for two records, of 4 after that (the maximum).
  const SamplingPolicy policy = lock_policy(2, 2, 4);
  const Sites sites;
  LockSampling s{};
  EXPECT_EQ(lock_pattern(s, policy, sites.a, 17), "11.2.2...4...4...");
  // A site in another slot starts its own schedule; the first keeps its place.
  EXPECT_EQ(lock_pattern(s, policy, sites.b, 4), "11.2");
  EXPECT_EQ(lock_pattern(s, policy, sites.a, 2), "4.");
  // A site in the same slot shares it: 8 sites or 36, the log stays bounded.
  EXPECT_EQ(lock_pattern(s, policy, sites.same_as_a, 3), "..4");
}

TEST(AdaptiveSampling, UnrecordedLockOperationsAreHandedOutPerSlotAndNotCountedTwice) {
  const SamplingPolicy policy = lock_policy(1, 4, 4);
  const Sites sites;
  LockSampling s{};
  EXPECT_EQ(lock_pattern(s, policy, sites.a, 3), "1..");
  EXPECT_EQ(lock_pattern(s, policy, sites.b, 2), "1.");
  std::map<uint64_t, uint32_t> handed;
  uint32_t slot, count;
  uint64_t site;
  EXPECT_TRUE(has_unrecorded_lock_ops(s));
  while (take_unrecorded_lock_ops(s, slot, site, count)) {
    EXPECT_EQ(slot, lock_slot_of(site));
    handed[site] += count;
  }
  EXPECT_FALSE(has_unrecorded_lock_ops(s));
  EXPECT_EQ(handed, (std::map<uint64_t, uint32_t>{{sites.a, 2}, {sites.b, 1}}));
  // The next record in a's slot stands for itself and the operation after the hand-out only.
  EXPECT_EQ(lock_pattern(s, policy, sites.a, 2), ".2");
  EXPECT_EQ(s.slot, lock_slot_of(sites.a));
}

TEST(AdaptiveSampling, EveryLockOperationIsCountedOnceWhateverTheSchedule) {
  // Record weights plus handed-out counts equal the operations, per slot, over a long run with
  // more sites than slots.
  const SamplingPolicy policy = lock_policy(5, 3, 48);
  LockSampling s{};
  std::map<uint32_t, uint64_t> counted, ran;
  uint64_t records = 0;
  const auto hand_out = [&] {
    uint32_t slot, count;
    uint64_t site;
    while (take_unrecorded_lock_ops(s, slot, site, count)) counted[slot] += count;
  };
  for (uint64_t op = 0; op < 200000; ++op) {
    const uint64_t site = 0x1000 + 0x10 * (op % 3 == 0 ? 1 : op % 7 == 0 ? 2 : op % 40);
    ++ran[lock_slot_of(site)];
    if (lock_operation_recorded(s, policy, site)) {
      counted[s.slot] += lock_acquired_weight(s);
      ++records;
    }
    lock_release_recorded(s);
    if (op % 9999 == 0) hand_out();  // an implicit task begins or ends
  }
  hand_out();
  EXPECT_EQ(counted, ran);
  EXPECT_LT(records, 200000u / 20);  // the log grows far slower than the operations
}

TEST(AdaptiveSampling, NestedLocksFollowTheirOwnAcquiresDecision) {
  const SamplingPolicy policy = lock_policy(1, 2, 2);  // op 0 recorded, op 1 not, op 2 recorded
  LockSampling s{};
  ASSERT_TRUE(lock_operation_recorded(s, policy, 0x40));   // outer lock A
  EXPECT_EQ(lock_acquired_weight(s), 1u);
  ASSERT_FALSE(lock_operation_recorded(s, policy, 0x40));  // inner lock B, taken while A is held
  EXPECT_EQ(lock_acquired_weight(s), 0u);
  EXPECT_FALSE(lock_release_recorded(s));                  // B
  EXPECT_TRUE(lock_release_recorded(s));                   // A
  ASSERT_TRUE(lock_operation_recorded(s, policy, 0x40));
  EXPECT_EQ(lock_acquired_weight(s), 2u);                   // stands for itself and B
}

TEST(AdaptiveSampling, SimpleLocksReleasedOutOfOrderAreRecordedByTheirOwnAcquisition) {
  const SamplingPolicy policy = lock_policy(1, 2, 2);  // op 0 recorded, op 1 not, op 2 recorded
  LockSampling s{};
  const uint64_t a = 0xa0, b = 0xb0;
  ASSERT_TRUE(simple_lock_acquire_recorded(s, policy, 0x40, a));
  EXPECT_EQ(simple_lock_acquired_weight(s, a), 1u);
  ASSERT_FALSE(simple_lock_acquire_recorded(s, policy, 0x40, b));  // b taken while a is held
  EXPECT_EQ(simple_lock_acquired_weight(s, b), 0u);
  EXPECT_TRUE(simple_lock_release_recorded(s, a));   // a released first: its own record
  EXPECT_FALSE(simple_lock_release_recorded(s, b));  // b's acquisition was not recorded
  ASSERT_TRUE(simple_lock_acquire_recorded(s, policy, 0x40, b));
  EXPECT_EQ(simple_lock_acquired_weight(s, b), 2u);  // stands for itself and the unrecorded b
  EXPECT_TRUE(simple_lock_release_recorded(s, b));
  EXPECT_EQ(s.held_count, 0u);
}

TEST(AdaptiveSampling, AThreadHoldingAsManyRecordedLocksAsItKeepsCountsTheNextOneForItsSlotsNextRecord) {
  SamplingPolicy policy;
  policy.enabled = false;  // every operation would be recorded
  LockSampling s{};
  for (uint64_t lock = 1; lock <= LockSampling::kHeld; ++lock) {
    ASSERT_TRUE(simple_lock_acquire_recorded(s, policy, 0x40, lock));
    EXPECT_EQ(simple_lock_acquired_weight(s, lock), 1u);
  }
  EXPECT_FALSE(simple_lock_acquire_recorded(s, policy, 0x40, 99));  // one more: counted, not recorded
  EXPECT_EQ(simple_lock_acquired_weight(s, 99), 0u);
  EXPECT_FALSE(simple_lock_release_recorded(s, 99));
  EXPECT_TRUE(has_unrecorded_lock_ops(s));  // written as LockOps where the region's part ends
  for (uint64_t lock = LockSampling::kHeld; lock >= 1; --lock) EXPECT_TRUE(simple_lock_release_recorded(s, lock));
}

TEST(AdaptiveSampling, AFailedTestLockLeavesNoRecordedAcquisitionBehind) {
  const SamplingPolicy policy = lock_policy(1, 2, 2);
  LockSampling s{};
  ASSERT_TRUE(simple_lock_acquire_recorded(s, policy, 0x40, 0xa0));  // omp_test_lock fails: no acquired
  ASSERT_FALSE(simple_lock_acquire_recorded(s, policy, 0x40, 0xa0));  // the same lock, not recorded, acquires
  EXPECT_EQ(simple_lock_acquired_weight(s, 0xa0), 0u);
  EXPECT_FALSE(simple_lock_release_recorded(s, 0xa0));
  ASSERT_TRUE(simple_lock_acquire_recorded(s, policy, 0x40, 0xb0));   // the next recorded acquire replaces it
  EXPECT_EQ(simple_lock_acquired_weight(s, 0xb0), 2u);
  EXPECT_EQ(simple_lock_acquired_weight(s, 0xa0), 0u);
  EXPECT_EQ(s.held_count, 1u);
}

// One character per creation: '.' light, else the weight of its record.
std::string task_pattern(TaskSampling& s, const SamplingPolicy& policy, uint64_t codeptr, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    const uint32_t w = task_creation_weight(s, policy, codeptr);
    out += w == 0 ? '.' : static_cast<char>('0' + w);
  }
  return out;
}

SamplingPolicy task_policy(uint32_t full, uint32_t every, uint32_t max_every = 128) {
  SamplingPolicy p;
  p.full_tasks = full;
  p.task_every = every;
  p.max_task_every = max_every;
  return p;
}

TEST(AdaptiveSampling, ATaskSiteIsRecordedInFullThenOneTaskInNStandingForTheOnesBeforeIt) {
  TaskSampling s{};
  const SamplingPolicy policy = task_policy(3, 4);
  EXPECT_EQ(task_pattern(s, policy, 0x1000, 14), "111...4...4...");
  // Each site learns on its own, on each thread (one TaskSampling per thread).
  EXPECT_EQ(task_pattern(s, policy, 0x2000, 4), "111.");
  TaskSampling other_thread{};
  EXPECT_EQ(task_pattern(other_thread, policy, 0x1000, 4), "111.");
  EXPECT_EQ(task_pattern(s, policy, 0x1000, 2), "4.");
}

TEST(AdaptiveSampling, TheTaskStrideDoublesEachTimeAsManyTasksAsThePrefixWereRecorded) {
  TaskSampling s{};
  const SamplingPolicy policy = task_policy(2, 2, 8);
  EXPECT_EQ(task_pattern(s, policy, 0x1000, 2 + 4 + 8 + 24), std::string("11") + ".2.2" + "...4...4" +
                                                              ".......8.......8.......8");
  // Weights add up to the creations up to the last recorded one, however the stride changed.
  uint64_t weights = 0, last_recorded = 0;
  for (uint64_t n = 0; n < 100000; ++n)
    if (const uint32_t w = task_weight_of_creation(policy, n)) weights += w, last_recorded = n + 1;
  EXPECT_EQ(weights, last_recorded);
}

TEST(AdaptiveSampling, TheNextRecordedCreationIsTheFirstWithAWeight) {
  const SamplingPolicy policy = task_policy(3, 2, 8);
  for (uint64_t n = 0; n < 5000; ++n) {
    uint64_t first = n;
    while (task_weight_of_creation(policy, first) == 0) ++first;
    ASSERT_EQ(next_recorded_creation(policy, n), first) << "from creation " << n;
  }
}

TEST(AdaptiveSampling, TaskSitesBeyondTheTableAreRecordedInFull) {
  TaskSampling s{};
  const SamplingPolicy policy = task_policy(1, 2);
  for (uint64_t site = 1; site <= TaskSampling::kSites; ++site) EXPECT_EQ(task_pattern(s, policy, site << 12, 3), "1.2");
  EXPECT_EQ(task_pattern(s, policy, 0xFFFF000, 3), "111");
}

TEST(AdaptiveSampling, SwitchedOffEveryTaskIsRecorded) {
  TaskSampling s{};
  SamplingPolicy policy = task_policy(0, 2);
  policy.enabled = false;
  EXPECT_EQ(task_pattern(s, policy, 0x1000, 4), "1111");
}

}  // namespace
}  // namespace ompscope::capture
