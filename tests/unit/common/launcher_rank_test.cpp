// The launcher's rank, size and local rank as read from the environment (docs/mpi.md, "Ranks").
#include "common/launcher_rank.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ompscope {
namespace {

LauncherRank read(std::vector<const char*> env) {
  env.push_back(nullptr);
  return launcher_rank(env.data());
}

TEST(LauncherRank, NoLauncherNoRank) {
  const LauncherRank r = read({"PATH=/usr/bin", "HOME=/root"});
  EXPECT_EQ(r.rank, -1);
  EXPECT_FALSE(r.ranked());
  EXPECT_EQ(r.variable, nullptr);
  EXPECT_FALSE(launcher_rank(nullptr).ranked());
}

TEST(LauncherRank, OpenMpiGivesRankSizeAndLocalRank) {
  const LauncherRank r = read({"OMPI_COMM_WORLD_SIZE=4", "OMPI_COMM_WORLD_RANK=3", "OMPI_COMM_WORLD_LOCAL_RANK=1",
                               "PMIX_RANK=3"});
  EXPECT_EQ(r.rank, 3);
  EXPECT_EQ(r.size, 4);
  EXPECT_EQ(r.local_rank, 1);
  EXPECT_STREQ(r.variable, "OMPI_COMM_WORLD_RANK");
  EXPECT_TRUE(r.ranked());
}

TEST(LauncherRank, MpichPmiAndHydraLocalRank) {
  const LauncherRank r = read({"PMI_RANK=1", "PMI_SIZE=2", "MPI_LOCALRANKID=0"});
  EXPECT_EQ(r.rank, 1);
  EXPECT_EQ(r.size, 2);
  EXPECT_EQ(r.local_rank, 0);
  EXPECT_STREQ(r.variable, "PMI_RANK");
}

TEST(LauncherRank, SlurmTasks) {
  const LauncherRank r = read({"SLURM_PROCID=5", "SLURM_NTASKS=8", "SLURM_LOCALID=1"});
  EXPECT_EQ(r.rank, 5);
  EXPECT_EQ(r.size, 8);
  EXPECT_EQ(r.local_rank, 1);
  EXPECT_STREQ(r.variable, "SLURM_PROCID");
}

TEST(LauncherRank, PmixRankTakesTheSizeAnotherLauncherSays) {
  // srun --mpi=pmix: PMIX_RANK beside Slurm's task count and node-local id.
  const LauncherRank r = read({"PMIX_RANK=2", "SLURM_PROCID=2", "SLURM_NTASKS=3", "SLURM_LOCALID=0"});
  EXPECT_EQ(r.rank, 2);
  EXPECT_EQ(r.size, 3);
  EXPECT_EQ(r.local_rank, 0);
  EXPECT_STREQ(r.variable, "PMIX_RANK");
}

TEST(LauncherRank, UnknownSizeIsZeroAndStillRanked) {
  const LauncherRank r = read({"PMIX_RANK=0"});
  EXPECT_EQ(r.rank, 0);
  EXPECT_EQ(r.size, 0);
  EXPECT_EQ(r.local_rank, -1);
  EXPECT_TRUE(r.ranked());
}

TEST(LauncherRank, AJobOfOneProcessIsNotRanked) {
  const LauncherRank r = read({"OMPI_COMM_WORLD_RANK=0", "OMPI_COMM_WORLD_SIZE=1"});
  EXPECT_EQ(r.rank, 0);
  EXPECT_EQ(r.size, 1);
  EXPECT_FALSE(r.ranked());
}

TEST(LauncherRank, MalformedValuesAreNoRank) {
  for (const char* bad : {"OMPI_COMM_WORLD_RANK=", "OMPI_COMM_WORLD_RANK=-1", "OMPI_COMM_WORLD_RANK=1x",
                          "OMPI_COMM_WORLD_RANK= 1", "OMPI_COMM_WORLD_RANK=99999999999"})
    EXPECT_EQ(read({bad, "OMPI_COMM_WORLD_SIZE=2"}).rank, -1) << bad;
  // A rank not below its size is not believed; the next launcher's is.
  const LauncherRank r = read({"OMPI_COMM_WORLD_RANK=2", "OMPI_COMM_WORLD_SIZE=2", "SLURM_PROCID=1", "SLURM_NTASKS=2"});
  EXPECT_EQ(r.rank, 1);
  EXPECT_STREQ(r.variable, "SLURM_PROCID");
  // A size of zero is no size.
  EXPECT_EQ(read({"PMI_RANK=0", "PMI_SIZE=0"}).size, 0);
}

TEST(LauncherRank, NameMustMatchWhole) {
  EXPECT_EQ(read({"OMPI_COMM_WORLD_RANKX=1", "XOMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_RAN=1"}).rank, -1);
}

TEST(LauncherRank, DirectoryName) {
  char name[16];
  ASSERT_TRUE(rank_directory_name(0, name, sizeof name));
  EXPECT_STREQ(name, "rank-0");
  ASSERT_TRUE(rank_directory_name(1234567, name, sizeof name));
  EXPECT_STREQ(name, "rank-1234567");
  char small[7];
  EXPECT_FALSE(rank_directory_name(12, small, sizeof small));
  EXPECT_TRUE(rank_directory_name(1, small, sizeof small));
}

}  // namespace
}  // namespace ompscope
