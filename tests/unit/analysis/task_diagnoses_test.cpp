// diagnose_tasks: the three tasking problems and their thresholds (task_diagnoses.h), each
// checked on figures just above and just below it, and on the hand-built pathologies.
#include "analysis/task_diagnoses.h"

#include <gtest/gtest.h>

#include "event_log_builder.h"
#include "problem_lookup.h"
#include "task_scenarios.h"

namespace ompscope::analysis {
namespace {

using testing::detail;
using testing::find;

// 100 tasks in a region where the team spent 10 s of thread time: 10% of it is 1 s. Outside the
// program's code (the tasks' and the creator's own work), the team spends 100 × dispatch, or all
// it has left beside the bodies.
TaskFigures figures(double body_each, double dispatch, size_t gaps, double starvation = 0, double end_idle = 0) {
  TaskFigures f;
  f.tasks = 100;
  f.recorded_tasks = 100;  // every task recorded: the bodies are measured
  f.body_s = 100 * body_each;
  f.work_s = std::max(f.body_s, 10 - 100 * dispatch);
  f.thread_time_s = 10;
  f.sites["tasks.c:1"].dispatch_gaps.assign(gaps, dispatch);
  f.starvation_s = starvation;
  f.end_idle_s = end_idle;
  f.tail_idle_s = end_idle / 2;  // measured: shown, not judged
  f.creating_threads = 1;
  return f;
}

std::vector<Problem> diagnose(const TaskFigures& f, int threads = 2) { return diagnose_tasks({&f}, threads); }

// --- fine_grained_tasks: body < 4 × dispatch, 100 × dispatch ≥ 1 s ------------------------------

TEST(FineGrainedTasks, BodiesShorterThanFourDispatchesAreTooFine) {
  const auto problems = diagnose(figures(/*body*/ 0.039, /*dispatch*/ 0.01, kMinDispatchGaps));
  ASSERT_EQ(problems.size(), 1u);
  const Problem& p = problems[0];
  EXPECT_EQ(p.kind, "fine_grained_tasks");
  EXPECT_EQ(p.threads, 2);
  EXPECT_DOUBLE_EQ(p.time_s, 1.0);  // 100 tasks × 10 ms of dispatch
  EXPECT_DOUBLE_EQ(p.gain_s, 0.5);  // shared by 2 threads
  EXPECT_DOUBLE_EQ(detail(p, "dispatch_s"), 0.01);
  EXPECT_DOUBLE_EQ(detail(p, "mean_body_s"), 0.039);
  EXPECT_NE(p.hint.find("cutoff"), std::string::npos) << p.hint;
  EXPECT_NE(p.hint.find("grainsize"), std::string::npos) << p.hint;
}

TEST(FineGrainedTasks, CostNoMoreThanTheTeamsTimeOutsideTheBodies) {
  // 100 × 90 ms of dispatch would be 9 s, but of the team's 10 s the bodies took 3.9.
  const auto problems = diagnose(figures(0.039, 0.09, kMinDispatchGaps));
  const Problem* p = find(problems, "fine_grained_tasks");
  ASSERT_NE(p, nullptr);
  EXPECT_DOUBLE_EQ(p->time_s, 10 - 3.9);
  EXPECT_DOUBLE_EQ(p->gain_s, (10 - 3.9) / 2);
}

TEST(FineGrainedTasks, WithMostTasksSampledOutTheCostMeasuredPerTaskIsTheFloor) {
  // The same figures with 10 of the 100 tasks recorded: the other bodies were estimated from the
  // recorded ones (in a recursive tree, the waiting parents), so the team's time outside them
  // (6.1 s) may fall short of the runtime's cost; the 100 dispatches of 90 ms measured (9 s)
  // stand instead. With half of them recorded the residual stands.
  TaskFigures f = figures(0.039, 0.09, kMinDispatchGaps);
  f.recorded_tasks = 10;
  const auto sampled = diagnose(f);  // kept alive while a pointer into it is read
  const Problem* p = find(sampled, "fine_grained_tasks");
  ASSERT_NE(p, nullptr);
  EXPECT_DOUBLE_EQ(p->time_s, 9);
  f.recorded_tasks = 51;
  const auto recorded = diagnose(f);
  const Problem* q = find(recorded, "fine_grained_tasks");
  ASSERT_NE(q, nullptr);
  EXPECT_DOUBLE_EQ(q->time_s, 10 - 3.9);
}

TEST(FineGrainedTasks, BodiesOfFourDispatchesAreNot) {
  EXPECT_EQ(find(diagnose(figures(0.04, 0.01, kMinDispatchGaps)), "fine_grained_tasks"), nullptr);
}

TEST(FineGrainedTasks, NeedsEnoughDispatchesToTrustTheirCost) {
  EXPECT_EQ(find(diagnose(figures(0.001, 0.01, kMinDispatchGaps - 1)), "fine_grained_tasks"), nullptr);
}

TEST(FineGrainedTasks, ADispatchCostBelowATenthOfTheTeamsTimeIsNotWorthReporting) {
  // 100 × 9.9 ms = 0.99 s < 1 s.
  EXPECT_EQ(find(diagnose(figures(0.001, 0.0099, kMinDispatchGaps)), "fine_grained_tasks"), nullptr);
}

// --- task_creation_bottleneck: graph idle ≥ 1 s, chain ≥ half the span, > 4 dispatches a task ---

// A creator whose 100 creations take 0.6 s of its own work (6 ms each) on a span of 1 s.
TaskFigures creator_bound(double graph_idle, double chain = 0.6, double dispatch = 0) {
  TaskFigures f = figures(0.01, dispatch, dispatch > 0 ? kMinDispatchGaps : 0);
  f.span_s = 1;
  f.creation_chain_s = chain;
  f.chain_tasks = 100;
  f.graph_idle_s = graph_idle;
  f.starvation_s = 0.25;
  return f;
}

TEST(TaskCreationBottleneck, ACreatorsChainThatLeavesATenthOfTheTeamIdleIsABottleneck) {
  const auto problems = diagnose(creator_bound(1.0));
  ASSERT_EQ(problems.size(), 1u);
  const Problem& p = problems[0];
  EXPECT_EQ(p.kind, "task_creation_bottleneck");
  EXPECT_DOUBLE_EQ(p.time_s, 1.0);
  EXPECT_DOUBLE_EQ(p.gain_s, 0.5);
  EXPECT_DOUBLE_EQ(detail(p, "per_task_s"), 0.006);
  EXPECT_DOUBLE_EQ(detail(p, "creation_chain_s"), 0.6);
  EXPECT_DOUBLE_EQ(detail(p, "measured_starvation_s"), 0.25);
  EXPECT_DOUBLE_EQ(detail(p, "creating_threads"), 1);
  EXPECT_NE(p.hint.find("taskloop"), std::string::npos) << p.hint;
  EXPECT_NE(p.hint.find("preparation"), std::string::npos) << p.hint;
  EXPECT_NE(p.hint.find("60%"), std::string::npos) << p.hint;
}

TEST(TaskCreationBottleneck, LessIdleIsNot) { EXPECT_TRUE(diagnose(creator_bound(0.99)).empty()); }

TEST(TaskCreationBottleneck, NotWhenTheCreatorIsLessThanHalfTheSpan) {
  EXPECT_TRUE(diagnose(creator_bound(1.0, /*chain*/ 0.49)).empty());
}

TEST(TaskCreationBottleneck, NotWhenTheCreatorSpendsOnlyTheRuntimesCostPerTask) {
  // 6 ms a task is within 4 dispatches of 1.5 ms: creation itself, not preparation. (Bodies of
  // 10 ms are 6.7 dispatches: not fine-grained either.)
  EXPECT_TRUE(diagnose(creator_bound(1.0, 0.6, /*dispatch*/ 0.0015)).empty());
  EXPECT_EQ(diagnose(creator_bound(1.0, 0.6, /*dispatch*/ 0.0014)).size(), 1u);
}

// --- coarse_grained_tasks: end idle ≥ 1 s ------------------------------------------------------

TEST(CoarseGrainedTasks, IdlingATenthOfTheTeamsTimeAtTheEndIsTooCoarse) {
  const auto problems = diagnose(figures(0.01, 0, 0, 0, /*end_idle*/ 1.5), 3);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].kind, "coarse_grained_tasks");
  EXPECT_EQ(problems[0].threads, 3);
  EXPECT_DOUBLE_EQ(problems[0].time_s, 1.5);
  EXPECT_DOUBLE_EQ(problems[0].gain_s, 0.5);
  EXPECT_NEAR(detail(problems[0], "tasks_per_thread"), 100.0 / 3, 1e-12);
  EXPECT_DOUBLE_EQ(detail(problems[0], "measured_tail_idle_s"), 0.75);
  EXPECT_NE(problems[0].hint.find("smaller tasks"), std::string::npos) << problems[0].hint;
}

TEST(CoarseGrainedTasks, ShorterIdleEndsAreNot) { EXPECT_TRUE(diagnose(figures(0.01, 0, 0, 0, 0.99)).empty()); }

// --- all of them --------------------------------------------------------------------------------

TEST(TaskDiagnoses, NothingAtOneThreadNorWithoutTasks) {
  EXPECT_TRUE(diagnose(figures(0.001, 0.01, 100, 5, 5), 1).empty());
  TaskFigures none;
  EXPECT_TRUE(diagnose(none).empty());
}

TEST(TaskDiagnoses, EachHandBuiltPathologyGetsItsOwnDiagnosisAndNoOther) {
  struct Case {
    RunLog log;
    const char* kind;
    double time_us;
  };
  const Case cases[] = {{testing::creator_with_preparation_log(), "task_creation_bottleneck", 2 * 70 - 81},
                        {testing::three_tasks_on_two_threads_log(), "coarse_grained_tasks", 40},
                        // The team's 2 × 90 µs less the program's own code: work 41 less the
                        // 20 creation calls of 1 µs each (the master's creation gaps).
                        {testing::twenty_tiny_tasks_log(), "fine_grained_tasks", 2 * 90 - (41 - 20)}};
  for (const Case& c : cases) {
    const Timeline t = build_timeline(c.log);
    std::vector<const TaskInstance*> tasks;
    for (const TaskInstance& task : t.tasks) tasks.push_back(&task);
    const TaskFigures f = task_figures(t.regions.at(0), tasks);
    const auto problems = diagnose(f);
    ASSERT_EQ(problems.size(), 1u) << c.kind;
    EXPECT_EQ(problems[0].kind, c.kind);
    EXPECT_US(problems[0].time_s, c.time_us) << c.kind;
    EXPECT_US(problems[0].gain_s, c.time_us / 2) << c.kind;
  }
}

TEST(TaskDiagnoses, TheMedianRepeatDecides) {
  const TaskFigures low = figures(0.01, 0, 0, 0, 0.5), mid = figures(0.01, 0, 0, 0, 1.2), high = figures(0.01, 0, 0, 0, 9);
  const auto problems = diagnose_tasks({&high, &low, &mid}, 2);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_DOUBLE_EQ(problems[0].time_s, 1.2);
}

// --- the per-task cost and the cutoff of a recursive tree ------------------------------------------

// A binary tree of `levels` levels below one task created by the implicit task, every run of
// figures as the recorded tasks would give them: own work 1 µs per task that the runtime spends
// starting and finishing it (all of a leaf's), and per inner task its two creation calls of 0.5 µs
// and 1 µs of code more (none in the 8 tasks of the fourth level); the runtime's cost measured per task: creation
// 0.5, dispatch 1, a taskwait of 0.5 in every inner task.
TaskFigures binary_tree(size_t levels, double team_time_s) {
  TaskFigures f;
  double count = 1;
  for (size_t d = 0; d < levels; ++d, count *= 2) {
    DepthFigures depth;
    depth.tasks = depth.recorded = count;
    const bool leaf = d + 1 == levels;
    depth.own_work_s = count * (leaf ? 1e-6 : (d == 3 ? 1e-6 : 2e-6) + 2 * 0.5e-6);
    depth.waiting = leaf ? 0 : count;
    depth.parents = leaf ? 0 : count;
    depth.leaves = leaf ? count : 0;
    depth.leaf_own_work_s = leaf ? count * 1e-6 : 0;
    f.depths.push_back(depth);
    f.tasks += static_cast<uint64_t>(count);
    f.body_s += depth.own_work_s;
  }
  f.recorded_tasks = f.tasks;
  f.work_s = f.body_s;
  f.thread_time_s = team_time_s;
  f.sites["tasks.c:1"].dispatch_gaps.assign(f.tasks, 1e-6);
  f.sites["tasks.c:1"].creation_gaps.assign(f.tasks, 0.5e-6);
  f.taskwait_gaps.assign(f.tasks / 2, 0.5e-6);
  f.creating_threads = 1;
  return f;
}

TEST(PerTaskCost, CreationDispatchAndTheTaskwaitShareOfEachTask) {
  const TaskFigures f = binary_tree(5, 1);  // 31 tasks, 15 of them wait
  const PerTaskCost c = per_task_cost({&f});
  EXPECT_DOUBLE_EQ(c.creation_s, 0.5e-6);
  EXPECT_DOUBLE_EQ(c.dispatch_s, 1e-6);
  EXPECT_DOUBLE_EQ(c.taskwait_s, 0.5e-6);
  EXPECT_DOUBLE_EQ(c.taskwaits_per_task, 15.0 / 31);
  EXPECT_DOUBLE_EQ(c.children_per_task, 30.0 / 31);
  EXPECT_DOUBLE_EQ(c.dispatched_share, 1);
  EXPECT_DOUBLE_EQ(c.body_floor_s, 1e-6);  // the leaves' own work: all of it the runtime's
  // Per child, a fourth-level task spends (2 − 1) / 2 µs of its own work, the other inner ones
  // (3 − 1) / 2: the least is the creation call.
  EXPECT_DOUBLE_EQ(c.creation_in_body_s, 0.5e-6);
  EXPECT_NEAR(c.total_s, 0.5e-6 + 1e-6 + 0.5e-6 * 15 / 31, 1e-15);
}

TEST(PerTaskCost, ACreationGapFarAboveTheDispatchIsTheCreatorsPreparation) {
  TaskFigures f = binary_tree(5, 1);
  f.sites["tasks.c:1"].creation_gaps.assign(31, 4.01e-6);  // more than 4 × the 1 µs dispatch
  const PerTaskCost c = per_task_cost({&f});
  EXPECT_DOUBLE_EQ(c.creation_gap_s, 4.01e-6);
  EXPECT_DOUBLE_EQ(c.creation_s, 0);
  EXPECT_NEAR(c.total_s, 1e-6 + 0.5e-6 * 15 / 31, 1e-15);
  f.sites["tasks.c:1"].creation_gaps.assign(31, 4e-6);
  EXPECT_DOUBLE_EQ(per_task_cost({&f}).creation_s, 4e-6);
}

// libgomp wakes a sleeping thread with a system call at each creation: at 2 threads on an AMD
// EPYC VM fib_tasks_gcc's creation gap was 1.2 µs beside a 60 ns dispatch, 40 ns at 1 thread. A
// gap that was a creation call at the smallest count is one at every count (the program's code
// between two task constructs does not grow with the team); one that was preparation there stays
// preparation.
TEST(PerTaskCost, AGapThatWasACreationCallAtTheSmallestCountIsOneAtEveryCount) {
  TaskFigures base = binary_tree(5, 1);  // 0.5 µs gaps beside a 1 µs dispatch: creation calls
  TaskFigures now = binary_tree(5, 1);
  now.sites["tasks.c:1"].creation_gaps.assign(31, 20e-6);  // 20 × the dispatch
  EXPECT_DOUBLE_EQ(per_task_cost({&now}).creation_s, 0);  // alone: preparation
  const std::vector<const TaskFigures*> at_base = {&base};
  const PerTaskCost c = per_task_cost({&now}, &at_base);
  EXPECT_DOUBLE_EQ(c.creation_s, 20e-6);
  EXPECT_NEAR(c.total_s, 20e-6 + 1e-6 + 0.5e-6 * 15 / 31, 1e-15);
  // Preparation at the smallest count too (BOTS health's creator): still no creation call.
  base.sites["tasks.c:1"].creation_gaps.assign(31, 5e-6);
  EXPECT_DOUBLE_EQ(per_task_cost({&now}, &at_base).creation_s, 0);
  // A tree of such tasks, its inner tasks' own work holding their two creation calls (2 µs of
  // code + 2 × 20 µs): 21 µs per task on average, beside 1.24 µs measured per task without the
  // creation. It is fine-grained at 2 threads only with the smallest count beside it.
  TaskFigures tree = binary_tree(5, 2e-3);
  tree.sites["tasks.c:1"].creation_gaps.assign(31, 20e-6);
  tree.body_s = 0;
  for (size_t d = 0; d < tree.depths.size(); ++d) {
    DepthFigures& depth = tree.depths[d];
    depth.own_work_s = depth.recorded * (d + 1 == tree.depths.size() ? 1e-6 : 2e-6 + 2 * 20e-6);
    tree.body_s += depth.own_work_s;
  }
  tree.work_s = tree.body_s;
  const auto fine = [](const std::vector<Problem>& problems) {
    return std::any_of(problems.begin(), problems.end(), [](const Problem& p) { return p.kind == "fine_grained_tasks"; });
  };
  base.sites["tasks.c:1"].creation_gaps.assign(31, 0.5e-6);
  EXPECT_FALSE(fine(diagnose_tasks({&tree}, 2)));
  EXPECT_TRUE(fine(diagnose_tasks({&tree}, 2, &at_base)));
}

TEST(PerTaskCost, TasksStartedAtOnceCountTheirCreationToStart) {
  TaskFigures f = binary_tree(1, 1);
  f.sites["tasks.c:1"].dispatch_gaps.assign(8, 1e-6);
  f.immediate_starts.assign(24, 0.2e-6);  // three in four started at once, creation included
  f.sites["tasks.c:1"].creation_gaps.assign(8, 0.5e-6);
  f.taskwait_gaps.clear();
  const PerTaskCost c = per_task_cost({&f});
  EXPECT_DOUBLE_EQ(c.dispatched_share, 0.25);
  EXPECT_NEAR(c.total_s, 0.25 * (0.5e-6 + 1e-6) + 0.75 * 0.2e-6, 1e-15);
}

TEST(CutoffProposal, TheDeepestLevelWhoseSubtreesOutweighTheCostTwentyFold) {
  // 12 levels (4095 tasks): per task 0.5 + 1 + 0.5 × 2047/4095 ≈ 1.75 µs, so a kept task needs
  // 35 µs of inline work. Inline, a leaf does nothing (its 1 µs is the runtime's), an inner task
  // 1 µs plus its two children: W(d) = 2^(12 − d) − 1 µs. W(6) = 63 µs, W(7) = 31 µs: keep
  // depths 1..6, 63 tasks.
  const TaskFigures f = binary_tree(12, 1);
  const PerTaskCost c = per_task_cost({&f});
  const auto cut = propose_cutoff({&f}, c);
  ASSERT_TRUE(cut.has_value());
  EXPECT_EQ(cut->depth, 6);
  EXPECT_DOUBLE_EQ(cut->kept_tasks, 63);
  EXPECT_NEAR(cut->work_per_task_s, 63e-6, 1e-12);
}

TEST(CutoffProposal, NeverKeepsMoreTasksThanTheRegionCounted) {
  // The same tree, but the region counted 40 tasks (a sampled tree whose recorded levels grew
  // past what ran): depth 6 would keep 63 of 40, a cutoff that cuts nothing. Depth 5 keeps 31.
  // Counted 1, not even the first level fits: no depth is proposed.
  TaskFigures f = binary_tree(12, 1);
  const PerTaskCost c = per_task_cost({&f});
  f.tasks = 40;
  const auto cut = propose_cutoff({&f}, c);
  ASSERT_TRUE(cut.has_value());
  EXPECT_EQ(cut->depth, 5);
  EXPECT_DOUBLE_EQ(cut->kept_tasks, 31);
  EXPECT_NEAR(cut->work_per_task_s, 127e-6, 1e-12);
  f.tasks = 1;
  EXPECT_FALSE(propose_cutoff({&f}, c).has_value());
}

TEST(CutoffProposal, NoneForTasksCreatedByOneLevel) {
  const TaskFigures f = binary_tree(1, 1);
  EXPECT_FALSE(propose_cutoff({&f}, per_task_cost({&f})).has_value());
}

TEST(FineGrainedTasks, ARecursiveTreeGetsTheCutoffAndItsGain) {
  // 12 levels on 2 threads, the team's 20 ms: the program's own code is the tasks' own work less
  // a creation call (0.5 µs) and the runtime's start and finish (1 µs) per task, about the inner
  // tasks' 1 µs each; the rest is the runtime's. The cutoff keeps 63 tasks at 1.75 µs each and
  // 63/4095 of the rest of the team's cost per task: the gain is what is left, shared by the team.
  const TaskFigures f = binary_tree(12, 0.02);
  const auto problems = diagnose(f);
  const Problem* p = find(problems, "fine_grained_tasks");
  ASSERT_NE(p, nullptr);
  const double runtime = 0.02 - (f.work_s - 4095 * 1.5e-6);
  const double per_task = 0.5e-6 + 1e-6 + 0.5e-6 * 2047 / 4095;
  EXPECT_NEAR(p->time_s, runtime, 1e-12);
  const double per_kept = per_task + (runtime / 4095 - per_task) * 63 / 4095;
  EXPECT_NEAR(detail(*p, "cost_per_kept_task_s"), per_kept, 1e-15);
  EXPECT_NEAR(p->gain_s, (runtime - 63 * per_kept) / 2, 1e-12);
  EXPECT_DOUBLE_EQ(detail(*p, "cutoff_depth"), 6);
  EXPECT_NE(p->hint.find("depth 6"), std::string::npos) << p->hint;
  EXPECT_NE(p->hint.find("final(depth >= 6)"), std::string::npos) << p->hint;
}

TEST(FineGrainedTasks, ATreeOfLargeTasksIsNot) {
  TaskFigures f = binary_tree(4, 0.02);
  for (DepthFigures& d : f.depths) d.own_work_s *= 100, d.leaf_own_work_s *= 100;
  f.body_s *= 100;
  f.work_s = f.body_s;
  EXPECT_EQ(find(diagnose(f), "fine_grained_tasks"), nullptr);
}

// --- task inflation ------------------------------------------------------------------------------

// Tasks of two constructs, `recorded` of each recorded with the given mean own work; 1000 tasks
// ran in a region where the team spent 10 ms of thread time and lost 10 ms of it (5 ms of the
// region's time, kLost, at 2 threads).
constexpr double kLost = 5e-3;
TaskFigures sites(double a_body_s, double b_body_s, double recorded = 100) {
  TaskFigures f;
  f.tasks = 1000;
  f.thread_time_s = 0.01;
  f.sites["sort.c:40 merge"].recorded = recorded;
  f.sites["sort.c:40 merge"].own_work_s = recorded * a_body_s;
  f.sites["sort.c:55 split"].recorded = recorded;
  f.sites["sort.c:55 split"].own_work_s = recorded * b_body_s;
  return f;
}

// The team's kernel accounting over its work in a region: wall and CPU time, of it in the kernel.
WorkUsage usage(double wall_s, double cpu_s, double system_s = 0) {
  WorkUsage u;
  u.wall_s = wall_s;
  u.cpu_s = cpu_s;
  u.system_s = system_s;
  return u;
}

TEST(TaskInflation, BodiesOfAConstructSlowerAtTwoThreadsWithTheirShareOfTheTasks) {
  // merge: 1 µs → 3 µs per task over its 500 tasks (+1 ms of thread time); split: 2 → 2.4 µs
  // (+0.2 ms): 1.2 ms, 12% of the team's 10 ms lost; the gain is that shared by 2 threads.
  const TaskFigures base = sites(1e-6, 2e-6), now = sites(3e-6, 2.4e-6);
  const auto p = task_inflation({&now}, {&base}, 2, 1, kLost);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->kind, "task_inflation");
  EXPECT_NEAR(p->time_s, 1.2e-3, 1e-12);
  EXPECT_NEAR(p->gain_s, 0.6e-3, 1e-12);
  EXPECT_NEAR(detail(*p, "task_body_growth_s"), 1.2e-3, 1e-12);
  EXPECT_NEAR(detail(*p, "base_body_s"), 1e-6, 1e-15);  // the construct that grew most
  EXPECT_NEAR(detail(*p, "body_s"), 3e-6, 1e-15);
  EXPECT_NE(p->hint.find("sort.c:40 merge (500 tasks): 3 µs per task at 2 threads against 1 µs at 1 (+200%)"),
            std::string::npos)
      << p->hint;
  EXPECT_LT(p->hint.find("sort.c:40"), p->hint.find("sort.c:55"));  // the larger growth first
}

TEST(TaskInflation, TheGrowthIsSplitOnTheCpuInTheKernelAndOffTheCpu) {
  // The same bodies. At 2 threads the team's 10 ms were 20% off the CPU and 5% in the kernel, at 1
  // thread 20 ms 10% off the CPU and none in the kernel (2 ms off at each count: the team was no
  // longer off the CPU in all). Off the CPU: merge 3 × 0.2 − 1 × 0.1 = 0.5 µs per task, split
  // 2.4 × 0.2 − 2 × 0.1 = 0.28, over 500 tasks each: 0.39 ms; in the kernel: (3 + 2.4) × 0.05 ×
  // 500 = 0.135 ms; on the CPU the rest of the 1.2 ms: 0.675 ms, named first.
  TaskFigures base = sites(1e-6, 2e-6);
  base.thread_time_s = 0.02;
  const TaskFigures now = sites(3e-6, 2.4e-6);
  const WorkUsage at2 = usage(0.01, 0.008, 0.0005), at1 = usage(0.02, 0.018);
  const auto p = task_inflation({&now}, {&base}, 2, 1, kLost, &at2, &at1);
  ASSERT_TRUE(p.has_value());
  EXPECT_NEAR(p->time_s, 1.2e-3, 1e-12);
  EXPECT_NEAR(detail(*p, "off_cpu_s"), 0.39e-3, 1e-12);
  EXPECT_NEAR(detail(*p, "kernel_s"), 0.135e-3, 1e-12);
  EXPECT_NEAR(detail(*p, "on_cpu_s"), 0.675e-3, 1e-12);
  EXPECT_LT(p->hint.find("slower on the CPU"), p->hint.find("more off the CPU")) << p->hint;
  EXPECT_LT(p->hint.find("more off the CPU"), p->hint.find("more in the kernel")) << p->hint;
  EXPECT_EQ(p->hint.find("not read"), std::string::npos) << p->hint;
  EXPECT_NEAR(detail(*p, "waiting_off_cpu_s"), 0, 1e-15);
  // Unread, all of it counts on the CPU, and the hint says the split is not known.
  const auto unread = task_inflation({&now}, {&base}, 2, 1, kLost);
  ASSERT_TRUE(unread.has_value());
  EXPECT_NEAR(detail(*unread, "on_cpu_s"), 1.2e-3, 1e-12);
  EXPECT_NE(unread->hint.find("not read"), std::string::npos) << unread->hint;
}

TEST(TaskInflation, ThreadsOffTheCpuBetweenTheBodiesAreTimeLostToo) {
  // KASTORS jacobi on a loaded machine: bodies no slower at 2 threads (2 µs each at both), but
  // the team's 10 ms there (work and the barrier visits where it ran tasks) were 40% off the
  // CPU, involuntarily (4 ms), against 10% of 5 ms at 1 thread (0.5 ms): 3.5 ms more, none of it
  // inside a body that grew, so all of it between the bodies (a worker switched out while the
  // creator's tasks waited). 35% of the team's time: task_inflation, its gain shared by 2 threads.
  TaskFigures base = sites(2e-6, 2e-6);
  base.thread_time_s = 0.005;
  const TaskFigures now = sites(2e-6, 2e-6);
  WorkUsage at2 = usage(0.01, 0.006), at1 = usage(0.005, 0.0045);
  const auto p = task_inflation({&now}, {&base}, 2, 1, kLost, &at2, &at1);
  ASSERT_TRUE(p.has_value());
  EXPECT_NEAR(p->time_s, 3.5e-3, 1e-12);
  EXPECT_NEAR(p->gain_s, 1.75e-3, 1e-12);
  EXPECT_NEAR(detail(*p, "off_cpu_s"), 3.5e-3, 1e-12);
  EXPECT_NEAR(detail(*p, "waiting_off_cpu_s"), 3.5e-3, 1e-12);
  EXPECT_NEAR(detail(*p, "task_body_growth_s"), 0, 1e-15);
  EXPECT_NEAR(detail(*p, "on_cpu_s"), 0, 1e-15);
  EXPECT_NE(p->hint.find("off the CPU longer at 2 threads than at 1"), std::string::npos) << p->hint;
  EXPECT_NE(p->hint.find("3.5 ms more off the CPU (3.5 ms of it between the bodies"), std::string::npos) << p->hint;
  // Where the kernel's accounting was not read, nothing grew that is known: no finding.
  EXPECT_FALSE(task_inflation({&now}, {&base}, 2, 1, kLost).has_value());
  // Nor where the team was off the CPU no longer than at 1 thread (80% of 5 ms: 4 ms).
  at1.cpu_s = 0.001;
  EXPECT_FALSE(task_inflation({&now}, {&base}, 2, 1, kLost, &at2, &at1).has_value());
}

TEST(TaskInflation, TimeTakenOutOfTheBodiesAsOffTheCpuIsCountedOnceAndWhole) {
  // jacobi_deps beside a busy CPU: merge's bodies grew 1 -> 3 µs over its 500 tasks (+1 ms) with
  // 3 ms more taken out of them as their thread's time off the CPU (0.6 ms over its 100 recorded
  // tasks, 1000 tasks in all of 200 recorded). The team's 10 ms were 3.5 ms off the CPU, none at
  // 1 thread. What is left of the bodies was off the CPU (3.5 - 3) / (10 - 3) = 1/14 of the time:
  // merge 3 µs × 500 / 14 = 0.107 ms; between the bodies 3.5 - 3 - 0.107 = 0.393 ms. Growth
  // 1 + 3 + 0.393 = 4.393 ms. The team's whole share (35%) applied to the bodies left counted
  // 0.525 ms of it in the bodies and 3 ms taken out nowhere: 3.975 ms.
  TaskFigures base = sites(1e-6, 2e-6);
  base.thread_time_s = 0.005;
  TaskFigures now = sites(3e-6, 2e-6);
  now.sites["sort.c:40 merge"].off_cpu_taken_s = 0.6e-3;
  const WorkUsage at2 = usage(0.01, 0.0065), at1 = usage(0.005, 0.005);
  const auto p = task_inflation({&now}, {&base}, 2, 1, kLost, &at2, &at1);
  ASSERT_TRUE(p.has_value());
  const double in_bodies = 3e-6 * 500 / 14;
  EXPECT_NEAR(detail(*p, "descheduled_in_bodies_s"), 3e-3, 1e-12);
  EXPECT_NEAR(detail(*p, "waiting_off_cpu_s"), 0.5e-3 - in_bodies, 1e-12);
  EXPECT_NEAR(detail(*p, "off_cpu_s"), 3.5e-3, 1e-12);  // the team's, once
  EXPECT_NEAR(detail(*p, "on_cpu_s"), 1e-3 - in_bodies, 1e-12);
  EXPECT_NEAR(p->time_s, 4.5e-3 - in_bodies, 1e-12);
  EXPECT_NEAR(detail(*p, "task_body_growth_s"), 4e-3, 1e-12);  // grown in the bodies, taken out included
  EXPECT_NE(p->hint.find("3.5 ms more off the CPU (3 ms of it inside bodies while their thread was switched out; "
                         "393 µs between the bodies"),
            std::string::npos)
      << p->hint;
  // What was taken out at 1 thread too (0.9 ms in all) did not grow.
  base.sites["sort.c:40 merge"].off_cpu_taken_s = 0.18e-3;
  const auto less = task_inflation({&now}, {&base}, 2, 1, kLost, &at2, &at1);
  ASSERT_TRUE(less.has_value());
  EXPECT_NEAR(detail(*less, "descheduled_in_bodies_s"), 2.1e-3, 1e-12);
}

TEST(TaskInflation, LessThanATenthOfTheTeamsTimeLostIsNot) {
  // merge 1 → 2.9 µs: 0.95 ms, split 2 → 2.09 µs: 0.045 ms; 0.995 ms in all, below 1 ms.
  const TaskFigures base = sites(1e-6, 2e-6), now = sites(2.9e-6, 2.09e-6);
  EXPECT_FALSE(task_inflation({&now}, {&base}, 2, 1, kLost).has_value());
  // Nothing lost (a speedup above perfect), nothing the growth cost.
  const TaskFigures grown = sites(3e-6, 2.4e-6);
  EXPECT_FALSE(task_inflation({&grown}, {&base}, 2, 1, 0.0).has_value());
  EXPECT_FALSE(task_inflation({&grown}, {&base}, 2, 1, -1e-3).has_value());
}

TEST(TaskInflation, ATenthOfTheTimeLostNotOfTheTeamsTime) {
  // A narrow dependence graph: the team's 10 ms are mostly idle, and it lost 4 ms of them (2 ms of
  // the region's time at 2 threads). The same 0.995 ms of growth is a quarter of that loss: task
  // inflation, its gain 0.4975 ms (block_lu_deps, gcc: 8.6 ms of growth, 5.6% of the team's time
  // and 11% of the time it lost, went unsaid and unexplained).
  const TaskFigures base = sites(1e-6, 2e-6), now = sites(2.9e-6, 2.09e-6);
  const auto p = task_inflation({&now}, {&base}, 2, 1, 2e-3);
  ASSERT_TRUE(p.has_value());
  EXPECT_NEAR(p->time_s, 0.995e-3, 1e-12);
  EXPECT_NEAR(p->gain_s, 0.4975e-3, 1e-12);
  // Just below a tenth of 10 ms lost (5 ms of the region's time) it is none, as above.
  EXPECT_FALSE(task_inflation({&now}, {&base}, 2, 1, 4.98e-3).has_value());
  EXPECT_TRUE(task_inflation({&now}, {&base}, 2, 1, 4.97e-3).has_value());
}

TEST(TaskInflation, NeedsEnoughRecordedTasksOnBothSidesAndFasterBodiesAreNone) {
  const TaskFigures few = sites(1e-6, 2e-6, 7), now = sites(3e-6, 2.4e-6);
  EXPECT_FALSE(task_inflation({&now}, {&few}, 2, 1, kLost).has_value());
  const TaskFigures base = sites(3e-6, 2.4e-6), faster = sites(1e-6, 2e-6);
  EXPECT_FALSE(task_inflation({&faster}, {&base}, 2, 1, kLost).has_value());  // superlinear: a cache effect, not a cost
  EXPECT_FALSE(task_inflation({&now}, {&base}, 1, 1, kLost).has_value());
  TaskFigures tree = now;  // sampled-out subtrees: the recorded tasks are no sample of the construct's
  tree.hidden_subtree_tasks = 1;
  EXPECT_FALSE(task_inflation({&tree}, {&base}, 2, 1, kLost).has_value());
}

// --- dependency_bound: the dependence path is most of the span, the graph idles ≥ a tenth ------

TaskFigures figures_of_log(const RunLog& log) {
  const Timeline t = build_timeline(log);
  std::vector<const TaskInstance*> tasks;
  for (const TaskInstance& task : t.tasks) tasks.push_back(&task);
  TaskFigures f = task_figures(t.regions.at(0), tasks);
  for (PathSite& p : f.path_sites) p.site = "chain.c:22";
  return f;
}

TEST(DependencyBound, AOneChainIsDependencyBoundNeverFineGrained) {
  // 20 tasks of 30 µs, each depend(inout) on the one before, alternating threads: span 601 µs,
  // work 21 + 600, the team's 2 × 610 µs; the graph leaves 2 × 601 − 621 = 581 µs idle, the
  // gain half of it. Each hand-over waits 30 µs for the task before: read as dispatches, those
  // made the 30 µs bodies "fine-grained".
  const TaskFigures f = figures_of_log(testing::one_chain_log(20));
  const auto problems = diagnose(f);
  EXPECT_EQ(find(problems, "fine_grained_tasks"), nullptr);
  EXPECT_EQ(find(problems, "task_creation_bottleneck"), nullptr);
  const Problem* p = find(problems, "dependency_bound");
  ASSERT_NE(p, nullptr);
  EXPECT_US(p->time_s, 581);
  EXPECT_US(p->gain_s, 290.5);
  EXPECT_US(detail(*p, "dependence_path_s"), 600);
  EXPECT_US(detail(*p, "span_s"), 601);
  EXPECT_DOUBLE_EQ(detail(*p, "path_tasks"), 20);
  EXPECT_DOUBLE_EQ(detail(*p, "output_edges_on_path"), 19);
  EXPECT_NE(p->hint.find("chain 20 of the 20 tasks"), std::string::npos) << p->hint;
  EXPECT_NE(p->hint.find("chain.c:22 (20 tasks, 100% of the path)"), std::string::npos) << p->hint;
  EXPECT_NE(p->hint.find("19 of the path's 19 steps order two tasks that both declared `inout`"), std::string::npos)
      << p->hint;
  EXPECT_NE(p->hint.find("no other task can run beside the chain"), std::string::npos) << p->hint;
  EXPECT_EQ(p->hint.find("use tasks"), std::string::npos) << p->hint;
}

TaskFigures path_bound(double path, double span = 1.0, double idle = 0.5) {
  TaskFigures f;
  f.tasks = 100;
  f.body_s = 1.5;
  f.work_s = 1.5;
  f.thread_time_s = 2;
  f.span_s = span;
  f.graph_idle_s = idle;
  f.creating_threads = 1;
  f.dependence_path_s = path;
  f.dependence_path_tasks = 40;
  f.path_sites = {{0, "lu.c:40", 20, 0.3 * path}, {0, "lu.c:52", 20, 0.7 * path}};
  return f;
}

TEST(DependencyBound, ThePathMustBeHalfTheSpanAndTheIdleATenth) {
  // 2 s of team time: a tenth is 0.2 s, and the graph must leave a tenth of the team's 2 × 1 s
  // along its span idle. Path 0.5 of a 1 s span (and 0.5 s idle): reported, the
  // sites in the path's order, the finer blocks named at the site that takes most of it, and a
  // priority since tasks run off the path (parallelism 1.5).
  const auto problems = diagnose(path_bound(0.5));
  const Problem* p = find(problems, "dependency_bound");
  ASSERT_NE(p, nullptr);
  EXPECT_DOUBLE_EQ(p->time_s, 0.5);
  EXPECT_DOUBLE_EQ(p->gain_s, 0.25);
  EXPECT_LT(p->hint.find("lu.c:40 (20 tasks, 30% of the path) → lu.c:52 (20 tasks, 70% of the path)"),
            std::string::npos)
      << p->hint;
  EXPECT_NE(p->hint.find("finer blocks (the tasks at lu.c:52"), std::string::npos) << p->hint;
  EXPECT_NE(p->hint.find("priority"), std::string::npos) << p->hint;
  EXPECT_EQ(find(diagnose(path_bound(0.49)), "dependency_bound"), nullptr);
  EXPECT_EQ(find(diagnose(path_bound(0.5, 1.0, 0.19)), "dependency_bound"), nullptr);
  // The path as it ran, 0.89 s with its hand-offs (39 of 10 ms): the team's 1.78 s along it less
  // the 1.5 s of work is idle (0.28 s), more than the graph's 0.21, and at most the team's 2 s
  // less the work. Where the graph leaves under a tenth idle (0.19 s), the path as it ran does
  // not count: the graph is wide enough for the team (a blocked Jacobi).
  TaskFigures wide = path_bound(0.5, 1.0, 0.19);
  wide.dependence_path_measured_s = 0.89;
  EXPECT_EQ(find(diagnose(wide), "dependency_bound"), nullptr);
  TaskFigures ran = path_bound(0.5, 1.0, 0.21);
  ran.dependence_path_measured_s = 0.89;
  const auto ran_problems = diagnose(ran);
  const Problem* handoffs = find(ran_problems, "dependency_bound");
  ASSERT_NE(handoffs, nullptr);
  EXPECT_NEAR(handoffs->time_s, 2 * 0.89 - 1.5, 1e-12);
  EXPECT_NE(handoffs->hint.find("as it ran it took 890 ms, the hand-offs between its tasks 10 ms each"),
            std::string::npos)
      << handoffs->hint;
  ran.dependence_path_measured_s = 5;
  EXPECT_DOUBLE_EQ(find(diagnose(ran), "dependency_bound")->time_s, 2 - 1.5);
  EXPECT_EQ(find(diagnose(path_bound(0.5), 1), "dependency_bound"), nullptr);
}

// --- the report's task columns -------------------------------------------------------------------

TEST(SummarizeTasks, ParallelismBoundsTheSpeedupAtEachThreadCount) {
  TaskFigures f = figures(0.01, 0.002, 3);
  f.work_s = 6;
  f.span_s = 4;
  const TaskSummary at2 = summarize_tasks({&f}, 2, 1.25);
  EXPECT_DOUBLE_EQ(at2.tasks, 100);
  EXPECT_DOUBLE_EQ(at2.mean_body_s, 0.01);
  EXPECT_DOUBLE_EQ(at2.parallelism, 1.5);
  EXPECT_DOUBLE_EQ(at2.speedup_bound, 1.5);  // min(2, 1.5)
  EXPECT_DOUBLE_EQ(at2.measured_speedup, 1.25);
  EXPECT_DOUBLE_EQ(at2.dispatch_s, 0);  // 3 gaps are too few to say
  EXPECT_DOUBLE_EQ(at2.creation_s, -1);  // no creation gaps: not measured
  EXPECT_DOUBLE_EQ(summarize_tasks({&f}, 1, 1).speedup_bound, 1);  // min(1, 1.5)
}

TEST(SummarizeTasks, ASpeedupMoreThanFivePercentAboveTheBoundIsSuperlinear) {
  TaskFigures f = figures(0.01, 0.002, 3);
  f.work_s = 6;
  f.span_s = 4;                                                // bound 1.5 at 2 threads
  EXPECT_FALSE(summarize_tasks({&f}, 2, 1.5).superlinear);    // at the bound
  EXPECT_FALSE(summarize_tasks({&f}, 2, 1.57).superlinear);   // within 5%
  EXPECT_TRUE(summarize_tasks({&f}, 2, 1.6).superlinear);     // the work itself shrank
  EXPECT_FALSE(summarize_tasks({&f}, 2, 0).superlinear);      // no base to compare with
}

}  // namespace
}  // namespace ompscope::analysis
