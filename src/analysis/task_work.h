// Where each task of one region instance did its own work: the time it ran on a thread, less the
// time it waited in its own taskwaits, taskgroups and barriers. The implicit task of each thread
// runs whenever its thread runs no explicit task. Both the task graph (work/span) and the task
// diagnoses measure time along these intervals.
#pragma once
#include <algorithm>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "analysis/timeline.h"
#include "common/compact_vector.h"

namespace ompscope::analysis {

struct Interval {
  double begin = 0;
  double end = 0;
};

// Sorted, disjoint intervals with prefix sums, so the length inside any [a, b] is a lookup.
// Each interval holds its prefix sum, all in one CompactVector: a task node holds one set, most
// of one interval, and two std::vectors (48 bytes and two allocations) were a sixth of a recursive
// tree's task nodes.
class IntervalSet {
 public:
  struct Piece : Interval {
    double until = 0;  // length of the set's intervals up to this one's end
  };

  IntervalSet() = default;
  explicit IntervalSet(std::vector<Interval> intervals);  // any order, overlaps merged
  // The same from `scratch`, sorted and merged in place: its memory is the caller's to reuse.
  static IntervalSet of(std::vector<Interval>& scratch);

  double total() const { return many_.empty() ? one_.until : many_.back().until; }
  double length_between(double a, double b) const;  // length of the set inside [a, b]
  IntervalSet minus(const IntervalSet& holes) const;
  IntervalSet first(double length) const;  // the set's first `length` of time (cut at its end)
  std::span<const Piece> intervals() const {
    if (!many_.empty()) return {many_.data(), many_.size()};
    return one_.until > 0 ? std::span<const Piece>(&one_, 1) : std::span<const Piece>();
  }

 private:
  static IntervalSet apart(std::span<const Interval> intervals);  // sorted, apart, none empty
  double length_until(double x) const;
  // A set of one interval holds it in place (one_.until > 0: its length), one of more in `many_`:
  // most task nodes' sets are a leaf task's one stretch, and a block for each was 5 M allocations
  // and frees in a 10 M-event report.
  Piece one_{};
  CompactVector<Piece> many_;
};

// Why one task waits for another (docs/tasks.md, "Dependences"): derived from the two tasks'
// depend clauses as the runtime does (the last writer of an address before its readers, its
// readers before its next writer), or only reported by the runtime.
enum class DependenceKind : uint8_t {
  Flow,     // the predecessor writes (out, inout, a set) what the successor reads (in)
  Anti,     // the predecessor reads (in) what the successor writes
  Output,   // both write it (inout or out after inout or out): neither only reads
  Runtime,  // the runtime's own edge (ompt_callback_task_dependence) that no clause gives
};

struct DependenceEdge {
  uint32_t from = 0;  // the predecessor's node
  DependenceKind kind = DependenceKind::Flow;
};

// A task of the instance: an explicit one, or a thread's implicit task (`explicit_task` null).
// Its lists are CompactVectors, one pointer each and nothing allocated while empty: an instance
// holds a node per task, hundreds of thousands in a recursive tree (72 bytes a node with its set of
// one interval in place, where 48 bytes and a 32-byte block were; 136 before).
struct TaskNode {
  const TaskInstance* explicit_task = nullptr;
  const ThreadInRegion* implicit_part = nullptr;
  IntervalSet own_work;                      // running and not waiting in its own syncs
  CompactVector<const SyncVisit*> waits;     // its own taskwaits, taskgroups and barriers, by arrival
  CompactVector<uint32_t> children;          // nodes it created, by creation time
  CompactVector<DependenceEdge> after;       // siblings it depends on (created before it)
};

struct PlacedFragment {  // fields ordered to pack into 24 bytes: an instance holds one per fragment
  double begin = 0;  // fragment->begin, held here to sort by without a load per comparison
  const TaskFragment* fragment = nullptr;
  uint32_t node = 0;         // the task's node in TaskNodes::nodes, whose task it is (a hash lookup
                             // by task per fragment took a tenth of task_figures' time)
  bool starts_task = false;  // the task's first fragment: the thread dispatched it here
};
static_assert(sizeof(PlacedFragment) == 24);

struct TaskNodes {
  std::vector<TaskNode> nodes;  // implicit tasks first (team order), then explicit by creation
  size_t implicit_count = 0;
  std::unordered_map<uint32_t, std::vector<PlacedFragment>> fragments_on_thread;  // by log thread, by begin
  // By task construct (code address): the time taken out of its bodies as time off the CPU
  // (task_nodes), summed. A few bodies an instance at most, so not a field of every node.
  std::unordered_map<uint64_t, double> off_cpu_taken;
  // Each node by its task's id (an implicit task's own), sorted by id: the one index of every
  // lookup by id in an instance's figures. Three hash maps were built per instance before, a node
  // allocated per task each, and their lookups were a fifth of graph_figures' time. A batch of
  // sampled-out tasks has no id (0, which no task has): no task names it, and it names no parent.
  // Before, each batch was taken for the child of the last batch (fine_tasks: one batch "created"
  // 7957 others).
  // Where the ids are dense (a recursive tree's, handed out in blocks by its threads), a table
  // from the smallest: a binary search over 240 000 ids missed the cache at each step, and took
  // more than the hash map's lookups had.
  std::vector<std::pair<uint32_t, uint32_t>> by_id;
  std::vector<uint32_t> dense;  // node + 1 of id first_id + i; 0: none
  uint32_t first_id = 0;
  static constexpr size_t kNoNode = static_cast<size_t>(-1);
  size_t node_of(uint32_t id) const {
    if (!dense.empty()) {
      const uint32_t i = id - first_id;  // ids below first_id wrap past the table's end
      return i < dense.size() && dense[i] != 0 ? dense[i] - 1 : kNoNode;
    }
    auto it = std::lower_bound(by_id.begin(), by_id.end(), std::pair<uint32_t, uint32_t>{id, 0});
    return it != by_id.end() && it->first == id ? it->second : kNoNode;
  }
  // The explicit task's node with that id; null where none is (an implicit task's id included).
  const TaskNode* explicit_node(uint32_t id) const {
    const size_t i = node_of(id);
    return i != kNoNode && nodes[i].explicit_task != nullptr ? &nodes[i] : nullptr;
  }
};

// The dependence edges between the children of one task, `siblings` in creation order, from
// their depend clauses: per address, an `in` item waits for the last writer; an `out` or `inout`
// item waits for the readers since the last writer, or else for that writer, and becomes the
// writer; the items of a run of `inoutset` (or `mutexinoutset`) items on one address wait for
// what the run's first one waited for, and the run becomes the writers. `source` and `sink`
// (doacross) items are not task dependences. Returns, per sibling, its edges (to positions in
// `siblings`), one per predecessor.
std::vector<std::vector<DependenceEdge>> dependence_edges(const std::vector<const TaskInstance*>& siblings);

// `tasks`: the explicit tasks created in `region` (TaskInstance::parallel_id), by creation.
// A task's own work is its time on a thread, less its waits; where the kernel's accounting shows
// a thread off the CPU involuntarily in the instance (ThreadInRegion::usage, task_usage), that
// time is no task's work: a leaf task (no children, no waits, one thread) whose body is more than
// kDescheduledBody times the median body of its construct in the instance (at least
// kMinBodiesForMedian of them) loses the excess over that median, longest first, until the
// thread's time off the CPU is spent (docs/tasks.md, "Time off the CPU is no task's work").
TaskNodes task_nodes(const RegionInstance& region, std::span<const TaskInstance* const> tasks);
inline constexpr double kDescheduledBody = 2.0;
inline constexpr size_t kMinBodiesForMedian = 8;

}  // namespace ompscope::analysis
