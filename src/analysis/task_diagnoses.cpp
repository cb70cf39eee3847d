#include "analysis/task_diagnoses.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>

#include "analysis/duration_text.h"
#include "analysis/scalability.h"
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
  return samples.size() >= kMinDispatchGaps ? median_of_samples(samples) : 0;
}

// The median over repeats of a per-run cost; 0 where no run measured it.
double measured(const std::vector<const TaskFigures*>& runs, const std::vector<double> TaskFigures::*samples) {
  std::vector<double> v;
  for (const TaskFigures* r : runs)
    if (double m = trusted_median(r->*samples); m > 0) v.push_back(m);
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

}  // namespace

PerTaskCost per_task_cost(const std::vector<const TaskFigures*>& runs) {
  PerTaskCost c;
  c.creation_gap_s = measured(runs, &TaskFigures::creation_gaps);
  c.dispatch_s = measured(runs, &TaskFigures::dispatch_gaps);
  c.immediate_s = measured(runs, &TaskFigures::immediate_starts);
  // A creation gap holds the program's code between two task constructs too: one far above the
  // runtime's other per-task costs is the creator's preparation (task_creation_bottleneck's
  // business), not a creation call.
  const double runtime_scale = std::max(c.dispatch_s, c.immediate_s);
  c.creation_s = c.creation_gap_s <= kBodyPerDispatch * runtime_scale ? c.creation_gap_s : 0;
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
    dispatched += static_cast<double>(r->dispatch_gaps.size());
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
  CutoffProposal p;
  p.work_per_task_s = inline_work[0];
  double kept = 0, at_depth = depths[0].tasks / runs_n;  // tasks at depth d + 1, the tree grown by children[]
  for (size_t d = 0; d < n && inline_work[d] >= kCutoffWorkPerCost * cost.total_s; at_depth *= children[d++]) {
    kept += at_depth;
    p.depth = static_cast<int>(d + 1);
    p.kept_tasks = kept;
    p.work_per_task_s = inline_work[d];
  }
  return p;
}

std::vector<Problem> diagnose_tasks(const std::vector<const TaskFigures*>& repeats, int threads) {
  std::vector<Problem> out;
  if (repeats.empty() || threads < 2) return out;
  const double tasks = median_of(repeats, [](const TaskFigures& f) { return double(f.tasks); });
  if (tasks == 0) return out;
  const double team_time = median_of(repeats, [](const TaskFigures& f) { return f.thread_time_s; });
  const double significant = kSignificantShare * team_time;
  const double t = threads;
  const double body = median_of(repeats, [](const TaskFigures& f) { return f.mean_body_s(); });
  const PerTaskCost cost = per_task_cost(repeats);
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
  const double runtime_total = std::clamp(team_time - own_code, 0.0, team_time);
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
      saved = std::max(0.0, runtime_total - cut->kept_tasks * cost.total_s);
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
  if (graph_idle >= significant && chain >= kChainShareOfSpan * span && preparing) {
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
                                      double on_cpu, double base_on_cpu) {
  if (repeats.empty() || base.empty() || threads <= base_threads) return std::nullopt;
  // Where sampled-out tasks created sampled-out subtrees, the recorded tasks are the tree's first
  // ones, and which ones those are changes with the thread count: they are no sample of the
  // construct's tasks (BOTS health: 14.3 µs per recorded task at 1 thread, 2.5 µs at 2, while
  // the mean over all of them grew from 0.5 to 3.9 µs). Nothing is said there.
  for (const auto* runs : {&repeats, &base})
    for (const TaskFigures* r : *runs)
      if (r->hidden_subtree_tasks > 0) return std::nullopt;
  const auto pooled = [](const std::vector<const TaskFigures*>& runs) {
    std::map<std::string, SiteFigures> sites;
    for (const TaskFigures* r : runs)
      for (const auto& [name, site] : r->sites) sites[name] += site;
    return sites;
  };
  const std::map<std::string, SiteFigures> now = pooled(repeats), before = pooled(base);
  double recorded = 0;
  for (const auto& [name, site] : now) recorded += site.recorded;
  const double tasks = median_of(repeats, [](const TaskFigures& f) { return double(f.tasks); });
  const double team_time = median_of(repeats, [](const TaskFigures& f) { return f.thread_time_s; });
  struct Grown {
    std::string site;
    double growth_s, base_body_s, body_s, tasks;
  };
  std::vector<Grown> grown;
  double growth = 0;
  for (const auto& [name, site] : now) {
    auto b = before.find(name);
    if (b == before.end() || site.recorded < kMinDispatchGaps || b->second.recorded < kMinDispatchGaps) continue;
    const double body = on_cpu * site.own_work_s / site.recorded;
    const double base_body = base_on_cpu * b->second.own_work_s / b->second.recorded;
    if (body <= base_body) continue;
    const double site_tasks = tasks * site.recorded / recorded;  // its share of the tasks that ran
    grown.push_back({name, (body - base_body) * site_tasks, base_body, body, site_tasks});
    growth += grown.back().growth_s;
  }
  if (grown.empty() || growth < kSignificantShare * team_time) return std::nullopt;
  std::sort(grown.begin(), grown.end(), [](const Grown& a, const Grown& b) { return a.growth_s > b.growth_s; });
  std::vector<std::string> parts;
  for (const Grown& g : grown)
    parts.push_back(fmt::format("{} ({:.0f} tasks): {} per task at {} against {} at {} (+{:.0f}%)", g.site, g.tasks,
                                duration_text(g.body_s), threads_phrase(threads), duration_text(g.base_body_s),
                                base_threads, 100 * (g.body_s / g.base_body_s - 1)));
  const Grown& top = grown.front();
  return Problem{
      "work_inflation", threads, growth, growth / threads,
      fmt::format("task bodies do the same work slower on the CPU ({} more thread time): {}; a task that another thread "
                  "runs finds its data in its creator's cache, and tasks that update shared counters or "
                  "neighbouring data move cache lines between cores: keep each thread on its own part of "
                  "the data (create tasks near their data), accumulate in task-local variables (a task "
                  "reduction) and pad what tasks update to its own 64-byte line",
                  duration_text(growth), fmt::join(parts, "; ")),
      {{"task_body_growth_s", growth},
       {"tasks", tasks},
       {"base_body_s", top.base_body_s},
       {"body_s", top.body_s},
       {"base_threads", static_cast<double>(base_threads)},
       {"cpu_per_wall_s", on_cpu},
       {"base_cpu_per_wall_s", base_on_cpu}}};
}

TaskSummary summarize_tasks(const std::vector<const TaskFigures*>& repeats, int threads, double measured_speedup) {
  TaskSummary s;
  s.tasks = median_of(repeats, [](const TaskFigures& f) { return double(f.tasks); });
  s.recorded_tasks = median_of(repeats, [](const TaskFigures& f) { return double(f.recorded_tasks); });
  s.hidden_subtree_tasks = median_of(repeats, [](const TaskFigures& f) { return double(f.hidden_subtree_tasks); });
  s.mean_body_s = median_of(repeats, [](const TaskFigures& f) { return f.mean_body_s(); });
  const PerTaskCost cost = per_task_cost(repeats);
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
  return s;
}

}  // namespace ompscope::analysis
