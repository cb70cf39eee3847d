#include "analysis/task_diagnoses.h"

#include <fmt/format.h>

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

// The dispatch cost where enough dispatches were seen to trust it; 0 where none was.
double measured_dispatch(const std::vector<const TaskFigures*>& runs) {
  std::vector<double> v;
  for (const TaskFigures* r : runs)
    if (r->dispatch_gaps.size() >= kMinDispatchGaps) v.push_back(r->dispatch_s());
  return median(std::move(v));
}

}  // namespace

std::vector<Problem> diagnose_tasks(const std::vector<const TaskFigures*>& repeats, int threads) {
  std::vector<Problem> out;
  if (repeats.empty() || threads < 2) return out;
  const double tasks = median_of(repeats, [](const TaskFigures& f) { return double(f.tasks); });
  if (tasks == 0) return out;
  const double team_time = median_of(repeats, [](const TaskFigures& f) { return f.thread_time_s; });
  const double significant = kSignificantShare * team_time;
  const double t = threads;
  const double body = median_of(repeats, [](const TaskFigures& f) { return f.mean_body_s(); });
  const double dispatch = measured_dispatch(repeats);
  const double creation = median_of(repeats, [](const TaskFigures& f) { return f.creation_interval_s; });
  const double creators = median_of(repeats, [](const TaskFigures& f) { return double(f.creating_threads); });

  // Dispatch is measured where a thread waited for a queued task; tasks the creator runs at once
  // (libomp does when its queue is full) pass none. Whatever they cost, it fits in the team's
  // time outside the bodies: fine_tasks' 400 000 tasks × 1.6 µs made 0.65 s of a 86 ms team time.
  const double dispatch_total = std::min(tasks * dispatch, std::max(0.0, team_time - tasks * body));
  if (dispatch > 0 && body < kBodyPerDispatch * dispatch && dispatch_total >= significant) {
    out.push_back({"fine_grained_tasks", threads, dispatch_total, dispatch_total / t,
                   fmt::format("{:.0f} tasks of {} each on average, and the runtime needs {} to hand out each one: "
                               "create fewer, larger tasks (an if or final clause, or a depth or size cutoff in the "
                               "recursion), a taskloop with a grainsize, or a plain loop",
                               tasks, duration_text(body), duration_text(dispatch)),
                   {{"tasks", tasks},
                    {"mean_body_s", body},
                    {"dispatch_s", dispatch},
                    {"creation_estimated_s", creation}}});
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

TaskSummary summarize_tasks(const std::vector<const TaskFigures*>& repeats, int threads, double measured_speedup) {
  TaskSummary s;
  s.tasks = median_of(repeats, [](const TaskFigures& f) { return double(f.tasks); });
  s.recorded_tasks = median_of(repeats, [](const TaskFigures& f) { return double(f.recorded_tasks); });
  s.hidden_subtree_tasks = median_of(repeats, [](const TaskFigures& f) { return double(f.hidden_subtree_tasks); });
  s.mean_body_s = median_of(repeats, [](const TaskFigures& f) { return f.mean_body_s(); });
  s.dispatch_s = measured_dispatch(repeats);
  s.creation_s = median_of(repeats, [](const TaskFigures& f) { return f.creation_interval_s; });
  s.work_s = median_of(repeats, [](const TaskFigures& f) { return f.work_s; });
  s.span_s = median_of(repeats, [](const TaskFigures& f) { return f.span_s; });
  s.parallelism = s.span_s > 0 ? s.work_s / s.span_s : 0;
  s.speedup_bound = std::min(static_cast<double>(threads), s.parallelism);
  s.measured_speedup = measured_speedup;
  s.starvation_s = median_of(repeats, [](const TaskFigures& f) { return f.starvation_s; });
  s.tail_idle_s = median_of(repeats, [](const TaskFigures& f) { return f.tail_idle_s; });
  s.end_idle_s = median_of(repeats, [](const TaskFigures& f) { return f.end_idle_s; });
  return s;
}

}  // namespace ompscope::analysis
