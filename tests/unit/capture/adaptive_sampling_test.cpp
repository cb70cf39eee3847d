// Adaptive sampling decisions: which region instances and lock operations are recorded.
#include "capture/adaptive_sampling.h"

#include <gtest/gtest.h>

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
    EXPECT_TRUE(lock_operation_recorded(locks, policy));
    EXPECT_EQ(lock_acquired_weight(locks), 1u);
    EXPECT_TRUE(lock_release_recorded(locks));
  }
}

TEST(AdaptiveSampling, ARecordedLockOperationCarriesTheSkippedOnesBeforeIt) {
  const SamplingPolicy policy{true, 0, 1, 2, 3};  // ops 0, 1 recorded, then ops 3, 6, ...
  LockSampling s{};
  std::string pattern;
  std::string weights;
  for (int op = 0; op < 7; ++op) {
    const bool recorded = lock_operation_recorded(s, policy);
    const uint32_t weight = lock_acquired_weight(s);
    EXPECT_EQ(recorded, weight > 0);
    EXPECT_EQ(lock_release_recorded(s), recorded);
    pattern += recorded ? 'R' : '.';
    if (recorded) weights += std::to_string(weight);
  }
  EXPECT_EQ(pattern, "RR.R..R");
  EXPECT_EQ(weights, "1123");
}

TEST(AdaptiveSampling, NestedLocksFollowTheirOwnAcquiresDecision) {
  const SamplingPolicy policy{true, 0, 1, 1, 2};  // op 0 recorded, op 1 not, op 2 recorded
  LockSampling s{};
  ASSERT_TRUE(lock_operation_recorded(s, policy));   // outer lock A
  EXPECT_EQ(lock_acquired_weight(s), 1u);
  ASSERT_FALSE(lock_operation_recorded(s, policy));  // inner lock B, taken while A is held
  EXPECT_EQ(lock_acquired_weight(s), 0u);
  EXPECT_FALSE(lock_release_recorded(s));            // B
  EXPECT_TRUE(lock_release_recorded(s));             // A
  ASSERT_TRUE(lock_operation_recorded(s, policy));
  EXPECT_EQ(lock_acquired_weight(s), 2u);             // stands for itself and B
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
