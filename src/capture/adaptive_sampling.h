// Adaptive sampling (ScalOMP §4.4): once a region's or a thread's lock behaviour is known from
// its first occurrences, only a subset of later ones is recorded in full, so programs with
// millions of tiny regions or lock operations stay within the overhead targets.
// - A parallel region's first `full_instances` instances (per callsite) are recorded in full,
//   then one in `region_every`; the others leave only their begin and end (a "light" instance,
//   so counts and total time stay exact) and nothing from inside them.
// - A thread's first `full_lock_ops` lock operations per acquiring site are recorded, then one
//   in `lock_every` until `full_lock_ops` more are recorded, then one in twice as many, and so on
//   up to one in `max_lock_every` (the same geometric strides as tasks): a site's log grows with
//   the logarithm of its operation count until then. A recorded acquisition carries how many
//   operations it stands for (itself and the unrecorded ones at its site since the site's last
//   record); the unrecorded ones left at a site when the thread's implicit task begins or ends
//   are written as one LockOps record, so every operation is counted in the region it ran in.
// - A thread's first `full_tasks` tasks per creation site are recorded, then one in `task_every`
//   until `full_tasks` more are recorded, then one in twice as many, and so on up to one in
//   `max_task_every`: the log grows with the logarithm of the task count until then. A creation
//   record says how many creations it stands for. The others ("light" tasks) leave no
//   record of their own, nor does anything inside them but lock operations: a thread only counts
//   the light tasks it runs and, at its next record, writes one record with that count and the
//   start of the first of them. Tasks they create are light too.
// The analysis scales what it measured on the recorded part to all of it and says so.
#pragma once
#include <cstdint>

namespace ompscope::capture {

struct SamplingPolicy {
  bool enabled = true;
  uint32_t full_instances = 1000;
  uint32_t region_every = 10;
  uint32_t full_lock_ops = 1000;
  uint32_t lock_every = 16;
  uint32_t full_tasks = 2000;
  uint32_t task_every = 16;
  uint32_t max_task_every = 128;  // a weight fits the creation record's 8-bit detail
  // 108 M acquisitions at 2 threads then leave ~13 000 records per thread and site (~1.2 MB).
  uint32_t max_lock_every = 1u << 16;
};

// Counts this instance of the region at `codeptr`; true if it is to be recorded in full.
// Thread-safe (regions may be forked by several threads at once when nested).
bool record_region_instance(const SamplingPolicy& policy, uint64_t codeptr);

// One thread's lock operations per sampling slot; a plain aggregate for initial-exec TLS, kept
// small like TaskSampling. An acquiring site (codeptr) hashes to one of 8 slots, and the sites
// of a slot share its schedule (NPB UA takes locks at 36 sites: a table of one entry per site
// that recorded the sites it could not hold in full left 539 MB of log). Decisions are kept as
// a bit stack so that acquired/released of nested locks follow their own acquire's decision.
struct LockSampling {
  static constexpr uint32_t kSlots = 8;
  uint64_t site[kSlots];           // the first acquiring codeptr seen in the slot; 0: none yet
  uint32_t ops[kSlots];            // operations in the slot
  uint32_t next_recorded[kSlots];  // the slot's next operation to record
  uint32_t counted[kSlots];        // operations counted in a record or a LockOps so far: ops - counted are unrecorded
  uint32_t weight;                 // of the acquire being recorded, for its acquired
  uint32_t slot;                   // of the acquire being recorded
  uint64_t skip_bits;              // nest locks, critical, atomic, ordered: bit 0: the innermost pending operation is not recorded
  // Simple locks (omp_set_lock, omp_test_lock) are released in any order (set a, set b, unset
  // a): their release is recorded where the lock is one the thread holds with a recorded
  // acquisition, not by the decision stack, which took such a release for another's.
  static constexpr uint32_t kHeld = 4;
  uint32_t held_count;
  uint64_t held[kHeld];            // the simple locks (wait ids) held with a recorded acquisition
  uint64_t pending;                // the simple lock whose recorded acquire waits for its acquired; 0: none
};

// One thread's task creations per creation site, and the light tasks it ran since its last
// record. Per thread, so the hot path needs no atomics; a plain aggregate for initial-exec TLS,
// kept small (a dlopen'ed tool gets a few hundred bytes of static TLS). A site that finds the
// table full is recorded in full: exact, just not cheaper.
struct TaskSampling {
  static constexpr uint32_t kSites = 16;
  uint64_t site[kSites];     // creation codeptr; 0: free
  uint32_t created[kSites];
  uint32_t next_recorded[kSites];  // the site's next creation to record (see task_creation_weight)
  uint64_t batch_first;      // clock ticks when the first light task of the batch started
  uint32_t batch_tasks;      // light tasks started since the thread's last record
  uint32_t batch_nested;     // of the tasks created since then, those created inside light tasks
  // Light tasks' own time, timed in this batch (one start in kLightTimedEvery, recorder.h):
  // their ticks and how many.
  uint64_t batch_timed_ticks;
  uint32_t batch_timed;
  uint32_t light_countdown;     // light starts until the next timed one
  const void* light_timed;      // the light task being timed (its OMPT data, its libgomp header); null: none
  uint64_t light_timed_ticks;   // its own time so far
  uint64_t light_timed_since;   // when it last went on with its own code; 0: it is not running it now
  uint32_t light_timed_depth;   // (libgomp) how deep in nested task bodies it runs
  bool light_timed_waiting;     // it is in its taskwait or at its taskgroup's end
  bool running_light;        // the task running on this thread now is light
};

// Where the `n`th event at a site (from 0, past a prefix of `prefix` recorded ones) falls after
// the prefix: the stride in force there and its place in the stretches of that stride. A stretch
// is `prefix` whole strides, the stride doubling from one stretch to the next up to `max_every`.
struct StridePosition {
  uint64_t stride;
  uint64_t offset;  // events since the stretch began
};
inline StridePosition stride_position(uint64_t prefix, uint64_t every, uint64_t max_every, uint64_t n) {
  uint64_t m = n - prefix;
  uint64_t stride = every, stretch = prefix * every;
  while (m >= stretch && stride < max_every) {  // at most log2(max / every) steps
    m -= stretch;
    stride *= 2;
    stretch *= 2;
  }
  return {stride, m};
}

// Whether the `n`th event at a site (from 0) is recorded: 0 if not, else how many events its
// record stands for (1 in the prefix; after it the stride: itself and the light ones before it).
inline uint64_t strided_weight(uint64_t prefix, uint64_t every, uint64_t max_every, uint64_t n) {
  if (n < prefix) return 1;
  const StridePosition p = stride_position(prefix, every, max_every, n);
  return p.offset % p.stride == p.stride - 1 ? p.stride : 0;
}

// The first event from `n` on (n itself included) that is recorded.
inline uint64_t next_strided(uint64_t prefix, uint64_t every, uint64_t max_every, uint64_t n) {
  if (n < prefix) return n;
  const StridePosition p = stride_position(prefix, every, max_every, n);
  return n + (p.stride - 1 - p.offset % p.stride);  // a stretch is whole strides: its last one ends in it
}

// Whether the `n`th creation at a site (from 0) is recorded: 0 if not, else how many creations its
// record stands for.
inline uint32_t task_weight_of_creation(const SamplingPolicy& policy, uint64_t n) {
  return static_cast<uint32_t>(strided_weight(policy.full_tasks, policy.task_every, policy.max_task_every, n));
}

// The first creation from `n` on (n itself included) that is recorded.
inline uint64_t next_recorded_creation(const SamplingPolicy& policy, uint64_t n) {
  return next_strided(policy.full_tasks, policy.task_every, policy.max_task_every, n);
}

// The same schedule for the `n`th lock operation at a site.
inline uint64_t next_recorded_lock_op(const SamplingPolicy& policy, uint64_t n) {
  return next_strided(policy.full_lock_ops, policy.lock_every, policy.max_lock_every, n);
}

inline uint32_t lock_slot_of(uint64_t codeptr) {
  return static_cast<uint32_t>((codeptr * 0x9E3779B97F4A7C15ull) >> 61);  // 8 slots
}
static_assert(LockSampling::kSlots == 8, "lock_slot_of hashes to 3 bits");

// lock_operation_recorded for an operation that is recorded.
bool lock_operation_recorded_slow(LockSampling& s, const SamplingPolicy& policy, uint32_t slot, uint64_t codeptr);

// At the acquire request at `codeptr`: true if this operation is recorded; its weight (itself and
// the unrecorded operations in its slot since the slot's last record) and its slot wait in
// s.weight and s.slot for the acquired. An unrecorded operation compares two counters and
// stores two (its slot's count and the decision): the unrecorded count is what `ops` has
// beyond `counted`, not a third counter and a pending mask (docs/locks.md, "Capture cost").
inline bool lock_operation_recorded(LockSampling& s, const SamplingPolicy& policy, uint64_t codeptr) {
  bool record = true;
  if (!policy.enabled) {
    s.weight = 1;
    s.slot = 0;
  } else {
    const uint32_t slot = lock_slot_of(codeptr);
    const uint32_t n = s.ops[slot];
    if (n < s.next_recorded[slot]) [[likely]] {
      s.ops[slot] = n + 1;
      record = false;
    } else {
      record = lock_operation_recorded_slow(s, policy, slot, codeptr);
    }
  }
  s.skip_bits = (s.skip_bits << 1) | (record ? 0u : 1u);
  return record;
}

// The common case, inline: an operation that sampling leaves unrecorded. Counts it, pushes its
// decision (lock_operation_counted_unrecorded: without the push, for a caller that learns at the
// release whether the acquire was recorded some other way) and says true; false, changing nothing, for every other case (sampling off, an
// operation to record), left to lock_operation_recorded. A caller that takes it first keeps
// the recording path, and the registers it needs, out of the unrecorded one.
inline bool lock_operation_counted_unrecorded(LockSampling& s, const SamplingPolicy& policy, uint64_t codeptr) {
  if (!policy.enabled) return false;
  const uint32_t slot = lock_slot_of(codeptr);
  const uint32_t n = s.ops[slot];
  if (n >= s.next_recorded[slot]) return false;
  s.ops[slot] = n + 1;
  return true;
}
inline bool lock_operation_skipped(LockSampling& s, const SamplingPolicy& policy, uint64_t codeptr) {
  if (!lock_operation_counted_unrecorded(s, policy, codeptr)) return false;
  s.skip_bits = (s.skip_bits << 1) | 1u;
  return true;
}

// Simple locks (see LockSampling::held). At the acquire of `wait_id`: true if it is recorded, its
// weight and slot then in s.weight and s.slot for the acquired. A thread that holds kHeld
// locks with recorded acquisitions counts this one unrecorded (its weight goes to the slot's
// next record) and leaves the schedule due, so the next acquire there is recorded.
// The common case, inline: an acquire that sampling leaves unrecorded. Counts it and says true
// (and drops an acquire recorded before it that never acquired: a failed omp_test_lock).
inline bool simple_lock_skipped(LockSampling& s, const SamplingPolicy& policy, uint64_t codeptr) {
  if (!lock_operation_counted_unrecorded(s, policy, codeptr)) return false;
  if (s.pending) [[unlikely]] s.pending = 0;
  return true;
}
inline bool simple_lock_acquire_recorded(LockSampling& s, const SamplingPolicy& policy, uint64_t codeptr,
                                         uint64_t wait_id) {
  if (simple_lock_skipped(s, policy, codeptr)) [[likely]]
    return false;
  if (s.held_count == LockSampling::kHeld) {
    const uint32_t slot = lock_slot_of(codeptr);
    if (s.ops[slot]++ == 0) s.site[slot] = codeptr;
    return false;
  }
  if (policy.enabled) {
    lock_operation_recorded_slow(s, policy, lock_slot_of(codeptr), codeptr);
  } else {
    s.weight = 1;
    s.slot = 0;
  }
  s.pending = wait_id;
  return true;
}

// At the acquired of `wait_id`: 0 if its acquire was not recorded, else how many operations the
// record stands for; the lock is then held with a recorded acquisition. An acquire that did
// not acquire (a failed omp_test_lock) leaves `pending` to the thread's next acquire.
inline uint32_t simple_lock_acquired_weight(LockSampling& s, uint64_t wait_id) {
  if (s.pending != wait_id || wait_id == 0) [[likely]]
    return 0;
  s.pending = 0;
  s.held[s.held_count++] = wait_id;
  return s.weight ? s.weight : 1;
}

// At the release of `wait_id`: true if its acquisition was recorded.
inline bool simple_lock_release_recorded(LockSampling& s, uint64_t wait_id) {
  uint32_t i = s.held_count;
  if (i == 0) [[likely]]
    return false;
  while (i > 0 && s.held[i - 1] != wait_id) --i;
  if (i == 0) return false;
  s.held[i - 1] = s.held[--s.held_count];
  return true;
}

// At acquired: 0 if not recorded, else how many operations the record stands for.
inline uint32_t lock_acquired_weight(LockSampling& s) {
  if (s.skip_bits & 1) return 0;
  return s.weight ? s.weight : 1;
}

// At release (ends the operation): true if recorded.
inline bool lock_release_recorded(LockSampling& s) {
  const bool record = !(s.skip_bits & 1);
  s.skip_bits >>= 1;
  return record;
}

// Whether any slot has operations counted but not recorded (a region's part ends or begins).
inline bool has_unrecorded_lock_ops(const LockSampling& s) {
  uint32_t differ = 0;
  for (uint32_t i = 0; i < LockSampling::kSlots; ++i) differ |= s.ops[i] ^ s.counted[i];
  return differ != 0;
}

// Hands out, one slot at a time, the unrecorded operations still counted in a slot: false when
// none is left. `slot` gets the slot, `site` its first codeptr, `count` how many.
inline bool take_unrecorded_lock_ops(LockSampling& s, uint32_t& slot, uint64_t& site, uint32_t& count) {
  for (uint32_t i = 0; i < LockSampling::kSlots; ++i) {
    if (s.ops[i] == s.counted[i]) continue;
    slot = i;
    site = s.site[i];
    count = s.ops[i] - s.counted[i];
    s.counted[i] = s.ops[i];
    return true;
  }
  return false;
}

inline uint64_t task_site_key(uint64_t codeptr) { return codeptr ? codeptr : 1; }  // 0 marks a free slot
inline uint32_t task_site_home(uint64_t key) { return static_cast<uint32_t>((key * 0x9E3779B97F4A7C15ull) >> 60); }

// The common case, inline: a light creation at a site that sits in its home slot. Counts it and
// says true; false (counting nothing) for every other case, left to task_creation_weight_slow.
inline bool light_creation_at_home(TaskSampling& s, uint64_t key) {
  const uint32_t home = task_site_home(key);
  if (s.site[home] != key || s.created[home] >= s.next_recorded[home]) return false;
  ++s.created[home];
  return true;
}

// task_creation_weight for all but a light creation at a site in its home slot: a site's first
// creation, a site displaced by another, every recorded creation. Out of line (its probe loop
// unrolled made the light path save and restore six registers).
uint32_t task_creation_weight_slow(TaskSampling& s, const SamplingPolicy& policy, uint64_t key);

// At a task creation: task_weight_of_creation for this thread's next creation at `codeptr`.
// A light creation compares two counters and bumps one: the weight's division (and its walk
// over the stride's doublings) runs for recorded ones only. With the division and the probe
// loop on every creation, tiny_tasks' creator spent 7.5 ns per task here on an AMD EPYC VM.
inline uint32_t task_creation_weight(TaskSampling& s, const SamplingPolicy& policy, uint64_t codeptr) {
  if (!policy.enabled) return 1;
  const uint64_t key = task_site_key(codeptr);
  if (light_creation_at_home(s, key)) [[likely]] return 0;
  return task_creation_weight_slow(s, policy, key);
}

}  // namespace ompscope::capture
