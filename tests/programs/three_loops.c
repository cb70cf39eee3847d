// Designed shape: one parallel region holding three worksharing loops, run 8 times. The first
// and third loops cost the same per iteration; in the second only the upper half of the
// iterations costs anything, so under a static schedule at 2 threads the second thread does all
// of its work while the first waits (an imbalance of half the loop's work, well above what a
// loaded machine's preemptions put on the balanced loops). The load imbalance belongs to the
// second loop (line 27), and to no other.
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
      for (int i = 0; i < n; ++i) first[i] = spin(10000);

      // The imbalanced loop: the first half of its iterations is free, the second is not.
#pragma omp for schedule(static)
      for (int i = 0; i < n; ++i) second[i] = spin(i < n / 2 ? 0 : 40000);

#pragma omp for schedule(static)
      for (int i = 0; i < n; ++i) third[i] = spin(10000);
    }
    for (int i = 0; i < n; ++i) sum += first[i] + second[i] + third[i];
  }
  printf("sum=%.3f\n", sum);
  return 0;
}
