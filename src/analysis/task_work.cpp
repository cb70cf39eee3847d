#include "analysis/task_work.h"

#include <algorithm>

namespace ompscope::analysis {

IntervalSet::IntervalSet(std::vector<Interval> intervals) {
  std::sort(intervals.begin(), intervals.end(), [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
  for (const Interval& i : intervals) {
    if (i.end <= i.begin) continue;
    if (!intervals_.empty() && i.begin <= intervals_.back().end)
      intervals_.back().end = std::max(intervals_.back().end, i.end);
    else
      intervals_.push_back(i);
  }
  double sum = 0;
  for (const Interval& i : intervals_) prefix_.push_back(sum += i.end - i.begin);
}

double IntervalSet::length_until(double x) const {
  // First interval that ends after x: the ones before it count whole, it counts up to x.
  auto it = std::upper_bound(intervals_.begin(), intervals_.end(), x,
                             [](double v, const Interval& i) { return v < i.end; });
  const size_t k = static_cast<size_t>(it - intervals_.begin());
  double length = k == 0 ? 0 : prefix_[k - 1];
  if (it != intervals_.end() && x > it->begin) length += x - it->begin;
  return length;
}

double IntervalSet::length_between(double a, double b) const {
  return b <= a ? 0 : length_until(b) - length_until(a);
}

IntervalSet IntervalSet::minus(const IntervalSet& holes) const {
  std::vector<Interval> out;
  size_t h = 0;
  const auto& hs = holes.intervals_;
  for (Interval i : intervals_) {
    while (h < hs.size() && hs[h].end <= i.begin) ++h;
    double from = i.begin;
    for (size_t k = h; k < hs.size() && hs[k].begin < i.end; ++k) {
      if (hs[k].begin > from) out.push_back({from, hs[k].begin});
      from = std::max(from, hs[k].end);
    }
    if (from < i.end) out.push_back({from, i.end});
  }
  return IntervalSet(std::move(out));
}

namespace {

bool is_wait(const SyncVisit& v) { return v.kind != SyncKind::Other; }

IntervalSet visits_of(const std::vector<const SyncVisit*>& visits) {
  std::vector<Interval> out;
  for (const SyncVisit* v : visits) out.push_back({v->arrive, v->depart});
  return IntervalSet(std::move(out));
}

}  // namespace

TaskNodes task_nodes(const RegionInstance& region, const std::vector<const TaskInstance*>& tasks) {
  TaskNodes out;
  std::unordered_map<uint32_t, size_t> node_of;  // task id → node
  out.nodes.reserve(region.threads.size() + tasks.size());
  node_of.reserve(region.threads.size() + tasks.size());
  for (const ThreadInRegion& part : region.threads) {
    TaskNode n;
    n.implicit_part = &part;
    node_of[part.implicit_task] = out.nodes.size();
    out.nodes.push_back(std::move(n));
  }
  out.implicit_count = out.nodes.size();
  for (const TaskInstance* t : tasks) {
    TaskNode n;
    n.explicit_task = t;
    node_of[t->id] = out.nodes.size();
    out.nodes.push_back(std::move(n));
    for (const TaskFragment& f : t->fragments)
      out.fragments_on_thread[f.thread].push_back({&f, t, &f == &t->fragments.front()});
  }
  for (auto& [thread, list] : out.fragments_on_thread)
    std::sort(list.begin(), list.end(),
              [](const PlacedFragment& a, const PlacedFragment& b) { return a.fragment->begin < b.fragment->begin; });

  // A visit belongs to the task that waits in it: an explicit task's taskwait may sit in any
  // thread's list (an untied task moves), the implicit task's visits in its own thread's list.
  for (const ThreadInRegion& part : region.threads) {
    for (const SyncVisit& v : part.syncs) {
      if (!is_wait(v)) continue;
      const uint32_t owner = v.task != 0 ? v.task : part.implicit_task;
      if (auto it = node_of.find(owner); it != node_of.end()) out.nodes[it->second].waits.push_back(&v);
    }
  }
  for (size_t i = out.implicit_count; i < out.nodes.size(); ++i) {
    const TaskInstance& t = *out.nodes[i].explicit_task;
    if (auto it = node_of.find(t.parent); it != node_of.end()) out.nodes[it->second].children.push_back(i);
  }

  for (TaskNode& n : out.nodes) {
    std::sort(n.waits.begin(), n.waits.end(), [](const SyncVisit* a, const SyncVisit* b) { return a->arrive < b->arrive; });
    std::vector<Interval> running;
    if (n.explicit_task) {
      for (const TaskFragment& f : n.explicit_task->fragments) running.push_back({f.begin, f.end});
      n.own_work = IntervalSet(std::move(running));
      if (!n.waits.empty()) n.own_work = n.own_work.minus(visits_of(n.waits));
    } else {
      const ThreadInRegion& part = *n.implicit_part;
      std::vector<Interval> suspended;  // explicit tasks ran on its thread
      if (auto it = out.fragments_on_thread.find(part.thread); it != out.fragments_on_thread.end())
        for (const PlacedFragment& f : it->second) suspended.push_back({f.fragment->begin, f.fragment->end});
      n.own_work = IntervalSet({{part.start, part.end}})
                       .minus(IntervalSet(std::move(suspended)))
                       .minus(visits_of(n.waits));
    }
  }
  return out;
}

}  // namespace ompscope::analysis
