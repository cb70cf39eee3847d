// What-if replay of one region instance's task graph (docs/tasks.md, "Replay"): the recorded
// tasks, with their own work, creations, waits and dependences, run again by a list scheduler on
// any number of threads, each task start paying the runtime's per-task cost measured in the run.
// Predicts the instance's time beyond the machine's cores, from a run at one thread count.
#pragma once
#include <map>
#include <optional>
#include <vector>

#include "analysis/task_work.h"

namespace ompscope::analysis {

// The instance's time on `threads` threads (at least the recorded team's size): its implicit
// tasks keep their recorded own work (a worksharing loop among them is not shared out again);
// the extra threads' implicit tasks only meet the barriers. A thread runs its own newest ready
// task first and else steals the oldest of another's (libomp's and libgomp's order, near enough);
// a task waiting in a taskwait, a taskgroup or a barrier lets its thread run other ready tasks
// meanwhile, and resumes when the thread is back to it (tied tasks nest on their thread's stack).
// `per_task_s`: the runtime's cost to start a task, added to each task's first stretch of work.
// nullopt where the graph holds batches of sampled-out tasks (their creators and dependences are
// unknown: OMPSCOPE_SAMPLING=off records every task).
std::optional<double> replay_instance(const TaskNodes& graph, int threads, double per_task_s);
// One count's replay: the instance's time, and how much of it is the tasks' own work along the
// chain of stretches that ends last (what the time grows by, the schedule kept, where every body
// grows by its own length: build_report.cpp carries the bodies' growth measured at a larger count).
struct ReplayedTime {
  double time_s = 0;
  double body_s = 0;
};
// What each replay of one instance reads, built from its graph once (each task's stretches of own
// work and what ends them, its parent, its predecessors): the graph itself may go before the
// replays run, as task_figures lets it (in a recursive tree, the graph's nodes and placed
// fragments were half of a report's peak memory while the replays ran).
struct ReplayScripts;
// The graph's scripts, in this thread's own buffers, which its next call reuses (a region repeated
// thousands of times has a small graph per instance); null where the graph cannot be replayed
// (batches of sampled-out tasks, whose creators and dependences are unknown).
const ReplayScripts* replay_scripts(const TaskNodes& graph);
std::map<int, ReplayedTime> replay_instance(const ReplayScripts& scripts, const std::vector<int>& threads,
                                            double per_task_s, double extra_per_task_s = 0, int workers = 1);

// The same on each of `threads` (the graph's scripts built once); empty where it cannot be replayed,
// and no entry for a count below the recorded team's size. Counts above it pay `extra_per_task_s`
// more per task (what deferring a task costs where the recorded team ran them at once). Up to
// `workers` counts are replayed at once, each on its own thread, where the graph is large enough
// (kParallelReplayTasks) to repay starting them; the figures are the same either way.
std::map<int, ReplayedTime> replay_instance(const TaskNodes& graph, const std::vector<int>& threads, double per_task_s,
                                            double extra_per_task_s = 0, int workers = 1);

// Tasks from which a graph's thread counts are replayed side by side: a thread's start costs
// tens of microseconds, a replay of 10 000 tasks about a millisecond.
inline constexpr size_t kParallelReplayTasks = 10'000;

}  // namespace ompscope::analysis
