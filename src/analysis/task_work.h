// Where each task of one region instance did its own work: the time it ran on a thread, less the
// time it waited in its own taskwaits, taskgroups and barriers. The implicit task of each thread
// runs whenever its thread runs no explicit task. Both the task graph (work/span) and the task
// diagnoses measure time along these intervals.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "analysis/timeline.h"

namespace ompscope::analysis {

struct Interval {
  double begin = 0;
  double end = 0;
};

// Sorted, disjoint intervals with prefix sums, so the length inside any [a, b] is a lookup.
class IntervalSet {
 public:
  IntervalSet() = default;
  explicit IntervalSet(std::vector<Interval> intervals);  // any order, overlaps merged

  double total() const { return prefix_.empty() ? 0 : prefix_.back(); }
  double length_between(double a, double b) const;  // length of the set inside [a, b]
  IntervalSet minus(const IntervalSet& holes) const;
  const std::vector<Interval>& intervals() const { return intervals_; }

 private:
  double length_until(double x) const;
  std::vector<Interval> intervals_;
  std::vector<double> prefix_;  // prefix_[i]: length of intervals_[0..i]
};

// A task of the instance: an explicit one, or a thread's implicit task (`explicit_task` null).
struct TaskNode {
  const TaskInstance* explicit_task = nullptr;
  const ThreadInRegion* implicit_part = nullptr;
  IntervalSet own_work;                  // running and not waiting in its own syncs
  std::vector<const SyncVisit*> waits;   // its own taskwaits, taskgroups and barriers, by arrival
  std::vector<size_t> children;          // nodes it created, by creation time
};

struct PlacedFragment {
  const TaskFragment* fragment = nullptr;
  const TaskInstance* task = nullptr;
  bool starts_task = false;  // the task's first fragment: the thread dispatched it here
};

struct TaskNodes {
  std::vector<TaskNode> nodes;  // implicit tasks first (team order), then explicit by creation
  size_t implicit_count = 0;
  std::unordered_map<uint32_t, std::vector<PlacedFragment>> fragments_on_thread;  // by log thread, by begin
};

// `tasks`: the explicit tasks created in `region` (TaskInstance::parallel_id), by creation.
TaskNodes task_nodes(const RegionInstance& region, const std::vector<const TaskInstance*>& tasks);

}  // namespace ompscope::analysis
