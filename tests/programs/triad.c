// Designed pathology: the STREAM triad a[i] = b[i] + 3 c[i] over arrays far larger than the
// caches (3 x 64 MiB), schedule(static). Every iteration costs the same and the loop is
// balanced, but it is bound by memory bandwidth: at 2 threads each thread gets less than the
// whole bandwidth, so the team's work grows (work inflation, on the CPU, not in the kernel).
// The arrays are first touched in parallel, outside the timed loops, so page faults stay out.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const long n = 8L * 1024 * 1024;
  double* a = malloc(n * sizeof *a);
  double* b = malloc(n * sizeof *b);
  double* c = malloc(n * sizeof *c);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) {
    a[i] = 0;
    b[i] = (double)i;
    c[i] = 1.0 / (double)(i + 1);
  }
  for (int r = 0; r < 10; ++r) {
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) a[i] = b[i] + 3.0 * c[i];
  }
  printf("a[n/2]=%.6f\n", a[n / 2]);
  free(a);
  free(b);
  free(c);
  return 0;
}
