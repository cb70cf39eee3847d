// merge_rank_reports: the ranks of an MPI job in one report (docs/mpi.md, "Merged report"), on
// hand-built rank reports with exact numbers.
#include "analysis/rank_merge.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace ompscope::analysis {
namespace {

using report::Problem;
using report::RegionReport;
using report::Report;

RegionReport loop(double time, double imbalance_gain) {
  RegionReport r;
  r.id = "r1";
  r.file = "hybrid.c";
  r.line = 24;
  r.function = "main";
  r.time_s = {{2, time}};
  if (imbalance_gain > 0) r.problems.push_back(Problem{"load_imbalance", 2, imbalance_gain, imbalance_gain, "h", {}});
  return r;
}

// A rank's profile at 2 threads: program time, serial code and MPI time outside regions.
Report rank_report(int rank, double time, double serial, double mpi, double loop_time, double imbalance_gain) {
  Report r;
  r.threads = {2};
  r.command = {"./hybrid"};
  report::RunRecord run;
  run.threads = 2;
  run.rank = rank;
  run.log = "runs/run-r0/rank-" + std::to_string(rank);
  r.runs.push_back(run);
  r.program_time_s = {{2, time}};
  r.serial_s = {{2, serial}};
  r.mpi_s = {{2, mpi}};
  r.regions.push_back(loop(loop_time, imbalance_gain));
  return r;
}

TEST(RankMerge, FiguresAreTheSlowestRanksAndEveryRankIsSideBySide) {
  // Rank 0 runs its loop in 0.1 s and waits 0.1 s more in MPI for rank 1's 0.2 s loop.
  const Report merged = merge_rank_reports({rank_report(0, 0.40, 0.01, 0.29, 0.10, 0.0),
                                            rank_report(1, 0.41, 0.01, 0.20, 0.20, 0.03)});
  EXPECT_EQ(merged.merged_from_rank, 1);
  EXPECT_DOUBLE_EQ(merged.program_time_s.at(2), 0.41);
  ASSERT_EQ(merged.runs.size(), 2u);
  EXPECT_EQ(merged.runs[0].rank, 0);
  EXPECT_EQ(merged.runs[1].rank, 1);
  ASSERT_EQ(merged.ranks.size(), 2u);
  // Each rank's split adds up to its time: parallel = time - serial - MPI.
  EXPECT_DOUBLE_EQ(merged.ranks[0].parallel_s.at(2), 0.40 - 0.01 - 0.29);
  EXPECT_DOUBLE_EQ(merged.ranks[0].mpi_s.at(2), 0.29);
  EXPECT_DOUBLE_EQ(merged.ranks[1].parallel_s.at(2), 0.41 - 0.01 - 0.20);
  for (const auto& k : merged.ranks)
    EXPECT_DOUBLE_EQ(k.parallel_s.at(2) + k.serial_s.at(2) + k.mpi_s.at(2), k.time_s.at(2));
  // Program: time outside MPI 0.11 and 0.21: max - mean = 0.21 - 0.16.
  EXPECT_NEAR(merged.rank_imbalance_s.at(2), 0.05, 1e-12);
  ASSERT_EQ(merged.regions.size(), 1u);
  const RegionReport& r = merged.regions[0];
  EXPECT_DOUBLE_EQ(r.time_s.at(2), 0.20);
  ASSERT_EQ(r.ranks.size(), 2u);
  EXPECT_EQ(r.ranks[0].rank, 0);
  EXPECT_DOUBLE_EQ(r.ranks[0].time_s.at(2), 0.10);
  EXPECT_TRUE(r.ranks[0].problems.empty());
  ASSERT_EQ(r.ranks[1].problems.size(), 1u);
  EXPECT_EQ(r.ranks[1].problems[0].kind.name(), std::string("load_imbalance"));
  // Region: 0.2 - mean(0.1, 0.2).
  EXPECT_NEAR(r.rank_imbalance_s.at(2), 0.05, 1e-12);
}

TEST(RankMerge, TheSlowestRankIsTheOneWithTheMostTimeOutsideMpi) {
  // Both ranks end at the job's last collective (0.40 s each): rank 0 waited 0.29 s of it in MPI
  // for rank 1, whose figures the report shows.
  const Report merged = merge_rank_reports({rank_report(0, 0.40, 0.01, 0.29, 0.10, 0.0),
                                            rank_report(1, 0.40, 0.01, 0.19, 0.20, 0.03)});
  EXPECT_EQ(merged.merged_from_rank, 1);
  EXPECT_DOUBLE_EQ(merged.regions.at(0).time_s.at(2), 0.20);
}

TEST(RankMerge, MpiInsideARegionIsWaitingNotTheRanksLoad) {
  // FUNNELED: each rank's master calls MPI_Allreduce inside the loop's region (0.40 s on both
  // ranks). Rank 0's master waits there 0.20 s for rank 1, whose loop has twice the work; rank 0
  // also spends 0.05 s in MPI outside regions, rank 1 0.05 s too.
  Report a = rank_report(0, 0.50, 0.01, 0.05, 0.40, 0.0);
  Report b = rank_report(1, 0.50, 0.01, 0.05, 0.40, 0.0);
  report::ThreadSplit master, worker;
  master.mpi_s = 0.20;
  a.regions[0].per_thread[2] = {master, worker};
  b.regions[0].per_thread[2] = {worker, worker};
  report::ThreadSplit initial;
  initial.mpi_s = 0.05 + 0.20;  // the program's split of the initial thread: outside and inside
  a.program_threads[2] = {initial, worker};
  initial.mpi_s = 0.05;
  b.program_threads[2] = {initial, worker};
  const Report merged = merge_rank_reports({a, b});
  EXPECT_EQ(merged.merged_from_rank, 1);
  const RegionReport& r = merged.regions.at(0);
  ASSERT_EQ(r.ranks.size(), 2u);
  EXPECT_DOUBLE_EQ(r.ranks[0].mpi_s.at(2), 0.20);
  EXPECT_TRUE(r.ranks[1].mpi_s.empty());
  // Outside MPI the loop took 0.20 s on rank 0 and 0.40 s on rank 1: 0.40 - 0.30.
  EXPECT_NEAR(r.rank_imbalance_s.at(2), 0.10, 1e-12);
  // Rank 0's split: MPI 0.25 (outside and inside), OpenMP parallel 0.50 - 0.01 - 0.25.
  EXPECT_DOUBLE_EQ(merged.ranks[0].mpi_s.at(2), 0.25);
  EXPECT_DOUBLE_EQ(merged.ranks[0].parallel_s.at(2), 0.50 - 0.01 - 0.25);
  EXPECT_DOUBLE_EQ(merged.ranks[1].mpi_s.at(2), 0.05);
  EXPECT_NEAR(merged.rank_imbalance_s.at(2), (0.50 - 0.05) - (0.25 + 0.45) / 2, 1e-12);
}

TEST(RankMerge, ARankWithoutTheRegionCountsZeroAndItsOwnRegionsAreNamed) {
  Report a = rank_report(0, 0.5, 0.0, 0.1, 0.4, 0.0);
  Report b = rank_report(1, 0.3, 0.0, 0.1, 0.2, 0.0);
  b.regions[0].line = 30;  // another loop, only rank 1 runs it
  b.runs[0].rank = -1;     // no rank recorded: its place in the list
  const Report merged = merge_rank_reports({a, b});
  ASSERT_EQ(merged.regions.size(), 1u);
  ASSERT_EQ(merged.regions[0].ranks.size(), 2u);
  EXPECT_TRUE(merged.regions[0].ranks[1].time_s.empty());
  EXPECT_NEAR(merged.regions[0].rank_imbalance_s.at(2), 0.4 - 0.2, 1e-12);
  bool named = false;
  for (const auto& n : merged.notes)
    if (n.kind == "rank_only_regions") named = n.items == std::vector<std::string>{"rank 1: hybrid.c:30"};
  EXPECT_TRUE(named);
}

TEST(RankMerge, NothingToMergeIsAnError) { EXPECT_THROW(merge_rank_reports({}), Error); }

// merge_process_reports: the processes of one program (docs/safety.md, "Processes and signals").
TEST(ProcessMerge, FiguresAreTheProgramsOwnProcessEvenWhenAnotherIsSlower) {
  Report own = rank_report(-1, 0.30, 0.20, 0.0, 0.10, 0.0);
  Report child = rank_report(-1, 0.90, 0.01, 0.0, 0.89, 0.05);
  child.command = {"./app", "child", "0"};
  own.runs[0].rank = child.runs[0].rank = 3;  // the ranks of an ompscope run by mpirun: not the places
  const Report merged = merge_process_reports({own, child}, {100, 101});
  EXPECT_TRUE(merged.ranks_are_processes);
  EXPECT_EQ(merged.merged_from_rank, 0);
  EXPECT_DOUBLE_EQ(merged.program_time_s.at(2), 0.30);
  ASSERT_EQ(merged.ranks.size(), 2u);
  EXPECT_EQ(merged.ranks[0].rank, 0);
  EXPECT_EQ(merged.ranks[0].pid, 100);
  EXPECT_EQ(merged.ranks[0].command, "./hybrid");
  EXPECT_EQ(merged.ranks[1].rank, 1);
  EXPECT_EQ(merged.ranks[1].pid, 101);
  EXPECT_EQ(merged.ranks[1].command, "./app child 0");
  EXPECT_DOUBLE_EQ(merged.ranks[1].parallel_s.at(2), 0.90 - 0.01);
  // The runs keep their order and ranks: the program's own first.
  ASSERT_EQ(merged.runs.size(), 2u);
  EXPECT_EQ(merged.runs[0].rank, 3);
  ASSERT_EQ(merged.regions[0].ranks.size(), 2u);
  EXPECT_DOUBLE_EQ(merged.regions[0].ranks[1].time_s.at(2), 0.89);
  bool listed = false;
  for (const auto& n : merged.notes)
    if (n.kind == "processes") listed = n.items == std::vector<std::string>{"process 1 (pid 101): ./app child 0"};
  EXPECT_TRUE(listed);
  for (const auto& n : merged.notes) EXPECT_NE(n.kind, "ranks");
}

TEST(ProcessMerge, NothingToMergeIsAnError) { EXPECT_THROW(merge_process_reports({}, {}), Error); }

}  // namespace
}  // namespace ompscope::analysis
