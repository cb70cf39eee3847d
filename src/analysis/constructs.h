// The constructs inside a parallel region, as a tree (docs/source-locations.md, "Constructs
// inside a region"): worksharing loops, single, sections, masked, explicit barriers,
// taskwait and taskgroup, critical sections and lock sites, and the tasks run under each, every
// one at its own file:line through the one symbolizer. Each thread's time in a region instance
// is charged to the innermost construct open when it began; the wait in the barrier after a
// worksharing construct belongs to that construct, and so do that barrier's phases.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <span>
#include <utility>
#include <unordered_map>
#include <optional>
#include <vector>

#include "analysis/barrier_phases.h"
#include "analysis/lock_costs.h"
#include "analysis/sampled_code.h"
#include "analysis/symbolizer.h"
#include "analysis/timeline.h"
#include "common/sorted_ids.h"
#include "report/construct_kind.h"

namespace ompscope::analysis {

// The construct kind of an OMPT mutex kind (ompt_mutex_t): critical, lock, nest_lock, atomic, ordered.
report::ConstructKind mutex_construct_kind(uint8_t ompt_mutex_kind);

// "the loop at solver.c:42": a construct as a sentence names it.
std::string construct_place(report::ConstructKind kind, const SourceLocation& where);

// The place of tasks whose creation site was not recorded (a batch of sampled-out tasks,
// docs/sampling.md): in the tree under the construct they ran in, never lending it a line.
inline constexpr const char* kUnrecordedTaskSite = "creation site not recorded (sampled out)";

struct ConstructRun {
  int parent = -1;        // index in ConstructTree::nodes; -1: the region itself
  std::string path;       // identity across runs: the parent's path, then kind and place
  report::ConstructKind kind = report::ConstructKind::kLoop;
  SourceLocation where;   // join_barrier: none (it is the region's end)
  double instances = 0;   // team constructs: most visits of one thread, summed over instances;
                          // locks: acquisitions; tasks: tasks run
  double time_s = 0;      // the team's thread time in it ÷ team size, summed over instances
  double iterations = 0;  // loops: the iteration count the runtime reported, summed over instances; 0: none
  BarrierPhases phases;   // of the barriers charged to it
  std::vector<const LockAcquisition*> acquisitions;  // made at it (lock sites)
  LockCosts locks;        // of those acquisitions (set by finish_constructs)
  // CPU-time samples its threads took in it (docs/sampling.md): inside a construct nested in
  // it, they are that one's.
  RunSamples samples;
  // Of their time, the OpenMP runtime's outside waits (ConstructTree::runtime_work_s).
  double runtime_work_s = 0;
};

// The function named for the time at an `omp flush` the compiler inlined (gcc's fence).
inline constexpr const char* kInlineFlush = "an omp flush the compiler inlined";

struct ConstructTree {
  std::vector<ConstructRun> nodes;  // parents before their children
  BarrierPhases own_phases;         // barriers charged to no construct (the join after the region's own code)
  double outside_s = 0;             // region time in no construct: its own code and fork/join
  // Each thread's CPU time in the OpenMP runtime outside its waits, by index in the team: the
  // samples whose innermost frame is the runtime's (RunSamples::runtime_s) in worksharing
  // constructs, tasks and the region's own code, not in barriers, taskwaits or lock acquisitions
  // (team_work.h, TeamWork::runtime_work_s), and at `omp flush` directives the compiler inlined
  // (DescribedSample::inline_flush).
  std::vector<double> runtime_work_s;
  // The same by the runtime's function sampled (kInlineFlush for an inlined flush).
  std::map<std::string, double> runtime_work_functions;
  double recorded_time_s = 0;       // the instances' time the tree was built from
  // The region's place (its body's entry, else its fork's return address: its directive's line),
  // where a top-level construct whose call the body tail-called goes (its return address is the
  // runtime's: clang's last `#pragma omp barrier`).
  SourceLocation body_where;

  // Internal: node index by (parent, kind, codeptr), so a construct is symbolised once, and by path.
  std::map<std::tuple<int, report::ConstructKind, uint64_t>, int> by_address;
  std::unordered_map<std::string, int> by_path;
  std::tuple<int, report::ConstructKind, uint64_t> last_address{-1, report::ConstructKind::kLoop, 0};
  int last_node = -1;
};

// Pointers to a timeline's records grouped by a key (a parallel id), each group in the records'
// order: one array for them all, the keys sorted, and where each one's group begins (a vector per
// key was 50 MB of a 10 M-event report, the tasks' grouped twice; a hash map from key to group,
// 16.7 MB per 416 667 keys, two of them the peak of a loop log's report). Records whose key is 0
// are left out where `skip_zero`.
template <class T>
class RecordsByKey {
 public:
  using Group = std::span<const T* const>;
  template <class KeyOf>
  RecordsByKey(const std::vector<T>& records, KeyOf key_of, bool skip_zero) {
    const auto kept = [&](uint32_t k) { return k != 0 || !skip_zero; };
    std::vector<uint32_t> keys;  // a key's records mostly come together: each run's key once
    for (const T& r : records)
      if (const uint32_t k = key_of(r); kept(k) && (keys.empty() || keys.back() != k)) keys.push_back(k);
    keys_ = SortedIds(std::move(keys));
    std::vector<uint32_t> slot_of;  // each record's key's place in keys_ (kNone: left out)
    slot_of.reserve(records.size());
    begin_.assign(keys_.size() + 1, 0);
    uint32_t hint = SortedIds::kNone;
    for (const T& r : records) {
      const uint32_t k = key_of(r);
      const uint32_t slot = kept(k) ? keys_.find(k, hint) : SortedIds::kNone;
      slot_of.push_back(slot);
      if (slot != SortedIds::kNone) ++begin_[slot + 1];
    }
    for (size_t i = 1; i < begin_.size(); ++i) begin_[i] += begin_[i - 1];
    pointers_.resize(begin_.back());
    std::vector<uint32_t> next(begin_.begin(), begin_.end() - 1);
    for (size_t i = 0; i < records.size(); ++i)
      if (slot_of[i] != SortedIds::kNone) pointers_[next[slot_of[i]]++] = &records[i];
  }
  // The key's records; empty where it has none.
  Group find(uint32_t key) const {
    uint32_t hint = SortedIds::kNone;
    return find(key, hint);
  }
  // The same, `hint` as SortedIds::find's: the instances of a run, looked up in order of begin,
  // come in order of id, and a binary search of 416 667 ids per lookup, three lookups an instance,
  // was a fifth of the constructs' time (the 10 M loop log).
  Group find(uint32_t key, uint32_t& hint) const {
    const uint32_t slot = keys_.find(key, hint);
    if (slot == SortedIds::kNone) return {};
    return Group(pointers_.data() + begin_[slot], begin_[slot + 1] - begin_[slot]);
  }

 private:
  std::vector<const T*> pointers_;
  SortedIds keys_;
  std::vector<uint32_t> begin_;  // keys_[i]'s group is pointers_[begin_[i], begin_[i + 1])
};

// Per run: the work spans, locks and tasks of each region instance, found once.
struct ConstructInputs {
  RecordsByKey<WorkSpan> work;        // by parallel id
  RecordsByKey<LockAcquisition> locks;  // by parallel id
  LockRecordCorrection lock_correction;   // every lock record's (the timeline's)
  RecordsByKey<TaskInstance> tasks;   // by parallel id (created in it), 0 included
  std::unordered_map<uint32_t, std::vector<const CpuSample*>> samples;    // by log thread, by time
  explicit ConstructInputs(const Timeline& timeline);
};

// Adds one recorded region instance to the tree (nothing for a sampled-out one: nullopt);
// `described`: the timeline's samples, symbolised once for the constructs and the regions
// (place_samples). Returns the construct that owns each of the instance's barriers (its first
// thread's, in order; -1: the region's own code), for charge_barrier.
std::optional<std::vector<int>> add_instance_constructs(ConstructTree& tree, const RegionInstance& instance,
                                                        const ConstructInputs& inputs, Symbolizer& symbols,
                                                        DescribedSamples& described);
// What one barrier adds to its phases (barrier_phases' `each`), charged to the construct that owns
// it (`node`), else to the region's own code. The join's cost stays fork/join, the region's.
void charge_barrier(ConstructTree& tree, int node, const BarrierPhases& one);

// Lock costs per lock site, and times scaled from the recorded instances to all (`time_s`: the
// region's time over all its instances).
void finish_constructs(ConstructTree& tree, double time_s, const LockRecordCorrection& lock_correction);

}  // namespace ompscope::analysis
