// Designed hybrid MPI+OpenMP program: each rank runs a balanced parallel loop, then all ranks
// meet in MPI_Allreduce. Rank 1 has twice rank 0's work, so rank 0 waits in MPI for about as
// long as its loop ran (expected: a rank imbalance, MPI time on rank 0, no serial_code for it).
// Usage: hybrid [iterations per unit of work] [inside]; each rank prints its sum. With "inside",
// the master thread calls MPI_Allreduce inside a second parallel region instead (FUNNELED).
// With HYBRID_CLOCK set, each rank also writes to stderr how long its loop took by its own clock:
// the tests compare the report with it, since on a machine where another process holds one CPU
// the rank sharing it runs at half speed and its loop no longer takes half rank 1's time.
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double work(long n) {
  double x = 0.0;
  for (long i = 0; i < n; ++i) x += 1.0 / (double)(i + 1);
  return x;
}

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const long unit = argc > 1 ? atol(argv[1]) : 1000000;
  const int chunks = 64 * (rank == 1 ? 2 : 1);
  double local = 0.0;
  double total = 0.0;
  if (!(argc > 2 && strcmp(argv[2], "inside") == 0)) {
    const double start = omp_get_wtime();
#pragma omp parallel for reduction(+ : local) schedule(static)
    for (int i = 0; i < chunks; ++i) local += work(unit);
    if (getenv("HYBRID_CLOCK"))
      fprintf(stderr, "hybrid: rank %d threads %d loop_s %.6f\n", rank, omp_get_max_threads(), omp_get_wtime() - start);
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  } else {
    // MPI inside the region (FUNNELED): the master reduces across ranks while its team waits at
    // the barrier; rank 0's master waits there in MPI for rank 1 (docs/mpi.md).
#pragma omp parallel
    {
#pragma omp for reduction(+ : local) schedule(static)
      for (int i = 0; i < chunks; ++i) local += work(unit);
#pragma omp master
      MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
#pragma omp barrier
    }
  }
  printf("rank %d local=%.3f total=%.3f\n", rank, local, total);
  MPI_Finalize();
  return 0;
}
