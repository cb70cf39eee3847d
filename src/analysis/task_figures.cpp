#include "analysis/task_figures.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>

#include "analysis/task_graph.h"
#include "analysis/task_work.h"

namespace ompscope::analysis {

double TaskFigures::dispatch_s() const {
  if (dispatch_gaps.empty()) return 0;
  std::vector<double> v = dispatch_gaps;
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double upper = v[mid];
  if (v.size() % 2) return upper;
  return 0.5 * (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)) + upper);
}

namespace {

IntervalSet waiting_of(const ThreadInRegion& part, const std::vector<PlacedFragment>* fragments) {
  std::vector<Interval> visits, running;
  for (const SyncVisit& v : part.syncs)
    if (v.kind != SyncKind::Other) visits.push_back({v.arrive, v.depart});
  if (fragments)
    for (const PlacedFragment& f : *fragments) running.push_back({f.fragment->begin, f.fragment->end});
  return IntervalSet(std::move(visits)).minus(IntervalSet(std::move(running)));
}

// The fragment on this thread that begins exactly where a stretch of waiting ends, if any.
const PlacedFragment* fragment_starting_at(const std::vector<PlacedFragment>* fragments, double at) {
  if (!fragments) return nullptr;
  auto it = std::lower_bound(fragments->begin(), fragments->end(), at,
                             [](const PlacedFragment& f, double v) { return f.fragment->begin < v; });
  return it != fragments->end() && it->fragment->begin == at ? &*it : nullptr;
}

// The fragment on this thread that ends exactly where a stretch of waiting begins, if any.
const PlacedFragment* fragment_ending_at(const std::vector<PlacedFragment>* fragments, double at) {
  if (!fragments) return nullptr;
  auto it = std::lower_bound(fragments->begin(), fragments->end(), at,
                             [](const PlacedFragment& f, double v) { return f.fragment->begin < v; });
  // Fragments on one thread do not overlap: the one ending at `at` began before it.
  while (it != fragments->begin()) {
    --it;
    if (it->fragment->end == at) return &*it;
    if (it->fragment->end < at) return nullptr;
  }
  return nullptr;
}

double fastest_creation_interval(const std::vector<const TaskInstance*>& tasks, const TaskNodes& nodes) {
  std::map<uint32_t, std::vector<const TaskInstance*>> by_creator;  // creating task → its creations
  for (const TaskInstance* t : tasks)
    if (!t->light) by_creator[t->parent].push_back(t);
  std::map<uint32_t, IntervalSet> running_on;  // log thread → explicit tasks it ran
  for (const auto& [thread, list] : nodes.fragments_on_thread) {
    std::vector<Interval> r;
    for (const PlacedFragment& f : list) r.push_back({f.fragment->begin, f.fragment->end});
    running_on[thread] = IntervalSet(std::move(r));
  }
  double fastest = -1;
  for (const auto& [creator, created] : by_creator) {
    for (size_t i = 1; i < created.size(); ++i) {
      const TaskInstance& a = *created[i - 1];
      const TaskInstance& b = *created[i];
      if (a.creator_thread != b.creator_thread) continue;  // an untied creator moved
      double interval = b.created - a.created;
      // Tasks the creator ran in between (libomp runs a new task at once when its queue is full)
      // are not creation.
      if (auto it = running_on.find(a.creator_thread); it != running_on.end())
        interval -= it->second.length_between(a.created, b.created);
      if (fastest < 0 || interval < fastest) fastest = interval;
    }
  }
  return fastest;
}

// Thread time left idle at the end when `bodies` are handed out in order to whichever of `team`
// threads is free first.
double list_schedule_idle(const std::vector<double>& bodies, size_t team) {
  std::vector<double> free_at(team, 0.0);  // a min-heap of the threads' next free moments
  double sum = 0, last_end = 0;
  for (double body : bodies) {
    std::pop_heap(free_at.begin(), free_at.end(), std::greater<>());
    free_at.back() += body;
    last_end = std::max(last_end, free_at.back());
    std::push_heap(free_at.begin(), free_at.end(), std::greater<>());
    sum += body;
  }
  return static_cast<double>(team) * last_end - sum;
}

// The larger of what the measured bodies give and what the task count gives with every body
// the median one: a thread slowed down by the machine can make unequal measured bodies balance
// by accident, never the count.
double end_idle(const TaskNodes& nodes, size_t team) {
  if (team == 0) return 0;
  std::vector<double> bodies;
  for (size_t i = nodes.implicit_count; i < nodes.nodes.size(); ++i) {
    const TaskInstance& t = *nodes.nodes[i].explicit_task;
    if (t.fragments.empty()) continue;
    const double body = nodes.nodes[i].own_work.total();
    if (t.light)
      bodies.insert(bodies.end(), t.light, body / t.light);  // the batch's tasks, each the mean body
    else
      bodies.push_back(body);
  }
  if (bodies.empty()) return 0;
  std::vector<double> sorted = bodies;
  std::sort(sorted.begin(), sorted.end());
  const size_t n = sorted.size();
  const double median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  const double rounds = std::ceil(static_cast<double>(n) / static_cast<double>(team));
  const double by_count = (static_cast<double>(team) * rounds - static_cast<double>(n)) * median;
  return std::max(list_schedule_idle(bodies, team), by_count);
}

}  // namespace

TaskFigures task_figures(const RegionInstance& region, const std::vector<const TaskInstance*>& tasks) {
  TaskFigures out;
  if (tasks.empty()) return out;
  const TaskNodes nodes = task_nodes(region, tasks);
  const TaskGraphSize graph = task_graph_size(nodes);
  out.work_s = graph.work_s;
  out.span_s = graph.span_s;
  out.thread_time_s = static_cast<double>(region.threads.size()) * (region.end - region.begin);
  out.creation_interval_s = fastest_creation_interval(tasks, nodes);
  out.end_idle_s = end_idle(nodes, region.threads.size());
  out.graph_idle_s = std::max(0.0, static_cast<double>(region.threads.size()) * graph.span_s - graph.work_s);
  const TaskNode* creator = nullptr;
  for (const TaskNode& n : nodes.nodes)
    if (!n.children.empty() && (creator == nullptr || n.children.size() > creator->children.size())) creator = &n;
  if (creator != nullptr) {
    const TaskInstance& last = *nodes.nodes[creator->children.back()].explicit_task;
    out.creation_chain_s = creator->own_work.length_between(-std::numeric_limits<double>::infinity(), last.created);
    for (size_t c : creator->children) out.chain_tasks += nodes.nodes[c].explicit_task->weight;
  }

  double last_creation = -std::numeric_limits<double>::infinity();
  double last_start = last_creation, last_end = last_creation;
  std::set<uint32_t> creators;
  for (size_t i = nodes.implicit_count; i < nodes.nodes.size(); ++i) {
    const TaskNode& n = nodes.nodes[i];
    const TaskInstance& t = *n.explicit_task;
    if (!t.light) {
      creators.insert(t.creator_thread);
      last_creation = std::max(last_creation, t.created);
    }
    if (t.fragments.empty()) continue;
    out.tasks += t.count();
    if (!t.light) ++out.recorded_tasks;
    out.hidden_subtree_tasks += t.light_children;
    out.body_s += n.own_work.total();
    last_start = std::max(last_start, t.fragments.front().begin);
    for (const TaskFragment& f : t.fragments) last_end = std::max(last_end, f.end);
  }
  out.creating_threads = static_cast<uint32_t>(creators.size());

  for (const ThreadInRegion& part : region.threads) {
    auto it = nodes.fragments_on_thread.find(part.thread);
    const std::vector<PlacedFragment>* fragments = it == nodes.fragments_on_thread.end() ? nullptr : &it->second;
    const IntervalSet waiting = waiting_of(part, fragments);
    out.tail_idle_s += waiting.length_between(last_start, last_end);
    for (const Interval& w : waiting.intervals()) {
      const PlacedFragment* next = fragment_starting_at(fragments, w.end);
      // Around a batch of light tasks the waiting is only known in sum: the dispatches between
      // its tasks all follow its estimated fragment. None of it is a dispatch gap; a stretch
      // ending in a batch is not classified at all (its task's creation is unknown).
      const PlacedFragment* before = fragment_ending_at(fragments, w.begin);
      const bool after_batch = before != nullptr && before->task->light;
      if (next == nullptr) {
        out.starvation_s += std::max(0.0, std::min(w.end, last_creation) - w.begin);
      } else if (next->starts_task && !next->task->light) {
        const double created = next->task->created;
        if (created > w.begin)
          out.starvation_s += std::min(w.end, created) - w.begin;
        else if (!after_batch)
          out.dispatch_gaps.push_back(w.end - w.begin);
      }
    }
  }
  return out;
}

void add_task_figures(TaskFigures& into, const TaskFigures& s) {
  into.tasks += s.tasks;
  into.recorded_tasks += s.recorded_tasks;
  into.hidden_subtree_tasks += s.hidden_subtree_tasks;
  into.body_s += s.body_s;
  into.thread_time_s += s.thread_time_s;
  into.work_s += s.work_s;
  into.span_s += s.span_s;
  into.dispatch_gaps.insert(into.dispatch_gaps.end(), s.dispatch_gaps.begin(), s.dispatch_gaps.end());
  if (s.creation_interval_s >= 0 && (into.creation_interval_s < 0 || s.creation_interval_s < into.creation_interval_s))
    into.creation_interval_s = s.creation_interval_s;
  into.starvation_s += s.starvation_s;
  into.tail_idle_s += s.tail_idle_s;
  into.end_idle_s += s.end_idle_s;
  into.creation_chain_s += s.creation_chain_s;
  into.chain_tasks += s.chain_tasks;
  into.graph_idle_s += s.graph_idle_s;
  into.creating_threads = std::max(into.creating_threads, s.creating_threads);
}

}  // namespace ompscope::analysis
