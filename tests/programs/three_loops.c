// Designed shape: one parallel region holding three worksharing loops, run 8 times. The first
// and third loops cost the same per iteration; the second's iteration cost grows with its index
// under a static schedule, so at 2 threads the second thread gets ~3x the first's work there.
// The load imbalance belongs to the second loop (line 25), and to no other.
#include <stdio.h>

static double spin(long n) {
  double x = 0.0;
  for (long i = 0; i < n; ++i) x += 1.0 / (double)(i + 1);
  return x;
}

enum { n = 400, repeats = 8 };
static double first[n], second[n], third[n];

int main(void) {
  double sum = 0.0;
  for (int r = 0; r < repeats; ++r) {
#pragma omp parallel
    {
#pragma omp for schedule(static)
      for (int i = 0; i < n; ++i) first[i] = spin(20000);

      // The imbalanced loop: iteration i costs ~100·i steps.
#pragma omp for schedule(static)
      for (int i = 0; i < n; ++i) second[i] = spin(100L * i);

#pragma omp for schedule(static)
      for (int i = 0; i < n; ++i) third[i] = spin(20000);
    }
    for (int i = 0; i < n; ++i) sum += first[i] + second[i] + third[i];
  }
  printf("sum=%.3f\n", sum);
  return 0;
}
