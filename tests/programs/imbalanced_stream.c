// Designed pathology: an imbalanced loop bound by memory bandwidth. Row i of a packed lower-
// triangular matrix holds 160·(i + 1) doubles, 671 MB in all (more than this VM's 480 MiB L3):
// each iteration streams its row, so its cost grows with i, and schedule(static) gives the
// second of 2 threads 3x the bytes of the first. Balancing it also makes both threads share the
// memory bandwidth for longer, so the gain is what the threads win at the rate they have when
// both are busy. argv[1] = "dynamic" runs the loop with schedule(dynamic, argv[2]) (the chunk a
// hint names; 1 if absent) to measure the real gain of the fix. It prints the timed loop's wall
// time (loop_s): first touching 671 MB costs more than the loop on a VM whose host backs pages at
// first access, and varies by more than the gain, so the gain is judged on the loop's time.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kRows = 1024, kUnit = 160, kPasses = 8 };

int main(int argc, char** argv) {
  const int dynamic = argc > 1 && strcmp(argv[1], "dynamic") == 0;
  const int chunk = argc > 2 ? atoi(argv[2]) : 1;
  const size_t elements = (size_t)kUnit * kRows * (kRows + 1) / 2;
  double* a = malloc(elements * sizeof *a);
  double* x = malloc((size_t)kUnit * kRows * sizeof *x);
  double* y = calloc(kRows, sizeof *y);
  if (!a || !x || !y) return 1;
  for (size_t j = 0; j < (size_t)kUnit * kRows; ++j) x[j] = 1.0 / (double)(j + 1);
  // Touched once before the timed loops, so that page faults stay out of them.
#pragma omp parallel for schedule(static)
  for (size_t e = 0; e < elements; ++e) a[e] = (double)(e % 7);
  omp_set_schedule(dynamic ? omp_sched_dynamic : omp_sched_static, dynamic ? chunk : 0);
  const double start = omp_get_wtime();
  for (int pass = 0; pass < kPasses; ++pass) {
#pragma omp parallel for schedule(runtime)
    for (int i = 0; i < kRows; ++i) {
      const double* row = a + (size_t)kUnit * i * (i + 1) / 2;
      double s = 0;
      for (size_t j = 0; j < (size_t)kUnit * (i + 1); ++j) s += row[j] * x[j];
      y[i] += s;
    }
  }
  const double loop_s = omp_get_wtime() - start;
  double sum = 0;
  for (int i = 0; i < kRows; ++i) sum += y[i];
  printf("sum=%.6f loop_s=%.6f\n", sum, loop_s);
  free(a);
  free(x);
  free(y);
  return 0;
}
