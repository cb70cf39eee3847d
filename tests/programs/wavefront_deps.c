// A wavefront pipeline of `depend` tasks: rows of a grid flow through STAGES stages, the task of
// (row, stage) depending on the same row's previous stage and the previous row's same stage. Stage
// 0 (parsing, say) costs 4 times the others, so its tasks, one row after another, form the
// critical path: at 2 threads the other stages finish and wait for it (dependency_bound).
// Arguments: rows (160), stages (3), iterations of a light stage (60000).
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static double stage_work(double x, long n) {
  for (long i = 0; i < n; ++i) x = x * 0.999999 + 1.0 / (double)(i + 1);
  return x;
}

int main(int argc, char** argv) {
  const int rows = argc > 1 ? atoi(argv[1]) : 160;
  const int stages = argc > 2 ? atoi(argv[2]) : 3;
  const long n = argc > 3 ? atol(argv[3]) : 60000;
  double* cell = calloc((size_t)rows * stages, sizeof(double));
#pragma omp parallel
#pragma omp single
  {
    for (int r = 0; r < rows; ++r) {
      double* row = cell + (size_t)r * stages;
      double* above = r > 0 ? row - stages : row;
#pragma omp task depend(inout: row[0]) depend(in: above[0])
      row[0] = stage_work(above[0] + 1.0, 4 * n);
      for (int s = 1; s < stages; ++s) {
#pragma omp task depend(in: row[s - 1]) depend(in: above[s]) depend(out: row[s])
        row[s] = stage_work(row[s - 1] + above[s], n);
      }
    }
  }
  printf("last=%.6f\n", cell[(size_t)rows * stages - 1]);
  free(cell);
  return 0;
}
