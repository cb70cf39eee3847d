// scale --launcher (docs/mpi.md, "scale through a launcher"): how the launcher string is split,
// which launcher it is, and the command that passes ompscope's variables on to every rank.
#include "cli/launcher.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include "common/error.h"

namespace ompscope::cli {
namespace {

using Words = std::vector<std::string>;

std::string refusal(const std::string& text) {
  try {
    split_launcher_words(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(LauncherWords, SplitAsTheShellSplitsThem) {
  EXPECT_EQ(split_launcher_words("mpirun -np 2 --bind-to none"), (Words{"mpirun", "-np", "2", "--bind-to", "none"}));
  EXPECT_EQ(split_launcher_words("  srun   -n 2 "), (Words{"srun", "-n", "2"}));
  EXPECT_EQ(split_launcher_words("mpirun --mca btl 'self,vader' -x \"A B\""),
            (Words{"mpirun", "--mca", "btl", "self,vader", "-x", "A B"}));
  setenv("OMPSCOPE_TEST_RANKS", "4", 1);
  EXPECT_EQ(split_launcher_words("mpirun -np $OMPSCOPE_TEST_RANKS"), (Words{"mpirun", "-np", "4"}));
}

TEST(LauncherWords, WhatIsNotALauncherIsRefusedInOneLine) {
  EXPECT_NE(refusal("").find("--launcher is empty"), std::string::npos);
  EXPECT_NE(refusal("   ").find("--launcher is empty"), std::string::npos);
  EXPECT_NE(refusal("mpirun -np 2 | tee log").find("| & ;"), std::string::npos);
  EXPECT_NE(refusal("mpirun -np 2; rm x").find("| & ;"), std::string::npos);
  EXPECT_NE(refusal("mpirun -np 'two").find("unbalanced"), std::string::npos);
  EXPECT_NE(refusal("mpirun -np $(nproc)").find("command substitution"), std::string::npos);
  EXPECT_NE(refusal("mpirun -np `nproc`").find("command substitution"), std::string::npos);
  unsetenv("OMPSCOPE_TEST_UNSET");
  EXPECT_NE(refusal("mpirun -np $OMPSCOPE_TEST_UNSET").find("undefined variable"), std::string::npos);
  for (const char* text : {"", "a | b", "a 'b", "$(x)"})
    EXPECT_EQ(refusal(text).find('\n'), std::string::npos) << text;
}

TEST(LauncherKind, FromWhatItsVersionSays) {
  EXPECT_EQ(launcher_kind("mpirun (Open MPI) 4.1.4\n\nReport bugs to http://www.open-mpi.org/community/help/\n",
                          "/usr/bin/orterun"),
            LauncherKind::OpenMpi);
  EXPECT_EQ(launcher_kind("mpirun (Open MPI) 5.0.3\n", "/opt/ompi/bin/mpirun"), LauncherKind::OpenMpi);
  EXPECT_EQ(launcher_kind("HYDRA build details:\n    Version:                                 4.0.2\n",
                          "/usr/bin/mpiexec.hydra"),
            LauncherKind::Hydra);
  EXPECT_EQ(launcher_kind("slurm 23.02.7\n", "/usr/bin/srun"), LauncherKind::Slurm);
  // Where the text says nothing known (or the launcher printed nothing), its own name decides.
  EXPECT_EQ(launcher_kind("", "/usr/bin/orterun"), LauncherKind::OpenMpi);
  EXPECT_EQ(launcher_kind("", "/usr/bin/mpiexec.hydra"), LauncherKind::Hydra);
  EXPECT_EQ(launcher_kind("", "/usr/bin/srun"), LauncherKind::Slurm);
  EXPECT_EQ(launcher_kind("taskset from util-linux 2.38.1\n", "/usr/bin/taskset"), LauncherKind::Other);
}

TEST(LauncherCommand, PassesEachVariableOnAsTheLauncherWantsIt) {
  const std::map<std::string, std::string> env{{"OMP_NUM_THREADS", "2"}, {"OMPSCOPE_LOG_DIR", "/o/runs/t2-r0"}};
  const Words program{"./hybrid", "100"};
  EXPECT_EQ(launch_command({{"mpirun", "-np", "2"}, LauncherKind::OpenMpi}, env, program),
            (Words{"mpirun", "-np", "2", "-x", "OMPSCOPE_LOG_DIR", "-x", "OMP_NUM_THREADS", "./hybrid", "100"}));
  EXPECT_EQ(launch_command({{"mpiexec", "-n", "2"}, LauncherKind::Hydra}, env, program),
            (Words{"mpiexec", "-n", "2", "-genvlist", "OMPSCOPE_LOG_DIR,OMP_NUM_THREADS", "./hybrid", "100"}));
  // srun passes its whole environment on (its default --export=ALL), as does any other.
  EXPECT_EQ(launch_command({{"srun", "-n", "2"}, LauncherKind::Slurm}, env, program),
            (Words{"srun", "-n", "2", "./hybrid", "100"}));
  EXPECT_EQ(launch_command({{"taskset", "-c", "0,1"}, LauncherKind::Other}, env, program),
            (Words{"taskset", "-c", "0,1", "./hybrid", "100"}));
}

TEST(LauncherCommand, ALauncherAfterTheDashesIsNamed) {
  EXPECT_TRUE(names_a_launcher("mpirun"));
  EXPECT_TRUE(names_a_launcher("/usr/bin/mpiexec"));
  EXPECT_TRUE(names_a_launcher("srun"));
  EXPECT_FALSE(names_a_launcher("./hybrid"));
  EXPECT_FALSE(names_a_launcher("/opt/mpirun-tests/app"));
}

}  // namespace
}  // namespace ompscope::cli
