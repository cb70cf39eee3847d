// Designed pathology: a static loop whose iteration cost grows with the index, so at 2
// threads the second thread gets ~3x the first's work (load imbalance at the loop's barrier).
// argv[1] = "dynamic" switches to schedule(dynamic) to measure the real gain of the fix.
#include <omp.h>
#include <stdio.h>
#include <string.h>

static double spin(long n) {
  double x = 0.0;
  for (long i = 0; i < n; ++i) x += 1.0 / (double)(i + 1);
  return x;
}

int main(int argc, char** argv) {
  int dynamic = argc > 1 && strcmp(argv[1], "dynamic") == 0;
  const int n = 400;
  const int repeats = 10;
  double sum = 0.0;
  for (int r = 0; r < repeats; ++r) {
    if (dynamic) {
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : sum)
      for (int i = 0; i < n; ++i) sum += spin(200L * i);
    } else {
#pragma omp parallel for schedule(static) reduction(+ : sum)
      for (int i = 0; i < n; ++i) sum += spin(200L * i);
    }
  }
  printf("sum=%.3f\n", sum);
  return 0;
}
