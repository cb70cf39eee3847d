// Work and span of one parallel-region instance's task graph: how much parallelism its tasks
// offer at best, whatever the team size.
//   work = the own work of every task of the instance, implicit tasks included (a creator's
//          serial preparation is work too);
//   span = the longest chain of own work when every task starts the moment it is created and
//          no one waits for a thread: a task's creation forks a chain, a taskwait joins the
//          waiting task's children, a taskgroup its descendants, a barrier every task created
//          before it (and all implicit tasks).
// work ÷ span is the available parallelism; at t threads the speedup cannot exceed
// min(t, work ÷ span) (Brent / the work law and the span law).
#pragma once
#include <vector>

#include "analysis/task_work.h"
#include "analysis/timeline.h"

namespace ompscope::analysis {

struct TaskGraphSize {
  double work_s = 0;
  double span_s = 0;
  double parallelism() const { return span_s > 0 ? work_s / span_s : 0; }
  // Dependences (docs/tasks.md, "Dependences"): a task starts when it is created and every task
  // it depends on has finished its own part (its body, not its children's). The dependence path
  // is the longest chain of tasks each of which, on the ideal clock, started the moment the one
  // before it ended: its length from the first one's start to the last one's end, and its nodes,
  // first to last (empty where no task waited for another).
  size_t dependence_edges = 0;
  double dependence_path_s = 0;
  std::vector<size_t> dependence_path;
  std::vector<double> dependence_path_durations;     // [i]: dependence_path[i]'s start to end (ideal clock)
  std::vector<DependenceKind> dependence_path_kinds;  // [i]: the edge into dependence_path[i + 1]
};

TaskGraphSize task_graph_size(const TaskNodes& nodes);

}  // namespace ompscope::analysis
