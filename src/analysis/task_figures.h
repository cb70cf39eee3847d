// What the explicit tasks of one region cost in one run: the figures the three tasking
// diagnoses and the task-graph columns of the report are made of. Summed over the region's
// instances. Times are seconds; "thread time" is summed over the team's threads.
//
// A thread *waits* while it is in a barrier, taskwait or taskgroup and runs no task. Each
// stretch of waiting that ends in the start of a task b is split by b's creation:
//   - b existed before the stretch began: the stretch is the runtime's dispatch cost (finishing
//     one task and starting the next that was ready) — a *dispatch gap*;
//   - b was created during the stretch: the thread starved until then — *starvation* (the
//     creators could not feed it);
// a stretch that ends without a task starves while tasks are still being created (until the
// instance's last creation).
// A thread also waits inside an explicit task's own taskwait while it runs none of its children:
// there, a stretch that ends in the start of a ready task is a dispatch gap too (a recursive tree
// pays most of its dispatches inside taskwaits, not in the barrier), and a stretch that ends the
// taskwait after every child of the waiting task had completed is the runtime's *taskwait cost*
// (finishing the last child and leaving the taskwait).
// A task that starts on its creator's thread with nothing else in between (undeferred, or run at
// once because the creator's queue was full) gives its *immediate start*: creation to start.
// *Tail idle*: waiting after the instance's last task has started (no work left to hand out)
// until its last task ends.
// *Creation chain*: the own work of the instance's main creator (the task that created the most)
// up to its last creation — its serial preparation and creation calls, one chain in the task
// graph; *graph idle*: the team's thread time the task graph leaves idle at best,
// team × span − work.
// *End idle*: the same, predicted rather than measured, so that a machine that slows one thread
// down cannot hide it: the instance's tasks, with their measured bodies, handed in creation
// order to whichever of the team's threads is free first — the team's thread time until the
// last one ends, less the bodies — or, if larger, the idle thread time the task count alone
// implies with every body the median one: (team × ⌈tasks / team⌉ − tasks) × median body.
#pragma once
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/timeline.h"

namespace ompscope::analysis {

// Recorded tasks at one depth of the task tree (depth 1: created by an implicit task; depth d + 1:
// created by a task at depth d). Sums, so that instances add up.
struct DepthFigures {
  double tasks = 0;        // creations the recorded tasks at this depth stand for (their weights)
  double recorded = 0;     // recorded tasks at this depth
  double own_work_s = 0;   // their own work (creation calls included), summed over the recorded ones
  double waiting = 0;      // of them, tasks with at least one taskwait or taskgroup of their own
  double parents = 0;      // of them, tasks with a recorded child
  // of them, tasks that waited with no recorded child: their children were all sampled out
  // (adaptive sampling), so how many is not known
  double unknown_children = 0;
  double leaves = 0;       // of them, tasks that created none (no child recorded, no wait)
  double leaf_own_work_s = 0;  // the own work of those

  DepthFigures& operator+=(const DepthFigures& o) {
    tasks += o.tasks;
    recorded += o.recorded;
    own_work_s += o.own_work_s;
    waiting += o.waiting;
    parents += o.parents;
    unknown_children += o.unknown_children;
    leaves += o.leaves;
    leaf_own_work_s += o.leaf_own_work_s;
    return *this;
  }
};

// The recorded tasks of one task construct (creation site): what task inflation compares.
struct SiteFigures {
  double recorded = 0;    // recorded tasks created there that ran
  double own_work_s = 0;  // their own work, summed
  // The runtime's cost per task of the site, measured as TaskFigures' pooled figures are, each
  // sample given to the site of the task it measures: the creation gap before it was created
  // (an upper bound: its creator's code between the two constructs included; with a depend
  // clause, the runtime's registration of its items too), the dispatch gap before it started,
  // and, for a task that waited for predecessors, its release: from its last predecessor's
  // completion to its start on a thread that was waiting for it (the runtime's release of the
  // dependence and the hand-off; docs/tasks.md, "The runtime's cost per creation site").
  std::vector<double> creation_gaps, dispatch_gaps, release_gaps;
  double depend_items = 0;  // items of the recorded tasks' depend clauses, summed
  // Time taken out of their bodies as their threads' time off the CPU (task_work.h,
  // take_out_time_off_the_cpu), summed: in no body's own work, and still the tasks' time.
  double off_cpu_taken_s = 0;
  SiteFigures& operator+=(const SiteFigures& o) {
    recorded += o.recorded;
    own_work_s += o.own_work_s;
    off_cpu_taken_s += o.off_cpu_taken_s;
    creation_gaps.insert(creation_gaps.end(), o.creation_gaps.begin(), o.creation_gaps.end());
    dispatch_gaps.insert(dispatch_gaps.end(), o.dispatch_gaps.begin(), o.dispatch_gaps.end());
    release_gaps.insert(release_gaps.end(), o.release_gaps.begin(), o.release_gaps.end());
    depend_items += o.depend_items;
    return *this;
  }
};

// The tasks of one creation site on the dependence path (task_graph.h), in the path's order of
// first appearance: by code address in one run, then by source location (analyze_run).
struct PathSite {
  uint64_t codeptr = 0;
  std::string site;
  double tasks = 0;   // tasks of the path created there
  double time_s = 0;  // their share of the path (ideal clock: start to end of each)
};

struct TaskFigures {
  uint64_t tasks = 0;          // explicit tasks that ran
  uint64_t recorded_tasks = 0; // of them, recorded in full (the others: adaptive sampling)
  uint64_t hidden_subtree_tasks = 0;  // sampled-out tasks created by sampled-out tasks: not in the span
  double body_s = 0;           // their own work (excluding their own taskwaits)
  double thread_time_s = 0;    // team size × duration of the instances that created tasks
  double work_s = 0;           // task graph (task_graph.h), instances summed: they run one after another
  double span_s = 0;
  std::vector<double> taskwait_gaps;  // seconds, one per taskwait that ended with its children done
  std::vector<double> immediate_starts;  // seconds, creation → start of a task run at once by its creator
  std::vector<DepthFigures> depths;   // [d - 1]: recorded tasks at depth d
  // Recorded tasks per task construct: by its code address in one run (task_figures), then by
  // its source location (analyze_run names them, so that runs and thread counts compare).
  std::unordered_map<uint64_t, SiteFigures> sites_by_code;
  std::map<std::string, SiteFigures> sites;
  double starvation_s = 0;     // thread time
  double tail_idle_s = 0;      // thread time
  double end_idle_s = 0;       // thread time
  uint32_t creating_threads = 0;  // most threads that created tasks in one instance
  double creation_chain_s = 0;
  uint64_t chain_tasks = 0;       // tasks created along the creation chains (sampled-out ones too)
  double graph_idle_s = 0;        // thread time
  // Dependences (docs/tasks.md, "Dependences"): tasks with a depend clause, the edges between
  // tasks, the dependence path (task_graph.h) with its tasks by creation site, how many of its
  // edges order two writers (inout after inout: neither only reads), and the thread time spent
  // waiting with no task ready because the created ones waited for their predecessors.
  uint64_t tasks_with_depends = 0;
  uint64_t dependence_edges = 0;
  double dependence_path_s = 0;
  // The same path as it ran: its first task's start to its last task's end, the hand-offs
  // between them (the runtime releasing a successor, another thread picking it up) included.
  double dependence_path_measured_s = 0;
  double dependence_path_tasks = 0;
  double dependence_path_output_edges = 0;
  std::vector<PathSite> path_sites;
  double dependence_wait_s = 0;   // thread time
  double dependence_path_wait_s = 0;  // of it, waiting for a task on the dependence path (starved by the path)
  // What-if replay (task_replay.h): the instances' time on each thread count from the team's size
  // to kReplayMaxThreads, summed; `replay_incomplete`: an instance could not be replayed (batches
  // of sampled-out tasks), so no figure stands for the region.
  std::map<int, double> replay_s;
  // Of each count's replayed time, the tasks' own work along the chain that ends last
  // (ReplayedTime::body_s), summed as replay_s is.
  std::map<int, double> replay_body_s;
  bool replay_incomplete = false;
  double replay_per_task_s = 0;   // the runtime's cost per task start the replay charged (last instance's)
  // The replay's sample (replayed_in_sample): the instances that created tasks and their wall
  // time, and of them the ones replayed. Where some were left out, replay_s and replay_body_s are
  // the sample's scaled by the wall time of all over the sample's (scale_replay_to_all).
  uint64_t task_instances = 0;
  uint64_t replayed_instances = 0;
  double task_instances_wall_s = 0;
  double replayed_wall_s = 0;

  double mean_body_s() const { return tasks ? body_s / static_cast<double>(tasks) : 0; }
  // The region's dispatch gaps (seconds, one per back-to-back start of a ready task) and creation
  // gaps (seconds between two creations by one task with nothing run between): its sites' pooled.
  // Each sample is kept once, by the site of the task it measures: held for the region too, they
  // were two doubles per task beside the sites' (a 10 M-event log's 29 MB at the peak).
  std::vector<double> dispatch_gaps() const { return pooled(&SiteFigures::dispatch_gaps); }
  std::vector<double> creation_gaps() const { return pooled(&SiteFigures::creation_gaps); }
  size_t dispatch_gap_count() const { return count(&SiteFigures::dispatch_gaps); }
  double dispatch_s() const;      // median dispatch gap; 0 without any

 private:
  std::vector<double> pooled(std::vector<double> SiteFigures::*samples) const;
  size_t count(std::vector<double> SiteFigures::*samples) const;
};

inline constexpr int kReplayMaxThreads = 256;

// The instances of a region replayed (task_replay.h) where it created tasks in more than this
// many: a stated sample, as a sampling profiler's. A replay costs per instance and per thread
// count: on a log of 147 000 instances of a 12-task tree (the 10 M synthetic log), a third of its
// report's CPU time (3.2-3.5 user-s, 2.1-2.3 with the sample), and a region's prediction is a sum
// over its instances, which a sample of four thousand spread over the run estimates to its three
// digits there. Where instances differ, the sample's luck shows: 3 000 instances of two shapes in
// turn, one in three replayed, read 2-4% off the whole replay (a sample of 1 000); 12 000 of them,
// 0.0-0.5% off with a sample of 1 000 or 4 000.
inline constexpr size_t kReplayedInstances = 4096;
// Whether the `index`-th (from 0) of a region's `instances` that created tasks is replayed: every
// one up to kReplayedInstances; beyond, one in each block of ceil(instances / kReplayedInstances)
// consecutive ones, at a place in the block drawn from its number (splitmix64): spread over the
// whole run, and a period of the program's (instances of two shapes in turn) does not line up
// with the blocks as a fixed stride would.
bool replayed_in_sample(size_t index, size_t instances);
// `figures`' replayed times (and bodies) scaled from its sample to all its instances by their wall
// time (a ratio estimator: Σ all / Σ sampled), where the sample left some out.
void scale_replay_to_all(TaskFigures& figures);

// How the task graph is replayed (task_replay.h): whether at all (`scale` replays the runs at its
// smallest count only, the others' replays being read by nothing), and what a recursive tree's
// task costs a team beyond running at once in its creator (the bench cache's task_tree_s for the
// run's runtime; 0: unknown), charged to each task of a graph recorded at one thread when it is
// replayed on more (docs/tasks.md, "Replay").
struct ReplayOptions {
  bool replay = true;
  double deferred_task_s = 0;
  // Cores the replay may use: a large graph's thread counts are replayed side by side
  // (replay_instance). 1 where the caller already analyses other runs beside this one.
  int workers = 1;
};

// Tasks of one body: a recorded task (1), or a batch of light ones, each the batch's mean body.
// Kept as runs, not one entry per task: a sampled run of BOTS health stands 2.25 M tasks on a few
// thousand batches, and the vector of their bodies was a fifth of its analysis.
struct BodyRun {
  double body = 0;
  uint64_t count = 0;
};

// The `rank`-th smallest body (from 0) of those the runs stand for, the runs reordered; the largest
// where `rank` is past them, 0 where there are none. Selected, not sorted: a sort of a few thousand
// batches per instance, for their median (end_idle_s), was 2% of BOTS health's analysis.
double body_at_rank(std::vector<BodyRun>& runs, uint64_t rank);

// Thread time left idle at the end when the bodies are handed out in order to whichever of
// `team` threads is free first (TaskFigures::end_idle_s, with the bound by their count). Which
// one, where two are free at once, does not matter: the moments evolve alike, so does the figure.
// A run of `count` bodies costs steps in proportion to the threads, not to the bodies.
double list_schedule_idle(const std::vector<BodyRun>& runs, size_t team);

// `tasks`: the explicit tasks created in `region`.
TaskFigures task_figures(const RegionInstance& region, std::span<const TaskInstance* const> tasks,
                         const ReplayOptions& replay = {});

// Sums figures of instances of one region (the dispatch gaps pooled, the fastest interval kept).
void add_task_figures(TaskFigures& into, const TaskFigures& instance);

}  // namespace ompscope::analysis
