#include "analysis/task_figures.h"

#include <omp-tools.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <iterator>
#include <limits>
#include <unordered_map>

#include "analysis/statistics.h"
#include "analysis/task_graph.h"
#include "analysis/task_replay.h"
#include "analysis/task_work.h"

namespace ompscope::analysis {

double TaskFigures::dispatch_s() const { return median(dispatch_gaps()); }

// A run's sites are by code address until analyze_run names them, then by name: either holds them.
std::vector<double> TaskFigures::pooled(std::vector<double> SiteFigures::*samples) const {
  std::vector<double> out;
  out.reserve(count(samples));
  for (const auto& [code, site] : sites_by_code) out.insert(out.end(), (site.*samples).begin(), (site.*samples).end());
  for (const auto& [name, site] : sites) out.insert(out.end(), (site.*samples).begin(), (site.*samples).end());
  return out;
}

size_t TaskFigures::count(std::vector<double> SiteFigures::*samples) const {
  size_t n = 0;
  for (const auto& [code, site] : sites_by_code) n += (site.*samples).size();
  for (const auto& [name, site] : sites) n += (site.*samples).size();
  return n;
}

namespace {

// The thread waits inside its syncs (the implicit task's barriers, an explicit task's taskwaits)
// whenever no explicit task does its own work on it: a task suspended in its own taskwait does
// none.
IntervalSet waiting_of(const ThreadInRegion& part, const std::vector<PlacedFragment>* fragments, const TaskNodes& nodes) {
  std::vector<Interval> visits, running;
  for (const SyncVisit& v : part.syncs)
    if (v.kind != SyncKind::Other) visits.push_back({v.arrive, v.depart});
  if (fragments)
    for (const PlacedFragment& f : *fragments) {
      const TaskNode& n = nodes.nodes[f.node];
      if (n.waits.empty()) {
        running.push_back({f.fragment->begin, f.fragment->end});
        continue;
      }
      // Its own work within this fragment: the intervals are sorted and apart, so those that
      // overlap it follow the first that ends after its begin (a task that waited in thousands of
      // taskwaits has thousands of both: walking all of them per fragment was half of a report).
      const std::span<const IntervalSet::Piece> own = n.own_work.intervals();
      auto w = std::upper_bound(own.begin(), own.end(), f.fragment->begin,
                                [](double at, const Interval& i) { return at < i.end; });
      for (; w != own.end() && w->begin < f.fragment->end; ++w)
        running.push_back({std::max(w->begin, f.fragment->begin), std::min(w->end, f.fragment->end)});
    }
  return IntervalSet(std::move(visits)).minus(IntervalSet(std::move(running)));
}

// A site's figures by its code address, the last one looked up kept: a construct's tasks come in
// runs, and a hash lookup per task was a fifth of graph_figures in a recursive tree. The map's
// entries stay where they are as others are added (node-based), so the kept one stays valid.
class SiteCursor {
 public:
  explicit SiteCursor(std::unordered_map<uint64_t, SiteFigures>& sites) : sites_(sites) {}
  SiteFigures& operator[](uint64_t code) {
    if (last_ == nullptr || code != code_) last_ = &sites_[code_ = code];
    return *last_;
  }

 private:
  std::unordered_map<uint64_t, SiteFigures>& sites_;
  SiteFigures* last_ = nullptr;
  uint64_t code_ = 0;
};

// A thread's fragments (by begin) looked up at moments that only grow: the stretches of its
// waiting, in order. A cursor that moves forward, where a binary search per stretch missed the
// cache at each of its steps (a recursive tree's 125 000 fragments per thread).
class FragmentCursor {
 public:
  explicit FragmentCursor(const std::vector<PlacedFragment>* fragments) : fragments_(fragments) {}
  // The fragment on this thread that begins exactly at `at`, if any.
  const PlacedFragment* starting_at(double at) {
    const size_t i = first_from(at);
    return i < size() && (*fragments_)[i].begin == at ? &(*fragments_)[i] : nullptr;
  }
  // The fragment on this thread that ends exactly at `at`, if any. Fragments on one thread do
  // not overlap: the one ending at `at` began before it.
  const PlacedFragment* ending_at(double at) {
    for (size_t i = first_from(at); i > 0;) {
      const PlacedFragment& f = (*fragments_)[--i];
      if (f.fragment->end == at) return &f;
      if (f.fragment->end < at) return nullptr;
    }
    return nullptr;
  }

 private:
  size_t size() const { return fragments_ ? fragments_->size() : 0; }
  // The first fragment that begins at or after `at`, `at` no smaller than at the call before.
  size_t first_from(double at) {
    while (next_ < size() && (*fragments_)[next_].begin < at) ++next_;
    return next_;
  }
  const std::vector<PlacedFragment>* fragments_;
  size_t next_ = 0;
};

// Intervals between two creations by one task during which it did its own work and nothing else
// (ran no task, waited in no taskwait): each is one creation call plus the program's code between
// the two task constructs, an upper bound of the creation cost (divided among the creations the
// second record stands for, under adaptive sampling), given to the second task's site.
void add_creation_gaps(const TaskNodes& nodes, std::unordered_map<uint64_t, SiteFigures>& by_code) {
  SiteCursor sites(by_code);
  for (const TaskNode& n : nodes.nodes) {
    for (size_t i = 1; i < n.children.size(); ++i) {
      const TaskInstance& a = *nodes.nodes[n.children[i - 1]].explicit_task;
      const TaskInstance& b = *nodes.nodes[n.children[i]].explicit_task;
      if (a.light || b.light || a.creator_thread != b.creator_thread) continue;  // an untied creator moved
      const double interval = b.created - a.created;
      // b stands for itself and the light creations since a (adaptive sampling): as many calls.
      if (interval > 0 && n.own_work.length_between(a.created, b.created) >= interval * (1 - 1e-9))
        sites[b.codeptr].creation_gaps.push_back(interval / b.weight);
    }
  }
}

// Creation → start of the tasks that started on their creator's thread while the creator did
// its own work until then (it switched to the new task at once) and created nothing else.
std::vector<double> immediate_starts(const TaskNodes& nodes) {
  // Log thread → its creations, in time order. Indexed by the thread (a log's are numbered from
  // 0): a tree map's lookup per task was a sixth of graph_figures' time in a recursive tree.
  std::vector<std::vector<double>> created_on;
  for (size_t i = nodes.implicit_count; i < nodes.nodes.size(); ++i) {
    const TaskInstance& t = *nodes.nodes[i].explicit_task;
    if (t.light) continue;
    if (created_on.size() <= t.creator_thread) created_on.resize(t.creator_thread + 1);
    created_on[t.creator_thread].push_back(t.created);
  }
  for (std::vector<double>& times : created_on) std::sort(times.begin(), times.end());
  std::vector<double> out;
  for (size_t i = nodes.implicit_count; i < nodes.nodes.size(); ++i) {
    const TaskInstance& t = *nodes.nodes[i].explicit_task;
    if (t.light || t.fragments.empty() || t.fragments.front().thread != t.creator_thread) continue;
    const double start = t.fragments.front().begin;
    if (start < t.created) continue;
    const std::vector<double>& times = created_on[t.creator_thread];
    if (auto next = std::upper_bound(times.begin(), times.end(), t.created); next != times.end() && *next < start)
      continue;  // the creator created another task before this one started
    const size_t creator = nodes.node_of(t.parent);
    if (creator == TaskNodes::kNoNode) continue;
    if (nodes.nodes[creator].own_work.length_between(t.created, start) >= (start - t.created) * (1 - 1e-9))
      out.push_back(start - t.created);
  }
  return out;
}

// The innermost wait (barrier, taskwait or taskgroup) on one thread around each stretch of
// waiting, the stretches asked in time order: visits on a thread nest, so a stack swept along them
// holds the open ones.
class InnermostVisit {
 public:
  explicit InnermostVisit(const ThreadInRegion& part) {
    for (const SyncVisit& v : part.syncs)
      if (v.kind != SyncKind::Other) visits_.push_back(&v);
    std::stable_sort(visits_.begin(), visits_.end(),
                     [](const SyncVisit* a, const SyncVisit* b) { return a->arrive < b->arrive; });
  }
  const SyncVisit* around(const Interval& w) {
    for (; next_ < visits_.size() && visits_[next_]->arrive <= w.begin; ++next_) open_.push_back(visits_[next_]);
    while (!open_.empty() && open_.back()->depart < w.end) open_.pop_back();
    return open_.empty() ? nullptr : open_.back();
  }

 private:
  std::vector<const SyncVisit*> visits_, open_;
  size_t next_ = 0;
};

// An explicit task's own taskwaits on one thread, looked up by the moment they end (the last
// one listed where two end together). A sorted array: the hash map it replaces cost a cache miss
// per stretch of waiting.
class TaskwaitsByEnd {
 public:
  explicit TaskwaitsByEnd(const ThreadInRegion& part) {
    for (const SyncVisit& v : part.syncs)
      if (v.kind == SyncKind::Taskwait && v.task != 0) by_end_.push_back(&v);
    std::stable_sort(by_end_.begin(), by_end_.end(), [](const SyncVisit* a, const SyncVisit* b) { return a->depart < b->depart; });
  }
  const SyncVisit* find(double end) const {
    auto it = std::upper_bound(by_end_.begin(), by_end_.end(), end, [](double e, const SyncVisit* v) { return e < v->depart; });
    return it != by_end_.begin() && (*std::prev(it))->depart == end ? *std::prev(it) : nullptr;
  }

 private:
  std::vector<const SyncVisit*> by_end_;
};

// Of a task's children created before a moment: whether every one completed, and the last
// completion among them. A node's children are sorted by creation (task_nodes), so they are a
// prefix: read in place for a task of few children, found by binary search in running figures
// built once for a task of many that waits (walking all the children at each of its taskwaits was
// quadratic in a task that waits after each creation).
class ChildrenBefore {
 public:
  explicit ChildrenBefore(const TaskNodes& nodes) : nodes_(nodes), first_(nodes.nodes.size(), kUnbuilt) {}
  std::pair<bool, double> done_and_last(const TaskNode& owner, double before) {
    if (owner.children.size() <= kScannedChildren) {  // read in place: no prefixes held for them
      bool done = true;
      double last = -std::numeric_limits<double>::infinity();
      for (size_t c : owner.children) {
        const TaskInstance& child = *nodes_.nodes[c].explicit_task;
        if (!(child.created < before)) break;
        done = done && child.completed >= 0;
        last = std::max(last, child.completed);
      }
      return {done, last};
    }
    uint32_t& first = first_[static_cast<size_t>(&owner - nodes_.nodes.data())];
    if (first == kUnbuilt) {
      first = static_cast<uint32_t>(prefixes_.size());
      bool done = true;
      double last = -std::numeric_limits<double>::infinity();
      for (size_t c : owner.children) {
        const TaskInstance& child = *nodes_.nodes[c].explicit_task;
        done = done && child.completed >= 0;
        last = std::max(last, child.completed);
        prefixes_.push_back({child.created, done, last});
      }
    }
    const auto begin = prefixes_.begin() + first;
    const auto end = std::lower_bound(begin, begin + static_cast<std::ptrdiff_t>(owner.children.size()), before,
                                      [](const Prefix& p, double at) { return p.created < at; });
    if (end == begin) return {true, -std::numeric_limits<double>::infinity()};
    return {std::prev(end)->done, std::prev(end)->last};
  }

 private:
  struct Prefix {
    double created;
    bool done;    // every child up to this one completed
    double last;  // the last completion among them
  };
  static constexpr uint32_t kUnbuilt = UINT32_MAX;
  // A task with this many children or fewer has them read at each of its waits: a recursive
  // tree's two children a task held 24 bytes each in prefixes (fib_tasks 27: 15 MB).
  static constexpr size_t kScannedChildren = 16;
  const TaskNodes& nodes_;
  // Each waiting node's prefixes, built at its first wait, one after another in one array, and
  // where each node's begin (a hash map cost a miss per lookup): a vector per node, 24 bytes each
  // and a block for each node that waited, held fib_tasks 25's report 6 MB higher (242 786 nodes,
  // 162 -> 156 MB).
  std::vector<Prefix> prefixes_;
  std::vector<uint32_t> first_;
};

// Whether a stretch of waiting inside `around` that ends in the start of `next` waited under the
// task scheduling constraint: `around` is a tied task's own taskwait (or taskgroup) and `next` came
// from another thread's queue. Such a task may take only its own descendants: libomp tries the
// head of the other thread's queue and spins while that head is not one, so the stretch is
// waiting for an allowed task, not the runtime's cost of handing one out (BOTS strassen at 2
// threads: a median gap of 34.8 µs beside 77 µs bodies read as a dispatch cost). A task from the
// thread's own queue is one it pops at once; in a barrier every task is allowed.
bool constrained_steal(const ThreadInRegion& part, const SyncVisit* around, const TaskInstance& next,
                       const TaskNodes& nodes) {
  if (around == nullptr || around->task == 0 || next.creator_thread == part.thread) return false;
  const TaskNode* owner = nodes.explicit_node(around->task);
  return owner == nullptr || (owner->explicit_task->flags & ompt_task_untied) == 0;
}

// Depth of every explicit node (1: created by an implicit task); 0 for light batches.
std::vector<size_t> depths_of(const TaskNodes& nodes) {
  std::vector<size_t> depth(nodes.nodes.size(), 0);
  std::vector<size_t> stack;
  for (size_t i = 0; i < nodes.implicit_count; ++i) stack.push_back(i);
  while (!stack.empty()) {
    const size_t n = stack.back();
    stack.pop_back();
    for (size_t c : nodes.nodes[n].children) {
      if (nodes.nodes[c].explicit_task->light) continue;
      depth[c] = depth[n] + 1;
      stack.push_back(c);
    }
  }
  return depth;
}

// The median of the bodies the runs stand for, as median() gives it over them one by one.
double median_body(std::vector<BodyRun> runs, uint64_t n) {
  const uint64_t mid = n / 2;
  if (n % 2) return body_at_rank(runs, mid);
  const double lower = body_at_rank(runs, mid - 1);
  return 0.5 * (lower + body_at_rank(runs, mid));
}

// The larger of what the measured bodies give and what the task count gives with every body
// the median one: a thread slowed down by the machine can make unequal measured bodies balance
// by accident, never the count.
double end_idle(const TaskNodes& nodes, size_t team) {
  if (team == 0) return 0;
  std::vector<BodyRun> runs;
  uint64_t n = 0;
  for (size_t i = nodes.implicit_count; i < nodes.nodes.size(); ++i) {
    const TaskInstance& t = *nodes.nodes[i].explicit_task;
    if (t.fragments.empty()) continue;
    const double body = nodes.nodes[i].own_work.total();
    if (t.light)
      runs.push_back({body / t.light, t.light});  // the batch's tasks, each the mean body
    else
      runs.push_back({body, 1});
    n += runs.back().count;
  }
  if (n == 0) return 0;
  const double rounds = std::ceil(static_cast<double>(n) / static_cast<double>(team));
  const double by_count = (static_cast<double>(team) * rounds - static_cast<double>(n)) * median_body(runs, n);
  return std::max(list_schedule_idle(runs, team), by_count);
}

// Every figure of the instance's graph but the replays' (task_figures).
void graph_figures(const RegionInstance& region, const TaskNodes& nodes, TaskFigures& out) {
  const TaskGraphSize graph = task_graph_size(nodes);
  out.work_s = graph.work_s;
  out.span_s = graph.span_s;
  out.thread_time_s = static_cast<double>(region.threads.size()) * (region.end - region.begin);
  add_creation_gaps(nodes, out.sites_by_code);
  out.immediate_starts = immediate_starts(nodes);
  out.end_idle_s = end_idle(nodes, region.threads.size());
  out.graph_idle_s = std::max(0.0, static_cast<double>(region.threads.size()) * graph.span_s - graph.work_s);
  out.dependence_edges = graph.dependence_edges;
  out.dependence_path_s = graph.dependence_path_s;
  out.dependence_path_tasks = static_cast<double>(graph.dependence_path.size());
  if (!graph.dependence_path.empty()) {
    const TaskInstance& first = *nodes.nodes[graph.dependence_path.front()].explicit_task;
    const TaskInstance& last = *nodes.nodes[graph.dependence_path.back()].explicit_task;
    if (!first.fragments.empty() && !last.fragments.empty())
      out.dependence_path_measured_s = std::max(0.0, last.fragments.back().end - first.fragments.front().begin);
  }
  for (DependenceKind k : graph.dependence_path_kinds) out.dependence_path_output_edges += k == DependenceKind::Output;
  for (size_t i = 0; i < graph.dependence_path.size(); ++i) {
    const TaskInstance& t = *nodes.nodes[graph.dependence_path[i]].explicit_task;
    auto it = std::find_if(out.path_sites.begin(), out.path_sites.end(),
                           [&](const PathSite& p) { return p.codeptr == t.codeptr; });
    if (it == out.path_sites.end()) it = out.path_sites.insert(out.path_sites.end(), PathSite{t.codeptr, {}, 0, 0});
    it->tasks += 1;
    it->time_s += graph.dependence_path_durations[i];
  }
  // The path's tasks: a thread that waited for one of them to become ready was starved by the path.
  std::vector<bool> on_path(nodes.nodes.size(), false);
  for (size_t i : graph.dependence_path) on_path[i] = true;
  const TaskNode* creator = nullptr;
  for (const TaskNode& n : nodes.nodes)
    if (!n.children.empty() && (creator == nullptr || n.children.size() > creator->children.size())) creator = &n;
  if (creator != nullptr) {
    const TaskInstance& last = *nodes.nodes[creator->children.back()].explicit_task;
    out.creation_chain_s = creator->own_work.length_between(-std::numeric_limits<double>::infinity(), last.created);
    for (size_t c : creator->children) out.chain_tasks += nodes.nodes[c].explicit_task->weight;
  }

  const std::vector<size_t> depth = depths_of(nodes);
  for (const auto& [code, taken] : nodes.off_cpu_taken) out.sites_by_code[code].off_cpu_taken_s += taken;
  SiteCursor sites(out.sites_by_code);
  for (size_t i = nodes.implicit_count; i < nodes.nodes.size(); ++i) {
    const TaskNode& n = nodes.nodes[i];
    if (!n.explicit_task->light && !n.explicit_task->fragments.empty()) {
      SiteFigures& site = sites[n.explicit_task->codeptr];
      site.recorded += 1;
      site.own_work_s += n.own_work.total();
      site.depend_items += static_cast<double>(n.explicit_task->depends().size());
    }
    if (depth[i] == 0 || n.explicit_task->fragments.empty()) continue;
    if (out.depths.size() < depth[i]) out.depths.resize(depth[i]);
    DepthFigures& d = out.depths[depth[i] - 1];
    d.tasks += n.explicit_task->weight;
    d.recorded += 1;
    d.own_work_s += n.own_work.total();
    d.waiting += n.waits.empty() ? 0 : 1;
    d.parents += n.children.empty() ? 0 : 1;
    d.unknown_children += n.children.empty() && !n.waits.empty() ? 1 : 0;
    if (n.children.empty() && n.waits.empty() && n.explicit_task->light_children == 0) {
      d.leaves += 1;
      d.leaf_own_work_s += n.own_work.total();
    }
  }

  double last_creation = -std::numeric_limits<double>::infinity();
  double last_start = last_creation, last_end = last_creation;
  std::vector<bool> creates;  // by log thread: it created a recorded task
  uint32_t creators = 0;
  for (size_t i = nodes.implicit_count; i < nodes.nodes.size(); ++i) {
    const TaskNode& n = nodes.nodes[i];
    const TaskInstance& t = *n.explicit_task;
    if (!t.light) {
      if (creates.size() <= t.creator_thread) creates.resize(t.creator_thread + 1, false);
      creators += creates[t.creator_thread] ? 0 : 1;
      creates[t.creator_thread] = true;
      last_creation = std::max(last_creation, t.created);
    }
    if (t.fragments.empty()) continue;
    out.tasks_with_depends += t.depends().empty() ? 0 : 1;
    out.tasks += t.count();
    if (!t.light) ++out.recorded_tasks;
    out.hidden_subtree_tasks += t.light_children;
    out.body_s += n.own_work.total();
    last_start = std::max(last_start, t.fragments.front().begin);
    for (const TaskFragment& f : t.fragments) last_end = std::max(last_end, f.end);
  }
  out.creating_threads = creators;

  ChildrenBefore children_before(nodes);
  for (const ThreadInRegion& part : region.threads) {
    auto it = nodes.fragments_on_thread.find(part.thread);
    const std::vector<PlacedFragment>* fragments = it == nodes.fragments_on_thread.end() ? nullptr : &it->second;
    const IntervalSet waiting = waiting_of(part, fragments, nodes);
    out.tail_idle_s += waiting.length_between(last_start, last_end);
    TaskwaitsByEnd taskwait_ending_at(part);
    InnermostVisit innermost(part);
    // The stretches are sorted and apart: their ends, and their begins, only grow.
    FragmentCursor by_end(fragments), by_begin(fragments);
    for (const Interval& w : waiting.intervals()) {
      const SyncVisit* around = innermost.around(w);
      const PlacedFragment* next = by_end.starting_at(w.end);
      // Around a batch of light tasks the waiting is only known in sum: the dispatches between
      // its tasks all follow its estimated fragment. None of it is a dispatch gap; a stretch
      // ending in a batch is not classified at all (its task's creation is unknown).
      const PlacedFragment* before = by_begin.ending_at(w.begin);
      const bool after_batch = before != nullptr && nodes.nodes[before->node].explicit_task->light;
      if (next != nullptr && next->starts_task) {
        const TaskInstance& task = *nodes.nodes[next->node].explicit_task;
        if (task.light) continue;
        const double created = task.created;
        // A task that waited for its predecessors was ready when the last of them completed:
        // until then the stretch waited for the dependences, not for the runtime.
        double ready = created;
        for (const DependenceEdge& e : nodes.nodes[next->node].after)
          ready = std::max(ready, nodes.nodes[e.from].explicit_task->completed);
        if (created > w.begin) out.starvation_s += std::min(w.end, created) - w.begin;
        if (ready > std::max(created, w.begin)) {
          const double waited = std::min(w.end, ready) - std::max(created, w.begin);
          out.dependence_wait_s += waited;
          if (on_path[next->node]) out.dependence_path_wait_s += waited;
          // The thread waited through the release: from the last predecessor's completion to
          // this start, the runtime released the dependence and handed the task over.
          if (ready < w.end) sites[task.codeptr].release_gaps.push_back(w.end - ready);
        } else if (created <= w.begin && !after_batch && !constrained_steal(part, around, task, nodes)) {
          sites[task.codeptr].dispatch_gaps.push_back(w.end - w.begin);
        }
        continue;
      }
      if (const SyncVisit* tw = taskwait_ending_at.find(w.end)) {
        // The waiting task resumes its own work: the stretch is the taskwait's cost if its
        // children had all completed before it began (else it waited for a child on another thread).
        const SyncVisit& v = *tw;
        const TaskNode* owner = nodes.explicit_node(v.task);
        if (owner == nullptr || after_batch) continue;
        const auto [done, last_child] = children_before.done_and_last(*owner, v.arrive);
        if (done && last_child <= w.begin) out.taskwait_gaps.push_back(w.end - w.begin);
        continue;
      }
      if (next == nullptr) out.starvation_s += std::max(0.0, std::min(w.end, last_creation) - w.begin);
    }
  }

  // The replay's cost per task start: at one thread, all of the instance's time that is no task's
  // own work (so that the replay at the recorded count gives the recorded time); with more, where
  // threads also wait idle, the median gap between one task and the next on a thread.
  const size_t team = region.threads.size();
  out.replay_per_task_s = team == 1 && out.recorded_tasks > 0
                              ? std::max(0.0, (region.end - region.begin) - graph.work_s) / static_cast<double>(out.recorded_tasks)
                              : out.dispatch_s();
}

}  // namespace

// A batch's `count` bodies of `body` each handed out, each to the thread free first, in bulk: the
// earliest thread takes bodies until it is past the next one, and once every thread is within
// one body of the others they take one each in turn, a round at a time. Which thread takes a body
// where two are free at once does not change the moments they end at, so the threads' moments
// (kept sorted here) are those of handing the bodies out one by one, but in steps a thread's
// count, not the bodies': a sampled run's batches stand for millions of light tasks (fib_tasks 30:
// 1.6 M), and one step per task was half of its analysis. `last_end`: the latest end so far.
static void hand_out_batch(std::vector<double>& free_at, double body, uint64_t count, double& last_end) {
  std::sort(free_at.begin(), free_at.end());
  const size_t team = free_at.size();
  if (body <= 0 || team == 1) {
    free_at[0] += static_cast<double>(count) * std::max(0.0, body);
    last_end = std::max(last_end, free_at[0]);
    return;
  }
  const auto settle_first = [&free_at] {  // the first moment back in its sorted place
    for (size_t i = 0; i + 1 < free_at.size() && free_at[i] > free_at[i + 1]; ++i) std::swap(free_at[i], free_at[i + 1]);
  };
  while (count > 0) {
    if (free_at.back() - free_at.front() <= body) {
      const uint64_t rounds = count / team, rest = count % team;
      for (size_t i = 0; i < team; ++i) {
        free_at[i] += static_cast<double>(rounds + (i < rest ? 1 : 0)) * body;
        if (rounds > 0 || i < rest) last_end = std::max(last_end, free_at[i]);
      }
      std::sort(free_at.begin(), free_at.end());
      return;
    }
    const double behind = std::floor((free_at[1] - free_at[0]) / body) + 1;
    const uint64_t k = behind >= static_cast<double>(count) ? count : static_cast<uint64_t>(behind);
    free_at[0] += static_cast<double>(k) * body;
    last_end = std::max(last_end, free_at[0]);
    count -= k;
    settle_first();
  }
}

// Its runs of the side the rank is in are kept, split around a pivot into smaller, equal and larger.
double body_at_rank(std::vector<BodyRun>& runs, uint64_t rank) {
  auto first = runs.begin(), last = runs.end();
  while (last - first > 16) {
    const double a = first->body, b = first[(last - first) / 2].body, c = last[-1].body;
    const double pivot = std::max(std::min(a, b), std::min(std::max(a, b), c));  // median of three
    const auto equal = std::partition(first, last, [pivot](const BodyRun& r) { return r.body < pivot; });
    const auto larger = std::partition(equal, last, [pivot](const BodyRun& r) { return !(pivot < r.body); });
    uint64_t below = 0, at = 0;
    for (auto it = first; it != equal; ++it) below += it->count;
    for (auto it = equal; it != larger; ++it) at += it->count;
    if (rank < below) {
      last = equal;
    } else if (rank < below + at) {
      return pivot;
    } else {
      rank -= below + at;
      first = larger;
    }
  }
  std::sort(first, last, [](const BodyRun& x, const BodyRun& y) { return x.body < y.body; });
  for (auto it = first; it != last; ++it) {
    if (rank < it->count) return it->body;
    rank -= it->count;
  }
  return runs.empty() ? 0.0 : (last - 1)->body;
}

// The earliest is found by a scan for a team of up to 8 (a heap's pop and push per task was most
// of this on a team of two), by a min-heap beyond; a batch of light tasks is handed out in bulk
// (hand_out_batch).
double list_schedule_idle(const std::vector<BodyRun>& runs, size_t team) {
  std::vector<double> free_at(team, 0.0);  // the threads' next free moments
  const bool heap = team > 8;
  double sum = 0, last_end = 0;
  for (const BodyRun& r : runs) {
    if (r.count > 1) {
      hand_out_batch(free_at, r.body, r.count, last_end);  // sorted: a min-heap as well
      sum += r.body * static_cast<double>(r.count);
      continue;
    }
    if (heap) std::pop_heap(free_at.begin(), free_at.end(), std::greater<>());  // the earliest to the back
    double& at = heap ? free_at.back() : *std::min_element(free_at.begin(), free_at.end());
    at += r.body;
    last_end = std::max(last_end, at);
    if (heap) std::push_heap(free_at.begin(), free_at.end(), std::greater<>());
    sum += r.body;
  }
  return static_cast<double>(team) * last_end - sum;
}

TaskFigures task_figures(const RegionInstance& region, std::span<const TaskInstance* const> tasks,
                         const ReplayOptions& replay) {
  TaskFigures out;
  if (tasks.empty()) return out;
  const ReplayScripts* scripts = nullptr;
  {
    const TaskNodes nodes = task_nodes(region, tasks);
    graph_figures(region, nodes, out);
    if (replay.replay) scripts = replay_scripts(nodes);
  }  // the graph and its figures' tables go before the replays run: they are most of a recursive tree's memory
  const size_t team = region.threads.size();
  // The team's size, then each power of two above it.
  std::vector<int> counts;
  for (int t = static_cast<int>(team); t <= kReplayMaxThreads; t = static_cast<int>(std::bit_ceil(static_cast<unsigned>(t) + 1)))
    counts.push_back(t);
  out.task_instances = 1;
  out.task_instances_wall_s = region.end - region.begin;
  if (!replay.replay) return out;
  // A team of one ran every task at once in its creator (libomp and libgomp alike): on more
  // threads each is queued, stolen and waited for, which the bench measured (task_tree).
  if (scripts != nullptr)
    for (const auto& [t, replayed] : replay_instance(*scripts, counts, out.replay_per_task_s,
                                                     team == 1 ? replay.deferred_task_s : 0.0, replay.workers)) {
      out.replay_s[t] = replayed.time_s;
      out.replay_body_s[t] = replayed.body_s;
    }
  out.replay_incomplete = out.replay_s.empty();
  out.replayed_instances = out.replay_incomplete ? 0 : 1;
  out.replayed_wall_s = out.replay_incomplete ? 0.0 : out.task_instances_wall_s;
  return out;
}

bool replayed_in_sample(size_t index, size_t instances) {
  if (instances <= kReplayedInstances) return true;
  const size_t block = (instances + kReplayedInstances - 1) / kReplayedInstances;
  const size_t number = index / block, first = number * block;
  const size_t length = std::min(block, instances - first);
  uint64_t z = static_cast<uint64_t>(number) + 0x9E3779B97F4A7C15ull;  // splitmix64
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return index - first == z % length;
}

void scale_replay_to_all(TaskFigures& figures) {
  if (figures.replayed_instances >= figures.task_instances || figures.replay_s.empty() || !(figures.replayed_wall_s > 0))
    return;
  const double factor = figures.task_instances_wall_s / figures.replayed_wall_s;
  for (auto& [t, time] : figures.replay_s) time *= factor;
  for (auto& [t, body] : figures.replay_body_s) body *= factor;
}

void add_task_figures(TaskFigures& into, const TaskFigures& s) {
  into.tasks += s.tasks;
  into.recorded_tasks += s.recorded_tasks;
  into.hidden_subtree_tasks += s.hidden_subtree_tasks;
  into.body_s += s.body_s;
  into.thread_time_s += s.thread_time_s;
  into.work_s += s.work_s;
  into.span_s += s.span_s;
  const auto pool = [](std::vector<double>& a, const std::vector<double>& b) { a.insert(a.end(), b.begin(), b.end()); };
  pool(into.taskwait_gaps, s.taskwait_gaps);
  pool(into.immediate_starts, s.immediate_starts);
  if (into.depths.size() < s.depths.size()) into.depths.resize(s.depths.size());
  for (size_t d = 0; d < s.depths.size(); ++d) into.depths[d] += s.depths[d];
  for (const auto& [code, site] : s.sites_by_code) into.sites_by_code[code] += site;
  for (const auto& [name, site] : s.sites) into.sites[name] += site;
  into.starvation_s += s.starvation_s;
  into.tail_idle_s += s.tail_idle_s;
  into.end_idle_s += s.end_idle_s;
  into.creation_chain_s += s.creation_chain_s;
  into.chain_tasks += s.chain_tasks;
  into.graph_idle_s += s.graph_idle_s;
  into.tasks_with_depends += s.tasks_with_depends;
  into.dependence_edges += s.dependence_edges;
  into.dependence_path_s += s.dependence_path_s;
  into.dependence_path_measured_s += s.dependence_path_measured_s;
  into.dependence_path_tasks += s.dependence_path_tasks;
  into.dependence_path_output_edges += s.dependence_path_output_edges;
  into.dependence_wait_s += s.dependence_wait_s;
  into.dependence_path_wait_s += s.dependence_path_wait_s;
  into.task_instances += s.task_instances;
  into.replayed_instances += s.replayed_instances;
  into.task_instances_wall_s += s.task_instances_wall_s;
  into.replayed_wall_s += s.replayed_wall_s;
  if (s.tasks > 0 || !s.replay_s.empty() || s.replay_incomplete) into.replay_per_task_s = s.replay_per_task_s;
  // Instances run one after another: their replayed times add up, where each was replayed. An
  // instance not replayed (it created no task, was left out of the sample, or no replay was
  // asked) adds nothing to them.
  if (!s.replay_s.empty() || s.replay_incomplete) {
    const bool first = into.replay_s.empty() && !into.replay_incomplete;
    into.replay_incomplete = into.replay_incomplete || s.replay_incomplete ||
                             (!first && into.replay_s.size() != s.replay_s.size());
    if (into.replay_incomplete) {
      into.replay_s.clear();
      into.replay_body_s.clear();
    } else {
      for (const auto& [t, time] : s.replay_s) into.replay_s[t] += time;
      for (const auto& [t, time] : s.replay_body_s) into.replay_body_s[t] += time;
    }
  }
  for (const PathSite& p : s.path_sites) {
    auto it = std::find_if(into.path_sites.begin(), into.path_sites.end(), [&](const PathSite& q) {
      return p.site.empty() ? q.site.empty() && q.codeptr == p.codeptr : q.site == p.site;
    });
    if (it == into.path_sites.end()) {
      into.path_sites.push_back(p);
    } else {
      it->tasks += p.tasks;
      it->time_s += p.time_s;
    }
  }
  into.creating_threads = std::max(into.creating_threads, s.creating_threads);
}

}  // namespace ompscope::analysis
