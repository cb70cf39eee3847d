// Designed: a hybrid MPI+OpenMP program whose MPI is linked through a library of its own
// (hybrid_comm.c), not by the program: MPI time must be measured as for a program that links MPI
// itself (issue 25: "MPI time is measured in any process linked with MPI"). One balanced
// parallel loop between MPI_Init and MPI_Finalize. Argument: iterations per unit of work.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

void comm_start(int* argc, char*** argv);
double comm_sum(double local);
void comm_end(void);

static double work(long n) {
  double x = 0.0;
  for (long i = 0; i < n; ++i) x += 1.0 / (double)(i + 1);
  return x;
}

int main(int argc, char** argv) {
  comm_start(&argc, &argv);
  const long unit = argc > 1 ? atol(argv[1]) : 1000000;
  double local = 0.0;
#pragma omp parallel for reduction(+ : local) schedule(static)
  for (int i = 0; i < 64; ++i) local += work(unit);
  printf("total=%.3f\n", comm_sum(local));
  comm_end();
  return 0;
}
