#include "analysis/task_diagnoses.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>

#include "analysis/duration_text.h"
#include "analysis/statistics.h"
#include "common/thread_count_phrase.h"

namespace ompscope::analysis {
namespace {

double median_of(const std::vector<const TaskFigures*>& runs, const std::function<double(const TaskFigures&)>& f) {
  std::vector<double> v;
  for (const TaskFigures* r : runs) v.push_back(f(*r));
  return median(std::move(v));
}

// A run's median of `samples` where enough were seen to trust it; 0 where not.
double trusted_median(const std::vector<double>& samples) {
  return samples.size() >= kMinDispatchGaps ? median(samples) : 0;
}

// Each creation site's figures, summed over the runs.
std::map<std::string, SiteFigures> pooled_sites(const std::vector<const TaskFigures*>& runs) {
  std::map<std::string, SiteFigures> sites;
  for (const TaskFigures* r : runs)
    for (const auto& [name, site] : r->sites) sites[name] += site;
  return sites;
}

// The median over repeats of a per-run cost; 0 where no run measured it. `samples`: a run's
// samples, a member or a function of its figures (the dispatch and creation gaps are its sites').
template <class Samples>
double measured(const std::vector<const TaskFigures*>& runs, Samples samples) {
  std::vector<double> v;
  for (const TaskFigures* r : runs)
    if (double m = trusted_median(std::invoke(samples, *r)); m > 0) v.push_back(m);
  return median(std::move(v));
}

// The runs' figures per depth, summed.
std::vector<DepthFigures> pooled_depths(const std::vector<const TaskFigures*>& runs) {
  std::vector<DepthFigures> depths;
  for (const TaskFigures* r : runs) {
    if (depths.size() < r->depths.size()) depths.resize(r->depths.size());
    for (size_t d = 0; d < r->depths.size(); ++d) depths[d] += r->depths[d];
  }
  return depths;
}

// Children per task at depth d + 1 ([d] of pooled depths): per recorded task with a recorded
// child, the creations those made (a recorded task's children are recorded or counted in a
// recorded creation's weight), times the share of the recorded tasks that created some (those
// with a recorded child and those that waited with every child sampled out). Under adaptive
// sampling a recursive tree's recorded tasks are its first ones: the shallow tasks run last create
// their children after the recorded prefix, all sampled out (fib_tasks 27 at 2 threads: 4 tasks
// at depth 2, 4 recorded children), so counting children per recorded task made the tree thin
// out to one child per task and the cutoff land at depth 1. Where no task at d has a recorded
// child, the tree's mean per parent.
double children_per_task(const std::vector<DepthFigures>& depths, size_t d) {
  if (d + 1 >= depths.size() || depths[d].recorded <= 0) return 0;
  double per_parent = 0;
  if (depths[d].parents > 0) {
    per_parent = depths[d + 1].tasks / depths[d].parents;
  } else {
    double parents = 0, children = 0;
    for (size_t k = 0; k + 1 < depths.size(); ++k) parents += depths[k].parents, children += depths[k + 1].tasks;
    per_parent = parents > 0 ? children / parents : 0;
  }
  return per_parent * (depths[d].parents + depths[d].unknown_children) / depths[d].recorded;
}

// "creation 0.2 µs + dispatch 0.3 µs + …", the parts measured.
std::string cost_parts(const PerTaskCost& c) {
  std::vector<std::string> parts;
  const auto share = [](double f) { return f < 1 ? fmt::format(" for {:.0f}% of them", 100 * f) : std::string(); };
  if (c.dispatched_share > 0) {
    parts.push_back(c.creation_s > 0 ? "creation " + duration_text(c.creation_s) : "creation not measured");
    parts.push_back("dispatch " + duration_text(c.dispatch_s) + share(c.dispatched_share));
  }
  if (c.dispatched_share < 1) parts.push_back("creation to an immediate start " + duration_text(c.immediate_s) +
                                              share(1 - c.dispatched_share));
  if (c.taskwait_s > 0 && c.taskwaits_per_task > 0)
    parts.push_back(fmt::format("a taskwait of {} in {:.0f}% of them", duration_text(c.taskwait_s),
                                100 * c.taskwaits_per_task));
  return fmt::format("{}", fmt::join(parts, " + "));
}

// dependency_bound (docs/tasks.md, "Dependences"): the dependence path, by creation site, beside
// the region's time, and what would shorten it.
Problem dependency_bound(const std::vector<const TaskFigures*>& repeats, int threads, double graph_idle, double path,
                         double span, double team_time) {
  const double region_s = team_time / threads;
  const double runs = static_cast<double>(repeats.size());
  std::vector<PathSite> sites;  // pooled over the repeats, in the path's order
  double output_edges = 0, path_tasks = 0, tasks = 0, work = 0, dep_wait = 0, path_wait = 0, measured = 0;
  for (const TaskFigures* r : repeats) {
    for (const PathSite& p : r->path_sites) {
      auto it = std::find_if(sites.begin(), sites.end(), [&](const PathSite& q) { return q.site == p.site; });
      if (it == sites.end()) {
        sites.push_back(p);
      } else {
        it->tasks += p.tasks;
        it->time_s += p.time_s;
      }
    }
    output_edges += r->dependence_path_output_edges;
    path_tasks += r->dependence_path_tasks;
    tasks += static_cast<double>(r->tasks);
    work += r->work_s;
    dep_wait += r->dependence_wait_s;
    path_wait += r->dependence_path_wait_s;
    measured += r->dependence_path_measured_s;
  }
  measured /= runs;
  path_tasks /= runs;
  output_edges /= runs;
  tasks /= runs;
  work /= runs;
  dep_wait /= runs;
  path_wait /= runs;
  double path_time = 0;
  for (PathSite& p : sites) {
    p.tasks /= runs;
    p.time_s /= runs;
    path_time += p.time_s;
  }
  std::vector<std::string> chain;
  const PathSite* longest = nullptr;
  for (const PathSite& p : sites) {
    chain.push_back(fmt::format("{} ({:.0f} tasks, {:.0f}% of the path)", p.site, p.tasks,
                                path_time > 0 ? 100 * p.time_s / path_time : 0.0));
    if (longest == nullptr || p.time_s > longest->time_s) longest = &p;
  }
  const double parallelism = span > 0 ? work / span : 0;
  const double t = threads;
  // What the path keeps the team from doing: the team's time along the path as it ran (its
  // hand-offs included) less the work, within the region; at least what the graph leaves idle.
  const double idle = std::max(graph_idle, std::min(team_time - work, t * measured - work));
  const std::string handoffs =
      measured > path && path_tasks > 1
          ? fmt::format("; as it ran it took {}, the hand-offs between its tasks {} each", duration_text(measured),
                        duration_text((measured - path) / (path_tasks - 1)))
          : "";
  std::string hint = fmt::format(
      "the dependences chain {:.0f} of the {:.0f} tasks one after another: {}; that path is {} of work beside the "
      "region's {} at {}{} (with every task started the moment its predecessors end, {:.2f} threads are busy on "
      "average), so the other threads wait for tasks to become ready ({} of thread time{}); shorten the path",
      path_tasks, tasks, fmt::join(chain, " → "), duration_text(path), duration_text(region_s),
      threads_phrase(threads), handoffs, parallelism, duration_text(idle),
      dep_wait > 0 ? fmt::format("; measured, {} of them idle with no task ready while the dependences held tasks "
                                 "back, {} of it for the path's next task",
                                 duration_text(dep_wait), duration_text(path_wait))
                   : "");
  std::vector<std::string> fixes;
  if (longest != nullptr)
    fixes.push_back(fmt::format("split the work of the path's tasks into finer blocks (the tasks at {}, {} each: "
                                "a smaller block there shortens every step of the chain and lets its parts overlap)",
                                longest->site, duration_text(longest->tasks > 0 ? longest->time_s / longest->tasks : 0)));
  if (output_edges >= 1)
    fixes.push_back(fmt::format("declare `in` where a task only reads: {:.0f} of the path's {:.0f} steps order two "
                                "tasks that both declared `inout` (or `out`) on the same data",
                                output_edges, std::max(0.0, path_tasks - 1)));
  if (path_tasks < tasks && parallelism > 1.1)
    fixes.push_back("give the path's tasks a `priority` clause (OMP_MAX_TASK_PRIORITY set) so that the runtime "
                    "starts them first when tasks off the path are ready too");
  else
    fixes.push_back("no other task can run beside the chain: split each step's work into tasks that can run "
                    "together inside it (a taskloop in the step), or overlap independent steps");
  hint += ": " + fmt::format("{}", fmt::join(fixes, "; "));
  std::vector<std::pair<std::string, double>> details = {{"dependence_path_s", path},
                                                         {"measured_path_s", measured},
                                                         {"graph_idle_s", graph_idle},
                                                         {"span_s", span},
                                                         {"work_s", work},
                                                         {"parallelism", parallelism},
                                                         {"path_tasks", path_tasks},
                                                         {"path_sites", static_cast<double>(sites.size())},
                                                         {"output_edges_on_path", output_edges},
                                                         {"dependence_wait_s", dep_wait},
                                                         {"dependence_path_wait_s", path_wait}};
  return {"dependency_bound", threads, idle, idle / t, hint, std::move(details)};
}

}  // namespace

namespace {

// What a task's start costs the runtime, each the median over the runs.
struct StartGaps {
  double creation_gap_s, dispatch_s, immediate_s;

  explicit StartGaps(const std::vector<const TaskFigures*>& runs)
      : creation_gap_s(measured(runs, &TaskFigures::creation_gaps)),
        dispatch_s(measured(runs, &TaskFigures::dispatch_gaps)),
        immediate_s(measured(runs, &TaskFigures::immediate_starts)) {}

  // A creation gap holds the program's code between two task constructs too: one far above the
  // runtime's other per-task costs is the creator's preparation (task_creation_bottleneck's
  // business), not a creation call.
  bool gap_is_a_call() const { return creation_gap_s <= kBodyPerDispatch * std::max(dispatch_s, immediate_s); }
};

}  // namespace

PerTaskCost per_task_cost(const std::vector<const TaskFigures*>& runs, const std::vector<const TaskFigures*>* base) {
  PerTaskCost c;
  const StartGaps gaps(runs);
  c.creation_gap_s = gaps.creation_gap_s;
  c.dispatch_s = gaps.dispatch_s;
  c.immediate_s = gaps.immediate_s;
  // A gap that was a creation call at the smallest count is one at every count: the program's
  // code between two task constructs does not grow with the team, the runtime's creation call can
  // (libgomp wakes a sleeping thread with a system call at each creation: fib_tasks_gcc on an AMD
  // EPYC VM, 40 ns at 1 thread and 1.2 µs at 2, beside a 60 ns dispatch, left its tasks' cost
  // unmeasured and the region 100% unexplained).
  const auto a_call_at_base = [&] {
    if (base == nullptr || base->empty()) return false;
    const StartGaps at_base(*base);
    return at_base.creation_gap_s > 0 && at_base.gap_is_a_call();
  };
  c.creation_s = gaps.gap_is_a_call() || a_call_at_base() ? c.creation_gap_s : 0;
  c.taskwait_s = measured(runs, &TaskFigures::taskwait_gaps);
  double recorded = 0, waiting = 0, tasks = 0, created_by_tasks = 0;
  for (const TaskFigures* r : runs)
    for (size_t d = 0; d < r->depths.size(); ++d) {
      recorded += r->depths[d].recorded;
      waiting += r->depths[d].waiting;
      tasks += r->depths[d].tasks;
      if (d > 0) created_by_tasks += r->depths[d].tasks;
    }
  c.taskwaits_per_task = recorded > 0 ? waiting / recorded : 0;

  c.children_per_task = tasks > 0 ? created_by_tasks / tasks : 0;
  // A task is handed out by a dispatch, or started at once by its creator (creation included),
  // in the proportion the recorded tasks were.
  double dispatched = 0, immediate = 0;
  for (const TaskFigures* r : runs) {
    dispatched += static_cast<double>(r->dispatch_gap_count());
    immediate += static_cast<double>(r->immediate_starts.size());
  }
  if (c.dispatch_s <= 0) dispatched = 0;
  if (c.immediate_s <= 0) immediate = 0;
  c.dispatched_share = dispatched + immediate > 0 ? dispatched / (dispatched + immediate) : 0;
  const double start = dispatched + immediate > 0
                           ? c.dispatched_share * (c.creation_s + c.dispatch_s) + (1 - c.dispatched_share) * c.immediate_s
                           : 0;
  c.total_s = start > 0 ? start + c.taskwait_s * c.taskwaits_per_task : 0;
  // Only in a tree: where every task is a leaf, the leaves' own work is the bodies' code.
  double leaves = 0, leaf_work = 0;
  for (const TaskFigures* r : runs)
    if (r->depths.size() >= 2)
      for (const DepthFigures& d : r->depths) {
        leaves += d.leaves;
        leaf_work += d.leaf_own_work_s;
      }
  if (leaves >= kMinDispatchGaps) c.body_floor_s = std::min(leaf_work / leaves, c.total_s);
  c.creation_in_body_s = c.creation_s;
  if (leaves >= kMinDispatchGaps) {
    const std::vector<DepthFigures> depths = pooled_depths(runs);
    double least = -1;
    for (size_t d = 0; d + 1 < depths.size(); ++d) {
      if (depths[d].recorded < kMinDispatchGaps || depths[d].tasks <= 0) continue;
      const double children = children_per_task(depths, d);
      if (children < 1) continue;
      const double per_child = (depths[d].own_work_s / depths[d].recorded - c.body_floor_s) / children;
      if (per_child > 0 && (least < 0 || per_child < least)) least = per_child;
    }
    if (least > 0) c.creation_in_body_s = std::clamp(least, c.creation_s, std::max(c.creation_s, c.total_s));
  }
  return c;
}


std::optional<CutoffProposal> propose_cutoff(const std::vector<const TaskFigures*>& runs, const PerTaskCost& cost) {
  std::vector<DepthFigures> depths = pooled_depths(runs);
  while (!depths.empty() && depths.back().recorded == 0) depths.pop_back();
  if (depths.size() < 2 || cost.total_s <= 0 || depths[0].tasks <= 0) return std::nullopt;
  const size_t n = depths.size();
  const double floor = cost.body_floor_s;
  std::vector<double> inline_work(n + 1, 0.0);  // W(d) at [d - 1]; W beyond the deepest level: 0
  std::vector<double> children(n, 0.0);
  for (size_t d = n; d-- > 0;) {
    children[d] = children_per_task(depths, d);
    const double own = depths[d].recorded > 0 ? depths[d].own_work_s / depths[d].recorded : 0;
    inline_work[d] = std::max(0.0, own - children[d] * cost.creation_in_body_s - floor) + children[d] * inline_work[d + 1];
  }
  const double runs_n = static_cast<double>(runs.size());
  const double counted = median_of(runs, [](const TaskFigures& f) { return double(f.tasks); });
  CutoffProposal p;
  p.work_per_task_s = inline_work[0];
  double kept = 0, at_depth = depths[0].tasks / runs_n;  // tasks at depth d + 1, the tree grown by children[]
  for (size_t d = 0; d < n && inline_work[d] >= kCutoffWorkPerCost * cost.total_s; at_depth *= children[d++]) {
    // The tree grown level by level from the recorded tasks' children has outgrown the tasks the
    // region counted: under sampling the recorded tasks are mostly its upper levels, and BOTS fft
    // (437 999 tasks, three sites) grew to 837 818 kept at depth 13, a cutoff that cut nothing
    // and saved 0 ns. A level that would keep every task is no cutoff: the one above it is.
    if (kept + at_depth >= counted) {
      if (p.depth == 0) return std::nullopt;
      break;
    }
    kept += at_depth;
    p.depth = static_cast<int>(d + 1);
    p.kept_tasks = kept;
    p.work_per_task_s = inline_work[d];
  }
  return p;
}

std::vector<Problem> diagnose_tasks(const std::vector<const TaskFigures*>& repeats, int threads,
                                    const std::vector<const TaskFigures*>* base) {
  std::vector<Problem> out;
  if (repeats.empty() || threads < 2) return out;
  const double tasks = median_of(repeats, [](const TaskFigures& f) { return double(f.tasks); });
  if (tasks == 0) return out;
  const double team_time = median_of(repeats, [](const TaskFigures& f) { return f.thread_time_s; });
  const double significant = kSignificantShare * team_time;
  const double t = threads;
  const double body = median_of(repeats, [](const TaskFigures& f) { return f.mean_body_s(); });
  const PerTaskCost cost = per_task_cost(repeats, base);
  const double dispatch = cost.dispatch_s;
  const double creators = median_of(repeats, [](const TaskFigures& f) { return double(f.creating_threads); });

  // What the tasks cost the team beyond the program's own code: its thread time less the own
  // work of every task, implicit ones included, where each task's creation call and the runtime's
  // part of its body (starting and finishing it: PerTaskCost::body_floor_s) count as the
  // runtime's. In a tree of tiny tasks that is far more than the parts measured per task: threads
  // stealing from each other and waiting for tasks created one at a time, the task descriptors'
  // cache lines moving between them (fib without a cutoff at 2 threads on a 2-vCPU VM: 0.4 µs
  // measured per task, 1.2 µs of thread time per task). All of it goes when the tasks do.
  const double work = median_of(repeats, [](const TaskFigures& f) { return f.work_s; });
  const double own_code = std::max(0.0, work - tasks * (cost.creation_in_body_s + cost.body_floor_s));
  // Where most tasks were sampled out, their bodies are estimated (docs/sampling.md); an estimate
  // that runs long leaves the residual above short of the runtime's cost, so the cost measured
  // per task is then its floor (nqueens_tasks 11 at 2 threads, its light tasks timed as the
  // sampled phase's upper levels: 0.15 us per task by the residual, 0.19 us measured; timed by
  // the tasks they created, 0.41 us by the residual). With every task recorded the residual
  // stands: the bodies are measured.
  const double recorded = median_of(repeats, [](const TaskFigures& f) { return double(f.recorded_tasks); });
  const double estimated_share = tasks > 0 ? 1.0 - recorded / tasks : 0.0;
  const double measured_floor = estimated_share >= kEstimatedBodiesShare ? tasks * cost.total_s : 0.0;
  const double runtime_total = std::clamp(std::max(team_time - own_code, measured_floor), 0.0, team_time);
  if (cost.total_s > 0 && body < kBodyPerDispatch * cost.total_s && runtime_total >= significant) {
    std::vector<std::pair<std::string, double>> details = {{"tasks", tasks},
                                                           {"mean_body_s", body},
                                                           {"per_task_cost_s", cost.total_s},
                                                           {"team_time_per_task_s", runtime_total / tasks},
                                                           {"dispatch_s", dispatch},
                                                           {"creation_s", cost.creation_s},
                                                           {"taskwait_s", cost.taskwait_s},
                                                           {"immediate_start_s", cost.immediate_s},
                                                           {"runtime_share_of_body_s", cost.body_floor_s},
                                                           {"creation_in_body_s", cost.creation_in_body_s}};
    const std::string costs =
        fmt::format("the runtime spends {} on each one ({}), and the team {} per task in all outside the program's code",
                    duration_text(cost.total_s), cost_parts(cost), duration_text(runtime_total / tasks));
    std::string hint;
    double saved = runtime_total;
    if (const auto cut = propose_cutoff(repeats, cost)) {
      // The kept tasks cost the runtime's measured parts each, and a share of the rest of the
      // team's cost per task (stealing, descriptors' lines moving, waits for tasks created one at
      // a time) that grows with how many tasks there are: all of it with every task kept, none
      // with one. nqueens_tasks 11 at 2 threads, each level kept costing more per task than the
      // last (0.18, 0.45, 0.56, 0.67 µs of team time from depth 4 to 7): priced at the measured
      // 0.39 µs alone, a cutoff at 6 was predicted 60% against 48-52% real; at the whole 0.78 µs,
      // 44%; in proportion, 54% (depths 4, 5, 7: 73, 67, 33% against 69, 66, 30%).
      const double beyond = std::max(0.0, runtime_total / tasks - cost.total_s);
      const double per_kept = cost.total_s + beyond * std::min(1.0, cut->kept_tasks / tasks);
      saved = std::max(0.0, runtime_total - cut->kept_tasks * per_kept);
      details.push_back({"cost_per_kept_task_s", per_kept});
      details.push_back({"cutoff_depth", cut->depth});
      details.push_back({"tasks_after_cutoff", cut->kept_tasks});
      details.push_back({"work_per_task_after_cutoff_s", cut->work_per_task_s});
      if (cut->depth > 0)
        hint = fmt::format("a recursive tree of {:.0f} tasks of {} each on average, and {}: stop creating tasks below "
                           "depth {} (a depth argument with `if(depth < {})` or `final(depth >= {})` on the task "
                           "construct, or a size threshold that stops at the same level): about {:.0f} tasks of {} "
                           "each would remain, the others run as plain calls",
                           tasks, duration_text(body), costs, cut->depth, cut->depth, cut->depth, cut->kept_tasks,
                           duration_text(cut->work_per_task_s));
      else
        hint = fmt::format("a recursive tree of {:.0f} tasks of {} each on average, and {}: even its first level's "
                           "subtrees ({} of work each) are too small to pay for a task; run the recursion as plain "
                           "calls",
                           tasks, duration_text(body), costs, duration_text(cut->work_per_task_s));
    } else {
      hint = fmt::format("{:.0f} tasks of {} each on average, and {}: create fewer, larger tasks (an if or final "
                         "clause, or a size cutoff), a taskloop with a grainsize, or a plain loop",
                         tasks, duration_text(body), costs);
    }
    // What the change would save at t, before the region's cap (fine_grained_tasks counts
    // against the time lost only: docs/design.md, "Caps"): the region's time here less the team's
    // time the change keeps, shared by the team.
    details.push_back({"saves_s", saved / t});
    hint += fmt::format("; that saves about {} of the region's {} at {}", duration_text(saved / t),
                        duration_text(team_time / t), threads_phrase(threads));
    out.push_back({"fine_grained_tasks", threads, runtime_total, saved / t, hint, std::move(details)});
  }

  const double starvation = median_of(repeats, [](const TaskFigures& f) { return f.starvation_s; });
  const double graph_idle = median_of(repeats, [](const TaskFigures& f) { return f.graph_idle_s; });
  const double chain = median_of(repeats, [](const TaskFigures& f) { return f.creation_chain_s; });
  const double chain_tasks = median_of(repeats, [](const TaskFigures& f) { return double(f.chain_tasks); });
  const double span = median_of(repeats, [](const TaskFigures& f) { return f.span_s; });
  const double per_created_task = chain_tasks > 0 ? chain / chain_tasks : 0;
  const bool preparing = dispatch == 0 || per_created_task > kBodyPerDispatch * dispatch;
  if (graph_idle >= significant && chain >= kChainShareOfSpan * span && preparing &&
      median_of(repeats, [](const TaskFigures& f) { return f.dependence_path_s; }) <= chain) {
    out.push_back({"task_creation_bottleneck", threads, graph_idle, graph_idle / t,
                   fmt::format("one creator spends {} per task before handing it out (bodies {}): its {} of serial "
                               "work is {:.0f}% of the critical path, so the other threads wait for tasks; create "
                               "tasks in parallel (a taskloop, or tasks that create tasks) and move the "
                               "preparation each task needs into the task",
                               duration_text(per_created_task), duration_text(body), duration_text(chain),
                               span > 0 ? 100 * chain / span : 0.0),
                   {{"tasks", tasks},
                    {"creating_threads", creators},
                    {"creation_chain_s", chain},
                    {"per_task_s", per_created_task},
                    {"mean_body_s", body},
                    {"measured_starvation_s", starvation}}});
  }

  // The dependences, not the creator, keep the graph narrow: the longest chain of tasks each
  // waiting for the one before is most of the critical path.
  const double path = median_of(repeats, [](const TaskFigures& f) { return f.dependence_path_s; });
  const bool creation_bound = chain >= kChainShareOfSpan * span && preparing;
  // Only a graph too narrow for the team: along its span it leaves at least a tenth of the team
  // idle (a blocked Jacobi's sweeps chain its tasks too, but 30 of them can run at once).
  const bool narrow = graph_idle >= kSignificantShare * t * span;
  if (narrow && path >= kChainShareOfSpan * span && path > 0 && !creation_bound) {
    Problem p = dependency_bound(repeats, threads, graph_idle, path, span, team_time);
    if (p.time_s >= significant) out.push_back(std::move(p));
  }

  const double end_idle = median_of(repeats, [](const TaskFigures& f) { return f.end_idle_s; });
  const double tail = median_of(repeats, [](const TaskFigures& f) { return f.tail_idle_s; });
  if (end_idle >= significant) {
    out.push_back({"coarse_grained_tasks", threads, end_idle, end_idle / t,
                   fmt::format("{:.0f} tasks of {} each for {}: the threads that finish first sit idle {} "
                               "in all while the last tasks run; split the work into more, smaller tasks (several "
                               "per thread) so the team finishes together",
                               tasks, duration_text(body), threads_phrase(threads), duration_text(end_idle)),
                   {{"tasks", tasks}, {"tasks_per_thread", tasks / t}, {"mean_body_s", body},
                    {"measured_tail_idle_s", tail}}});
  }
  return out;
}

std::optional<Problem> task_inflation(const std::vector<const TaskFigures*>& repeats,
                                      const std::vector<const TaskFigures*>& base, int threads, int base_threads,
                                      double lost_s, const WorkUsage* usage, const WorkUsage* base_usage) {
  // No time lost, nothing the growth cost (a speedup above perfect: the bodies' data spread over
  // more caches).
  if (repeats.empty() || base.empty() || threads <= base_threads || !(lost_s > 0)) return std::nullopt;
  // Where sampled-out tasks created sampled-out subtrees, the recorded tasks are the tree's first
  // ones, and which ones those are changes with the thread count: they are no sample of the
  // construct's tasks (BOTS health: 14.3 µs per recorded task at 1 thread, 2.5 µs at 2, while
  // the mean over all of them grew from 0.5 to 3.9 µs). Nothing is said there.
  for (const auto* runs : {&repeats, &base})
    for (const TaskFigures* r : *runs)
      if (r->hidden_subtree_tasks > 0) return std::nullopt;
  const std::map<std::string, SiteFigures> now = pooled_sites(repeats), before = pooled_sites(base);
  double recorded = 0;
  for (const auto& [name, site] : now) recorded += site.recorded;
  const double tasks = median_of(repeats, [](const TaskFigures& f) { return double(f.tasks); });
  const double team_time = median_of(repeats, [](const TaskFigures& f) { return f.thread_time_s; });
  // Shares of a body's wall time off the CPU and in the kernel, from the team's kernel accounting
  // over its work in the region (0 where it was not read: the whole growth is then on the CPU).
  struct Shares {
    double off_cpu = 0, kernel = 0;
  };
  const auto shares = [](const WorkUsage* u) {
    Shares s;
    if (u == nullptr || u->wall_s <= 0 || u->cpu_s <= 0) return s;
    s.off_cpu = u->off_cpu_s() / u->wall_s;
    s.kernel = std::min(u->system_s, u->cpu_s) / u->wall_s;
    return s;
  };
  const Shares at = shares(usage), at_base = shares(base_usage);
  const bool split = usage != nullptr && base_usage != nullptr && usage->wall_s > 0 && base_usage->wall_s > 0;
  const double base_tasks = median_of(base, [](const TaskFigures& f) { return double(f.tasks); });
  const double base_team_time = median_of(base, [](const TaskFigures& f) { return f.thread_time_s; });
  double base_recorded = 0;
  for (const auto& [name, site] : before) base_recorded += site.recorded;
  // The time taken out of the bodies as their threads' time off the CPU (task_work.h): per
  // recorded task of a site, scaled as the bodies are to the tasks that ran.
  const auto taken_of = [](const std::map<std::string, SiteFigures>& sites, double all_tasks, double all_recorded) {
    double taken = 0;
    for (const auto& [name, site] : sites) taken += site.off_cpu_taken_s;
    return all_recorded > 0 ? taken * all_tasks / all_recorded : 0.0;
  };
  // The share of what is left of the bodies off the CPU: the team's share, the time taken out
  // of them set aside (it is no body's own work; counted whole below). The team's whole share,
  // applied to the bodies left, gave them off-CPU time they no longer held and took it from the
  // time between the bodies: the time taken out stood in no part (jacobi_deps beside a busy CPU,
  // 150 of 562 thread-ms lost unexplained).
  const auto rest_off_cpu = [](const Shares& s, double team, double taken) {
    return team > taken ? std::max(0.0, s.off_cpu * team - taken) / (team - taken) : 0.0;
  };
  const double taken = taken_of(now, tasks, recorded), base_taken = taken_of(before, base_tasks, base_recorded);
  const double rest = rest_off_cpu(at, team_time, taken), base_rest = rest_off_cpu(at_base, base_team_time, base_taken);
  struct Grown {
    std::string site;
    double growth_s, base_body_s, body_s, tasks;
  };
  std::vector<Grown> grown;
  double growth = 0, off_cpu = 0, kernel = 0;
  for (const auto& [name, site] : now) {
    auto b = before.find(name);
    if (b == before.end() || site.recorded < kMinDispatchGaps || b->second.recorded < kMinDispatchGaps) continue;
    const double body = site.own_work_s / site.recorded;
    const double base_body = b->second.own_work_s / b->second.recorded;
    if (body <= base_body) continue;
    const double site_tasks = tasks * site.recorded / recorded;  // its share of the tasks that ran
    grown.push_back({name, (body - base_body) * site_tasks, base_body, body, site_tasks});
    growth += grown.back().growth_s;
    off_cpu += std::max(0.0, body * rest - base_body * base_rest) * site_tasks;
    kernel += std::max(0.0, body * at.kernel - base_body * at_base.kernel) * site_tasks;
  }
  if (off_cpu + kernel > growth) {
    const double f = growth / (off_cpu + kernel);
    off_cpu *= f;
    kernel *= f;
  }
  const double on_cpu = std::max(0.0, growth - off_cpu - kernel);
  // The bodies' time taken out as their threads' time off the CPU, grown from t0 to t: the tasks'
  // time too, off the CPU inside them.
  const double descheduled = std::max(0.0, taken - base_taken);
  off_cpu += descheduled;
  growth += descheduled;
  // The team's time off the CPU over its work and the barrier visits where it ran tasks, grown
  // from t0 to t: threads switched out while their tasks waited (in a body, or in the wait between
  // two: a worker descheduled for a scheduler tick while the creator's tasks queue). Where more
  // than the bodies' own share shows, the rest is time lost off the CPU too (as work_inflation
  // counts a loop's).
  // As shares of each count's team time: the accounting's own totals are scaled from what it was
  // read over, and a creator's stretch holds its taskwaits too.
  const double team_off_cpu = split ? std::max(0.0, at.off_cpu * team_time - at_base.off_cpu * base_team_time) : 0.0;
  const double waiting_off_cpu = std::max(0.0, team_off_cpu - off_cpu);
  off_cpu += waiting_off_cpu;
  growth += waiting_off_cpu;
  // A tenth of the team's time lost, not of its time: a narrow dependence graph's team idles
  // through most of its time (block_lu_deps, gcc: bodies 395 -> 441 µs at 1 -> 2 threads, 8.6 ms
  // of growth, 5.6% of the team's 155 ms but 11% of the 76 ms it lost, went unsaid and left its
  // share of the loss unexplained).
  if (growth < kSignificantShare * lost_s * threads || (grown.empty() && descheduled + waiting_off_cpu <= 0))
    return std::nullopt;
  std::sort(grown.begin(), grown.end(), [](const Grown& a, const Grown& b) { return a.growth_s > b.growth_s; });
  std::vector<std::string> sites;
  for (const Grown& g : grown)
    sites.push_back(fmt::format("{} ({:.0f} tasks): {} per task at {} against {} at {} (+{:.0f}%)", g.site, g.tasks,
                                duration_text(g.body_s), threads_phrase(threads), duration_text(g.base_body_s),
                                base_threads, 100 * (g.body_s / g.base_body_s - 1)));
  // The parts, largest first, each with what would win it back in a task region.
  std::vector<std::pair<double, std::string>> parts;
  if (on_cpu > 0.01 * growth)  // a part under 1% is rounding, not a finding
    parts.emplace_back(on_cpu, fmt::format("{} slower on the CPU: bodies that stream through memory share its "
                                           "bandwidth with the other threads' (block each task's data to fit the "
                                           "cache, fewer sweeps over the same arrays per task), or a task that "
                                           "another thread runs finds its data in its creator's cache and tasks "
                                           "that update neighbouring data move cache lines between cores (create "
                                           "tasks near their data; pad what tasks update to its own 64-byte line)",
                                           duration_text(on_cpu)));
  if (kernel > 0.01 * growth)  // a part under 1% is rounding, not a finding
    parts.emplace_back(kernel, fmt::format("{} more in the kernel: page faults or system calls inside the tasks "
                                           "(allocate and first-touch their buffers once, outside the region)",
                                           duration_text(kernel)));
  if (off_cpu > 0.01 * growth) {  // a part under 1% is rounding, not a finding
    std::vector<std::string> where;  // "X of it inside …; Y between …"
    const auto add = [&where](double s, const char* what) {
      if (s > 0) where.push_back(fmt::format("{}{} {}", duration_text(s), where.empty() ? " of it" : "", what));
    };
    add(descheduled, "inside bodies while their thread was switched out");
    add(waiting_off_cpu, "between the bodies, while tasks waited to run");
    parts.emplace_back(off_cpu, fmt::format("{} more off the CPU{}: threads descheduled by another process or by more "
                                            "threads than cores; run on idle cores, one thread per core",
                                            duration_text(off_cpu),
                                            where.empty() ? std::string() : fmt::format(" ({})", fmt::join(where, "; "))));
  }
  std::stable_sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string hint =
      grown.empty()
          ? fmt::format("the threads running the tasks are off the CPU longer at {} than at {} ({} more thread "
                        "time), the task bodies no slower",
                        threads_phrase(threads), base_threads, duration_text(growth))
          : fmt::format("task bodies take longer at {} than at {} ({} more thread time): {}", threads_phrase(threads),
                        base_threads, duration_text(growth), fmt::join(sites, "; "));
  for (size_t i = 0; i < parts.size(); ++i) hint += (i == 0 ? ". " : "; ") + parts[i].second;
  if (!split) hint += " (the kernel's accounting was not read: on or off the CPU is not known)";
  const Grown top = grown.empty() ? Grown{} : grown.front();
  return Problem{"task_inflation", threads, growth, growth / threads, hint,
                 {{"task_body_growth_s", growth - waiting_off_cpu},
                  {"waiting_off_cpu_s", waiting_off_cpu},
                  {"descheduled_in_bodies_s", descheduled},
                  {"tasks", tasks},
                  {"base_body_s", top.base_body_s},
                  {"body_s", top.body_s},
                  {"base_threads", static_cast<double>(base_threads)},
                  {"on_cpu_s", on_cpu},
                  {"kernel_s", kernel},
                  {"off_cpu_s", off_cpu}}};
}

TaskSummary summarize_tasks(const std::vector<const TaskFigures*>& repeats, int threads, double measured_speedup,
                            const std::vector<const TaskFigures*>* base) {
  TaskSummary s;
  s.tasks = median_of(repeats, [](const TaskFigures& f) { return double(f.tasks); });
  s.recorded_tasks = median_of(repeats, [](const TaskFigures& f) { return double(f.recorded_tasks); });
  s.hidden_subtree_tasks = median_of(repeats, [](const TaskFigures& f) { return double(f.hidden_subtree_tasks); });
  s.mean_body_s = median_of(repeats, [](const TaskFigures& f) { return f.mean_body_s(); });
  const PerTaskCost cost = per_task_cost(repeats, base);
  s.dispatch_s = cost.dispatch_s;
  s.creation_s = cost.creation_gap_s > 0 ? cost.creation_gap_s : -1;
  s.taskwait_s = cost.taskwait_s;
  s.immediate_start_s = cost.immediate_s;
  s.per_task_cost_s = cost.total_s;
  s.work_s = median_of(repeats, [](const TaskFigures& f) { return f.work_s; });
  s.span_s = median_of(repeats, [](const TaskFigures& f) { return f.span_s; });
  s.parallelism = s.span_s > 0 ? s.work_s / s.span_s : 0;
  s.speedup_bound = std::min(static_cast<double>(threads), s.parallelism);
  s.measured_speedup = measured_speedup;
  s.superlinear = report::exceeds_task_bound(s.measured_speedup, s.speedup_bound);
  s.starvation_s = median_of(repeats, [](const TaskFigures& f) { return f.starvation_s; });
  s.tail_idle_s = median_of(repeats, [](const TaskFigures& f) { return f.tail_idle_s; });
  s.end_idle_s = median_of(repeats, [](const TaskFigures& f) { return f.end_idle_s; });
  // Per creation site, its samples pooled over the repeats.
  const double runs = static_cast<double>(repeats.size());
  for (const auto& [name, site] : pooled_sites(repeats)) {
    if (site.recorded <= 0) continue;
    s.sites.push_back({name, site.recorded / runs, site.own_work_s / site.recorded, trusted_median(site.creation_gaps),
                       trusted_median(site.dispatch_gaps), trusted_median(site.release_gaps),
                       site.depend_items / site.recorded});
  }
  std::stable_sort(s.sites.begin(), s.sites.end(),
                   [](const report::TaskSiteCost& a, const report::TaskSiteCost& b) { return a.tasks > b.tasks; });
  return s;
}

}  // namespace ompscope::analysis
