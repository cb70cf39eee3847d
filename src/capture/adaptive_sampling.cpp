#include "capture/adaptive_sampling.h"

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace ompscope::capture {
namespace {

// Open addressing on the callsite; a full table records every instance of the callsites it
// cannot hold (exact, just not cheaper).
constexpr uint32_t kSlots = 1024;
constexpr uint32_t kProbes = 16;
struct CallsiteCount {
  std::atomic<uint64_t> codeptr;
  std::atomic<uint64_t> instances;
};
CallsiteCount g_counts[kSlots];

std::atomic<uint64_t>* instances_of(uint64_t codeptr) {
  const uint64_t key = codeptr ? codeptr : 1;  // 0 marks a free slot
  uint32_t slot = static_cast<uint32_t>((key * 0x9E3779B97F4A7C15ull) >> 54) % kSlots;
  for (uint32_t probe = 0; probe < kProbes; ++probe, slot = (slot + 1) % kSlots) {
    uint64_t seen = g_counts[slot].codeptr.load(std::memory_order_acquire);
    if (seen == 0 && g_counts[slot].codeptr.compare_exchange_strong(seen, key)) return &g_counts[slot].instances;
    if (seen == key) return &g_counts[slot].instances;
  }
  return nullptr;
}

}  // namespace

uint32_t task_creation_weight_slow(TaskSampling& s, const SamplingPolicy& policy, uint64_t key) {
  uint32_t slot = task_site_home(key);
  for (uint32_t probe = 0; probe < TaskSampling::kSites; ++probe, slot = (slot + 1) % TaskSampling::kSites) {
    if (s.site[slot] == 0) s.site[slot] = key;
    if (s.site[slot] != key) continue;
    const uint32_t n = s.created[slot]++;
    if (n < s.next_recorded[slot]) return 0;
    s.next_recorded[slot] = static_cast<uint32_t>(next_recorded_creation(policy, uint64_t{n} + 1));
    return task_weight_of_creation(policy, n);
  }
  return 1;  // the table is full: recorded in full
}

bool lock_operation_recorded_slow(LockSampling& s, const SamplingPolicy& policy, uint32_t slot, uint64_t codeptr) {
  if (s.ops[slot] == 0) s.site[slot] = codeptr;
  const uint32_t n = s.ops[slot]++;
  s.next_recorded[slot] = static_cast<uint32_t>(std::min<uint64_t>(next_recorded_lock_op(policy, uint64_t{n} + 1), UINT32_MAX));
  s.weight = n + 1 - s.counted[slot];  // itself and the unrecorded ones before it
  s.slot = slot;
  s.counted[slot] = n + 1;
  return true;
}

bool record_region_instance(const SamplingPolicy& policy, uint64_t codeptr) {
  if (!policy.enabled) return true;
  std::atomic<uint64_t>* count = instances_of(codeptr);
  if (!count) return true;
  const uint64_t n = count->fetch_add(1, std::memory_order_relaxed);
  return n < policy.full_instances || (n - policy.full_instances) % policy.region_every == 0;
}

}  // namespace ompscope::capture
