#include "analysis/task_graph.h"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

namespace ompscope::analysis {
namespace {

constexpr double kNever = -std::numeric_limits<double>::infinity();
constexpr double kForever = std::numeric_limits<double>::infinity();

struct Finish {
  double self = 0;  // the task's own last instant
  double all = 0;   // its descendants' too
};

// One task's walk through its creations and waits, on the ideal clock.
struct Cursor {
  size_t child = 0;
  size_t wait = 0;
  double clock = 0;        // ideal time reached
  double at = kNever;      // real time reached in the task's own work
  double children = kNever;     // latest finish of children not yet joined by a taskwait
  double descendants = kNever;  // latest finish of descendants not yet joined by a taskgroup
  double all = kNever;          // latest finish of every descendant
};

enum class Stop { Creation, Barrier, End };

// Tasks nest as deep as the program made them: the walk keeps its own stack, not the machine's.
class IdealSchedule {
 public:
  explicit IdealSchedule(const TaskNodes& g)
      : g_(g), start_(g.nodes.size(), kNever), end_(g.nodes.size(), kNever), waited_for_(g.nodes.size(), kNone) {}

  static constexpr size_t kNone = static_cast<size_t>(-1);

  // A task starts at its creation on its creator's ideal clock, or when the last task it depends
  // on ended, if later.
  double start_of(size_t node, double created) {
    double start = created;
    for (const DependenceEdge& e : g_.nodes[node].after)
      if (end_[e.from] > start) {
        start = end_[e.from];
        waited_for_[node] = e.from;
      }
    start_[node] = start;
    return start;
  }

  Finish run_explicit(size_t root, double start) {
    std::vector<std::pair<size_t, Cursor>>& stack = stack_;  // reused: one walk per created task
    stack.clear();
    stack.push_back({root, Cursor{}});
    stack.back().second.clock = start_of(root, start);
    for (;;) {
      const size_t node = stack.back().first;
      Cursor& c = stack.back().second;
      if (walk(node, c) == Stop::Creation) {
        Cursor child;
        const size_t next = g_.nodes[node].children[c.child];
        child.clock = start_of(next, c.clock);
        stack.push_back({next, child});
        continue;
      }
      const Finish f{c.clock, std::max(c.clock, c.all)};
      end_[node] = c.clock;
      stack.pop_back();
      if (stack.empty()) return f;
      joined(stack.back().second, f);
    }
  }

  // Walks an implicit task to its next barrier (true) or its end (false).
  bool advance(size_t node, Cursor& c) {
    for (;;) {
      const Stop stop = walk(node, c);
      if (stop != Stop::Creation) return stop == Stop::Barrier;
      joined(c, run_explicit(g_.nodes[node].children[c.child], c.clock));
    }
  }

 private:
  // Advances the task's clock along its own work to its next creation (the child not yet
  // walked), barrier (implicit tasks only: a task has none of its own) or end.
  Stop walk(size_t node, Cursor& c) const {
    const TaskNode& n = g_.nodes[node];
    for (;;) {
      const bool has_child = c.child < n.children.size(), has_wait = c.wait < n.waits.size();
      if (!has_child && !has_wait) {
        c.clock += n.own_work.length_between(c.at, kForever);
        c.at = kForever;
        return Stop::End;
      }
      const TaskInstance* child = has_child ? g_.nodes[n.children[c.child]].explicit_task : nullptr;
      if (has_child && (!has_wait || child->created <= n.waits[c.wait]->arrive)) {
        c.clock += n.own_work.length_between(c.at, child->created);
        c.at = child->created;
        return Stop::Creation;
      }
      const SyncVisit& v = *n.waits[c.wait++];
      c.clock += n.own_work.length_between(c.at, v.arrive);
      c.at = v.arrive;
      switch (v.kind) {
        case SyncKind::Taskwait:
          c.clock = std::max(c.clock, c.children);
          c.children = kNever;
          break;
        case SyncKind::Taskgroup:
          c.clock = std::max(c.clock, c.descendants);
          c.descendants = kNever;
          break;
        case SyncKind::Barrier:
        case SyncKind::JoinBarrier:
          if (n.implicit_part != nullptr) return Stop::Barrier;
          break;
        case SyncKind::Other:
          break;
      }
    }
  }

  // The child just walked has finished: its parent's waits will join it.
  static void joined(Cursor& parent, const Finish& child) {
    parent.children = std::max(parent.children, child.self);
    parent.descendants = std::max(parent.descendants, child.all);
    parent.all = std::max(parent.all, child.all);
    ++parent.child;
  }

  const TaskNodes& g_;
  std::vector<std::pair<size_t, Cursor>> stack_;

 public:
  std::vector<double> start_, end_;  // per node, on the ideal clock (explicit tasks walked)
  std::vector<size_t> waited_for_;   // the predecessor whose end started it; kNone: its creation did
};

// The longest chain of tasks each started by the end of the one before it.
void dependence_path(const TaskNodes& g, const IdealSchedule& s, TaskGraphSize& out) {
  const size_t n = g.nodes.size();
  std::vector<double> head_start(n, kNever);
  std::vector<size_t> trail;
  size_t best = IdealSchedule::kNone;
  for (size_t i = g.implicit_count; i < n; ++i) {
    out.dependence_edges += g.nodes[i].after.size();
    if (s.waited_for_[i] == IdealSchedule::kNone || s.end_[i] == kNever) continue;
    // Back along the chain to a task whose head is known (or that has none): each node once.
    trail.clear();
    size_t k = i;
    while (head_start[k] == kNever && s.waited_for_[k] != IdealSchedule::kNone) {
      trail.push_back(k);
      k = s.waited_for_[k];
    }
    const double head = head_start[k] != kNever ? head_start[k] : s.start_[k];
    head_start[k] = head;
    for (size_t t : trail) head_start[t] = head;
    const double length = s.end_[i] - head;
    if (best == IdealSchedule::kNone || length > out.dependence_path_s) {
      best = i;
      out.dependence_path_s = length;
    }
  }
  if (best == IdealSchedule::kNone) return;
  for (size_t k = best; k != IdealSchedule::kNone; k = s.waited_for_[k]) out.dependence_path.push_back(k);
  std::reverse(out.dependence_path.begin(), out.dependence_path.end());
  for (size_t k : out.dependence_path) out.dependence_path_durations.push_back(s.end_[k] - s.start_[k]);
  for (size_t i = 1; i < out.dependence_path.size(); ++i) {
    const size_t from = out.dependence_path[i - 1];
    for (const DependenceEdge& e : g.nodes[out.dependence_path[i]].after)
      if (e.from == from) out.dependence_path_kinds.push_back(e.kind);
  }
}

}  // namespace

TaskGraphSize task_graph_size(const TaskNodes& g) {
  TaskGraphSize out;
  for (const TaskNode& n : g.nodes) out.work_s += n.own_work.total();

  IdealSchedule schedule(g);
  // The team's implicit tasks advance barrier by barrier: a barrier releases them all when the
  // last of them arrives and every task created before it has finished.
  std::vector<Cursor> team(g.implicit_count);
  std::vector<bool> done(g.implicit_count, false);
  double phase_start = 0;
  for (bool more = g.implicit_count > 0; more;) {
    more = false;
    double phase_end = phase_start;
    for (size_t k = 0; k < team.size(); ++k) {
      if (done[k]) continue;
      team[k].clock = phase_start;
      const bool at_barrier = schedule.advance(k, team[k]);
      phase_end = std::max({phase_end, team[k].clock, team[k].all});
      done[k] = !at_barrier;
      more = more || at_barrier;
    }
    phase_start = phase_end;
  }
  out.span_s = phase_start;

  // Tasks whose creator is not in this instance (none in a well-formed log) start at its start.
  // A batch of light tasks is work, but no chain: its tasks were independent leaves, each as
  // short as the mean body, so leaving them out shortens the span by at most one body.
  std::vector<bool> has_parent(g.nodes.size(), false);
  for (const TaskNode& n : g.nodes)
    for (size_t c : n.children) has_parent[c] = true;
  for (size_t i = g.implicit_count; i < g.nodes.size(); ++i)
    if (!has_parent[i] && !g.nodes[i].explicit_task->light)
      out.span_s = std::max(out.span_s, schedule.run_explicit(i, 0).all);
  dependence_path(g, schedule, out);
  return out;
}

}  // namespace ompscope::analysis
