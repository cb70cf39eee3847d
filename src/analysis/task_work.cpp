#include "analysis/task_work.h"

#include <omp-tools.h>

#include <algorithm>
#include <unordered_map>

#include "common/scratch.h"
#include "common/sort_runs.h"

namespace ompscope::analysis {

namespace {
// Ids from which an instance's index is a table (TaskNodes::dense): a small graph's few ids are
// found as fast by a binary search, and its threads' id blocks lie far apart.
constexpr size_t kDenseIdsFrom = 1024;
}  // namespace

IntervalSet::IntervalSet(std::vector<Interval> intervals) { *this = of(intervals); }

// Merged in the vector it is given, then copied once into pieces of exactly its length: a task
// node's set built element by element was a tenth of a per-run analysis of small task trees.
IntervalSet IntervalSet::of(std::vector<Interval>& intervals) {
  const auto by_begin = [](const Interval& a, const Interval& b) { return a.begin < b.begin; };
  if (!std::is_sorted(intervals.begin(), intervals.end(), by_begin))
    std::sort(intervals.begin(), intervals.end(), by_begin);
  size_t kept = 0;
  for (const Interval& i : intervals) {
    if (i.end <= i.begin) continue;
    if (kept > 0 && i.begin <= intervals[kept - 1].end)
      intervals[kept - 1].end = std::max(intervals[kept - 1].end, i.end);
    else
      intervals[kept++] = i;
  }
  return apart(std::span<const Interval>(intervals.data(), kept));
}

IntervalSet IntervalSet::apart(std::span<const Interval> intervals) {
  IntervalSet out;
  if (intervals.size() == 1) {
    out.one_.begin = intervals[0].begin;
    out.one_.end = intervals[0].end;
    out.one_.until = intervals[0].end - intervals[0].begin;  // > 0: none is empty
    return out;
  }
  out.many_.reserve(intervals.size());
  double until = 0;
  for (const Interval& i : intervals) {
    Piece p;
    p.begin = i.begin;
    p.end = i.end;
    p.until = until += i.end - i.begin;
    out.many_.push_back(p);
  }
  return out;
}

double IntervalSet::length_until(double x) const {
  // First interval that ends after x: the ones before it count whole, it counts up to x.
  const std::span<const Piece> all = intervals();
  auto it = std::upper_bound(all.begin(), all.end(), x, [](double v, const Piece& i) { return v < i.end; });
  double length = it == all.begin() ? 0 : std::prev(it)->until;
  if (it != all.end() && x > it->begin) length += x - it->begin;
  return length;
}

double IntervalSet::length_between(double a, double b) const {
  return b <= a ? 0 : length_until(b) - length_until(a);
}

// Both sets are sorted, apart and of intervals longer than zero, so what is left of this one is
// too: it is kept as it is cut, in one buffer per thread, then copied once at its length.
IntervalSet IntervalSet::minus(const IntervalSet& holes) const {
  thread_local std::vector<Interval> out;
  out.clear();
  size_t h = 0;
  const std::span<const Piece> hs = holes.intervals();
  for (const Piece& i : intervals()) {
    while (h < hs.size() && hs[h].end <= i.begin) ++h;
    double from = i.begin;
    for (size_t k = h; k < hs.size() && hs[k].begin < i.end; ++k) {
      if (hs[k].begin > from) out.push_back({from, hs[k].begin});
      from = std::max(from, hs[k].end);
    }
    if (from < i.end) out.push_back({from, i.end});
  }
  IntervalSet left = apart(out);
  give_back_if_large(out);
  return left;
}

IntervalSet IntervalSet::first(double length) const {
  thread_local std::vector<Interval> out;
  out.clear();
  for (const Piece& i : intervals()) {
    if (length <= 0) break;
    const Interval cut{i.begin, std::min(i.end, i.begin + length)};
    if (cut.end > cut.begin) out.push_back(cut);
    length -= i.end - i.begin;
  }
  IntervalSet cut = apart(out);
  give_back_if_large(out);
  return cut;
}

std::vector<std::vector<DependenceEdge>> dependence_edges(const std::vector<const TaskInstance*>& siblings) {
  struct Address {
    std::vector<size_t> writers, readers;
    uint8_t set_type = 0;               // the open run of inoutset / mutexinoutset items; 0: none
    std::vector<size_t> set_waits_for;  // what the run's first item waited for
    bool set_after_readers = false;
  };
  std::unordered_map<uint64_t, Address> state;
  std::vector<std::vector<DependenceEdge>> out(siblings.size());
  for (size_t i = 0; i < siblings.size(); ++i) {
    std::vector<DependenceEdge>& edges = out[i];
    const auto add = [&](const std::vector<size_t>& from, DependenceKind kind) {
      for (size_t f : from) {
        if (f == i) continue;
        auto same = std::find_if(edges.begin(), edges.end(), [f](const DependenceEdge& e) { return e.from == f; });
        if (same == edges.end()) edges.push_back({static_cast<uint32_t>(f), kind});
        else if (kind == DependenceKind::Flow) same->kind = kind;  // a read of what it wrote names it best
      }
    };
    for (const TaskDependenceItem& item : siblings[i]->depends()) {
      Address& a = state[item.address];
      switch (item.type) {
        case ompt_dependence_type_in:
          add(a.writers, DependenceKind::Flow);
          if (a.readers.empty() || a.readers.back() != i) a.readers.push_back(i);
          a.set_type = 0;
          break;
        case ompt_dependence_type_out:
        case ompt_dependence_type_inout:
          if (!a.readers.empty()) add(a.readers, DependenceKind::Anti);
          else add(a.writers, DependenceKind::Output);
          a.writers.assign(1, i);
          a.readers.clear();
          a.set_type = 0;
          break;
        case ompt_dependence_type_mutexinoutset:
        case ompt_dependence_type_inoutset:
          if (a.set_type != item.type) {
            a.set_after_readers = !a.readers.empty();
            a.set_waits_for = a.set_after_readers ? a.readers : a.writers;
            a.writers.clear();
            a.readers.clear();
            a.set_type = item.type;
          }
          add(a.set_waits_for, a.set_after_readers ? DependenceKind::Anti : DependenceKind::Output);
          if (a.writers.empty() || a.writers.back() != i) a.writers.push_back(i);
          break;
        default:  // source, sink: doacross loops, not task dependences
          break;
      }
    }
  }
  return out;
}

namespace {

bool is_wait(const SyncVisit& v) { return v.kind != SyncKind::Other; }

IntervalSet visits_of(const CompactVector<const SyncVisit*>& visits, std::vector<Interval>& scratch) {
  scratch.clear();
  for (const SyncVisit* v : visits) scratch.push_back({v->arrive, v->depart});
  return IntervalSet::of(scratch);
}

}  // namespace

namespace {

// A thread switched out for a scheduler's round (another process on its CPU, or the runtime's
// yield in an oversubscribed barrier) inside a body lengthens that body by the round: on a loaded
// machine one body in tens took 25 ms where the others took 80 µs (KASTORS jacobi), and the
// span, the longest chain, collected those rounds (parallelism 4.0 at 1 thread, 31 at 2, the
// same graph). The time is taken out of the bodies that show it, within what the kernel says the
// thread spent off the CPU in the instance.
void take_out_time_off_the_cpu(const RegionInstance& region, TaskNodes& g) {
  std::unordered_map<uint32_t, double> budget;  // log thread → its involuntary time off the CPU
  for (const ThreadInRegion& part : region.threads) {
    double off = part.task_visits().usage.off_cpu_s();  // counted only where switched out involuntarily
    if (part.usage().switches > 0) off += part.usage().off_cpu_s();
    if (off > 0) budget[part.thread] += off;
  }
  // Bodies the capture read at their edges (TaskFragment::off_cpu_s) lose what the kernel says
  // they spent switched out, whatever their number: coarse_tasks' 3 bodies have no median, and
  // one stretched from 84 to 129 ms beside a busy loop took the graph's parallelism under 2.
  // Their thread's budget pays for it; the rule below shares what is left among the others.
  std::vector<bool> measured(g.nodes.size(), false);
  for (size_t i = g.implicit_count; i < g.nodes.size(); ++i) {
    const TaskInstance* t = g.nodes[i].explicit_task;
    if (!t) continue;
    double off = 0;
    for (const TaskFragment& f : t->fragments) off += f.off_cpu_s;
    if (!(off > 0)) continue;
    measured[i] = true;
    IntervalSet& work = g.nodes[i].own_work;
    const double cut = std::min(off, work.total());
    work = work.first(work.total() - cut);
    g.off_cpu_taken[t->codeptr] += cut;
    for (const TaskFragment& f : t->fragments)
      if (auto b = budget.find(f.thread); b != budget.end()) b->second = std::max(0.0, b->second - f.off_cpu_s);
  }
  if (budget.empty()) return;
  std::unordered_map<uint64_t, std::vector<double>> bodies;  // construct → its leaf bodies
  const auto leaf_on_one_thread = [](const TaskNode& n) {
    const TaskInstance& t = *n.explicit_task;
    if (t.light || t.fragments.empty() || !n.children.empty() || !n.waits.empty()) return false;
    return std::all_of(t.fragments.begin(), t.fragments.end(),
                       [&](const TaskFragment& f) { return f.thread == t.fragments.front().thread; });
  };
  for (size_t i = g.implicit_count; i < g.nodes.size(); ++i)
    if (leaf_on_one_thread(g.nodes[i])) bodies[g.nodes[i].explicit_task->codeptr].push_back(g.nodes[i].own_work.total());
  std::unordered_map<uint64_t, double> median;
  for (auto& [site, list] : bodies) {
    if (list.size() < kMinBodiesForMedian) continue;
    auto mid = list.begin() + static_cast<std::ptrdiff_t>(list.size() / 2);
    std::nth_element(list.begin(), mid, list.end());
    median[site] = *mid;
  }
  struct Excess {
    size_t node;
    double excess;
  };
  std::unordered_map<uint32_t, std::vector<Excess>> on_thread;
  for (size_t i = g.implicit_count; i < g.nodes.size(); ++i) {
    const TaskNode& n = g.nodes[i];
    if (measured[i] || !leaf_on_one_thread(n)) continue;
    auto m = median.find(n.explicit_task->codeptr);
    if (m == median.end() || m->second <= 0) continue;
    const double body = n.own_work.total();
    if (body > kDescheduledBody * m->second) on_thread[n.explicit_task->fragments.front().thread].push_back({i, body - m->second});
  }
  for (auto& [thread, list] : on_thread) {
    auto b = budget.find(thread);
    if (b == budget.end()) continue;
    std::sort(list.begin(), list.end(), [](const Excess& x, const Excess& y) { return x.excess > y.excess; });
    for (const Excess& e : list) {
      if (b->second <= 0) break;
      const double cut = std::min(e.excess, b->second);
      IntervalSet& work = g.nodes[e.node].own_work;
      work = work.first(work.total() - cut);
      b->second -= cut;
      g.off_cpu_taken[g.nodes[e.node].explicit_task->codeptr] += cut;
    }
  }
}

// TaskNodes::by_id, or its dense table where the ids span at most a few times their count.
void index_by_id(TaskNodes& out) {
  if (out.by_id.empty()) return;
  const auto [low, high] = std::minmax_element(out.by_id.begin(), out.by_id.end());
  const size_t span = static_cast<size_t>(high->first - low->first) + 1;
  if (out.by_id.size() >= kDenseIdsFrom && span <= 4 * out.by_id.size()) {
    out.first_id = low->first;
    out.dense.assign(span, 0);
    for (const auto& [id, node] : out.by_id) out.dense[id - out.first_id] = node + 1;
    out.by_id.clear();
    return;
  }
  // Ids are unique: the order of equal ones never matters.
  std::sort(out.by_id.begin(), out.by_id.end());
}

}  // namespace

TaskNodes task_nodes(const RegionInstance& region, std::span<const TaskInstance* const> tasks) {
  TaskNodes out;
  out.nodes.reserve(region.threads.size() + tasks.size());
  out.by_id.reserve(region.threads.size() + tasks.size());
  const auto index = [&out](uint32_t id) {
    if (id != 0) out.by_id.emplace_back(id, static_cast<uint32_t>(out.nodes.size()));
  };
  for (const ThreadInRegion& part : region.threads) {
    index(part.implicit_task);
    out.nodes.emplace_back().implicit_part = &part;
  }
  out.implicit_count = out.nodes.size();
  // Each thread's list sized once: grown by doubling, a recursive tree's lists held up to twice
  // their fragments.
  // Counted in an array by log thread (fewer than kMaxThreadLogs): a hash map built per instance
  // was an allocation per thread of each of a repeated region's small graphs.
  thread_local std::vector<uint32_t> fragments_of;
  fragments_of.clear();
  for (const TaskInstance* t : tasks)
    for (const TaskFragment& f : t->fragments) {
      if (f.thread >= fragments_of.size()) fragments_of.resize(f.thread + 1, 0);
      ++fragments_of[f.thread];
    }
  for (uint32_t thread = 0; thread < fragments_of.size(); ++thread)
    if (fragments_of[thread] > 0) out.fragments_on_thread[thread].reserve(fragments_of[thread]);
  for (const TaskInstance* t : tasks) {
    // Made in place: a node built beside and moved in, then destroyed, was a third of this
    // function's time (BOTS health's sampled log: 37 500 nodes an instance).
    index(t->id);
    out.nodes.emplace_back().explicit_task = t;
    for (const TaskFragment& f : t->fragments)
      out.fragments_on_thread[f.thread].push_back(
          {f.begin, &f, static_cast<uint32_t>(out.nodes.size() - 1), &f == &t->fragments.front()});
  }
  // A thread's fragments come task by task in creation order: runs of tasks it ran one after
  // another (BOTS health: 44 000 fragments in 2 245 runs), merged rather than sorted again.
  for (auto& [thread, list] : out.fragments_on_thread)
    stable_sort_runs(list.begin(), list.end(), [](const PlacedFragment& a, const PlacedFragment& b) { return a.begin < b.begin; });
  index_by_id(out);

  // A visit belongs to the task that waits in it: an explicit task's taskwait may sit in any
  // thread's list (an untied task moves), the implicit task's visits in its own thread's list.
  for (const ThreadInRegion& part : region.threads) {
    for (const SyncVisit& v : part.syncs) {
      if (!is_wait(v)) continue;
      const uint32_t owner = v.task != 0 ? v.task : part.implicit_task;
      if (const size_t at = out.node_of(owner); at != TaskNodes::kNoNode) out.nodes[at].waits.push_back(&v);
    }
  }
  for (size_t i = out.implicit_count; i < out.nodes.size(); ++i) {
    const TaskInstance& t = *out.nodes[i].explicit_task;
    if (const size_t at = out.node_of(t.parent); at != TaskNodes::kNoNode) out.nodes[at].children.push_back(static_cast<uint32_t>(i));
  }
  // Dependences order siblings only: per creating task, its children in creation order.
  std::vector<const TaskInstance*> siblings;  // one buffer for every parent's
  for (TaskNode& parent : out.nodes) {
    std::stable_sort(parent.children.begin(), parent.children.end(), [&](size_t a, size_t b) {
      return out.nodes[a].explicit_task->created < out.nodes[b].explicit_task->created;
    });
    siblings.clear();
    bool any = false;
    for (size_t c : parent.children) {
      siblings.push_back(out.nodes[c].explicit_task);
      any = any || siblings.back()->has_edges();
    }
    if (!any) continue;
    const std::vector<std::vector<DependenceEdge>> edges = dependence_edges(siblings);
    for (size_t k = 0; k < parent.children.size(); ++k) {
      TaskNode& child = out.nodes[parent.children[k]];
      for (const DependenceEdge& e : edges[k]) child.after.push_back({parent.children[e.from], e.kind});
      for (uint32_t id : child.explicit_task->runtime_predecessors()) {
        const size_t at = out.node_of(id);
        if (at == TaskNodes::kNoNode || at == parent.children[k]) continue;
        const bool known = std::any_of(child.after.begin(), child.after.end(),
                                       [&](const DependenceEdge& e) { return e.from == at; });
        // A sibling created after it cannot be its predecessor in the ideal schedule's walk.
        if (!known && out.nodes[at].explicit_task != nullptr &&
            out.nodes[at].explicit_task->created <= child.explicit_task->created)
          child.after.push_back({static_cast<uint32_t>(at), DependenceKind::Runtime});
      }
    }
  }

  std::vector<Interval> scratch;  // one buffer for every node's intervals, not one per node
  for (TaskNode& n : out.nodes) {
    std::sort(n.waits.begin(), n.waits.end(), [](const SyncVisit* a, const SyncVisit* b) { return a->arrive < b->arrive; });
    if (n.explicit_task) {
      scratch.clear();
      for (const TaskFragment& f : n.explicit_task->fragments) scratch.push_back({f.begin, f.end});
      n.own_work = IntervalSet::of(scratch);
      if (!n.waits.empty()) n.own_work = n.own_work.minus(visits_of(n.waits, scratch));
    } else {
      const ThreadInRegion& part = *n.implicit_part;
      scratch.clear();  // explicit tasks ran on its thread
      if (auto it = out.fragments_on_thread.find(part.thread); it != out.fragments_on_thread.end())
        for (const PlacedFragment& f : it->second) scratch.push_back({f.fragment->begin, f.fragment->end});
      const IntervalSet suspended = IntervalSet::of(scratch);
      n.own_work = IntervalSet({{part.start, part.end}}).minus(suspended).minus(visits_of(n.waits, scratch));
    }
  }
  take_out_time_off_the_cpu(region, out);
  return out;
}

}  // namespace ompscope::analysis
