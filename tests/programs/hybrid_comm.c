// The MPI half of hybrid_via_lib: a shared library that links MPI, so that the program itself
// does not (its DT_NEEDED names this library only; MPI comes in behind it, as it does for a
// program built on a solver library or a Python extension).
#include <mpi.h>

void comm_start(int* argc, char*** argv) {
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
}

double comm_sum(double local) {
  double total = 0.0;
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

void comm_end(void) { MPI_Finalize(); }
