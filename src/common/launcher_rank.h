// Which rank of an MPI job this process is, as its launcher said in the environment
// (docs/mpi.md, "Ranks"). Read by the tool libraries inside the program, which put each rank's
// log in a directory of its own, and by the CLI, which merges the ranks' reports. No allocation
// and no libstdc++: it runs inside the observed program at start-up.
#pragma once

namespace ompscope {

struct LauncherRank {
  int rank = -1;          // -1: no launcher rank in the environment
  int size = 0;           // 0: the launcher did not say
  int local_rank = -1;    // rank among the job's processes on this node; -1: not said
  const char* variable = nullptr;  // the variable the rank was read from, e.g. "OMPI_COMM_WORLD_RANK"

  // A rank of a job of more than one process: its logs and report go to a directory of their own.
  bool ranked() const { return rank >= 0 && size != 1; }
};

// Reads the first launcher whose rank variable holds a valid rank, in this order: Open MPI
// (OMPI_COMM_WORLD_RANK/SIZE/LOCAL_RANK), PMIx (PMIX_RANK), MPICH/Hydra and Intel MPI
// (PMI_RANK/PMI_SIZE, MPI_LOCALRANKID), Slurm (SLURM_PROCID/SLURM_NTASKS/SLURM_LOCALID). Size
// and local rank come from the same launcher, else from the first other one that says them.
// A value that is not a plain decimal, or a rank not below the size, is not a rank.
// `environment` is an environ-style array ("NAME=value", null-terminated).
LauncherRank launcher_rank(const char* const* environment);

// "rank-<r>" into `out` (the subdirectory of a ranked process's logs and report); false if it
// does not fit.
bool rank_directory_name(int rank, char* out, unsigned long size);

}  // namespace ompscope
