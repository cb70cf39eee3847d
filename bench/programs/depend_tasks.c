// Dependence-heavy code for the overhead measurement: a wavefront over a grid of small blocks,
// each block's task depend(in) on its upper and left neighbours and depend(inout) on itself (three
// items per clause), bodies of a few microseconds. Arguments: grid side (150), sweeps (4),
// iterations per body (2000).
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 150;
  const int sweeps = argc > 2 ? atoi(argv[2]) : 4;
  const long work = argc > 3 ? atol(argv[3]) : 2000;
  double* cell = calloc((size_t)n * n, sizeof(double));
#pragma omp parallel
#pragma omp single
  for (int s = 0; s < sweeps; ++s)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double* c = cell + (size_t)i * n + j;
        double* up = i > 0 ? c - n : c;
        double* left = j > 0 ? c - 1 : c;
#pragma omp task depend(in: up[0], left[0]) depend(inout: c[0]) firstprivate(c, up, left)
        {
          double x = c[0] + 0.5 * (up[0] + left[0]);
          for (long k = 0; k < work; ++k) x = x * 0.999999 + 1e-9;
          c[0] = x;
        }
      }
  printf("%.6f\n", cell[(size_t)n * n - 1]);
  free(cell);
  return 0;
}
