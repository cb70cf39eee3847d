// Designed pathology: the STREAM triad a[i] = b[i] + 3 c[i] over arrays far larger than the
// caches (3 x 64 MiB), schedule(static). Every iteration costs the same and the loop is
// balanced, but it is bound by memory bandwidth: at 2 threads each thread gets less than the
// whole bandwidth, so the team's work grows (work inflation, on the CPU, not in the kernel).
// The arrays are first touched in parallel, outside the timed loops, so page faults stay out.
// Before the timed loops the program measures, with its own clock, how far its team is from the
// pathology (tests/e2e/diagnosis_checks.py judges the tool only where it dominates): each half of
// the arrays on one thread (the least of 3, interleaved; halves_ms=FIRST,SECOND), then the same
// loop on the team, each thread's time to its end (team_ms=T0/T1/... per repetition). A team
// that ran each half no slower than one thread alone had no bandwidth to share: on a 2-vCPU
// Firecracker VM each thread took 3.2 ms for a half that took one thread 3.0, and what lost time
// there was a CPU slower than the other for a while (one thread 25% slower through a run).
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
  double half_s[2] = {1e30, 1e30};
  for (int r = 0; r < 6; ++r) {
    const int h = (r & 1) ^ (r >> 1 & 1);  // 0 1 1 0 0 1: each half first as often
    const double t0 = omp_get_wtime();
    for (long i = h * (n / 2); i < (h + 1) * (n / 2); ++i) a[i] = b[i] + 3.0 * c[i];
    const double t = omp_get_wtime() - t0;
    if (t < half_s[h]) half_s[h] = t;
  }
  printf("halves_ms=%.3f,%.3f\n", half_s[0] * 1e3, half_s[1] * 1e3);
  printf("team_ms=");
  for (int r = 0; r < 6; ++r) {
    double thread_s[64] = {0};
    int team = 1;
#pragma omp parallel
    {
      const double t0 = omp_get_wtime();
#pragma omp for schedule(static) nowait
      for (long i = 0; i < n; ++i) a[i] = b[i] + 3.0 * c[i];
      const int me = omp_get_thread_num();
      if (me < 64) thread_s[me] = omp_get_wtime() - t0;
#pragma omp single nowait
      team = omp_get_num_threads() < 64 ? omp_get_num_threads() : 64;
    }
    for (int k = 0; k < team; ++k) printf("%s%.3f", k ? "/" : (r ? " " : ""), thread_s[k] * 1e3);
  }
  printf("\n");
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
