// Designed for adaptive sampling: one short, imbalanced region run 12 000 times. Thread 0 does
// six times the work of the others (~40 µs of imbalance per instance, well above a fork's
// cost). After its first instances the tool records only a subset, and the diagnosis
// (load_imbalance) must survive the scaling to all instances.
// argv[1] = instances (default 12000).
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static double spin(long n) {
  double x = 0.0;
  for (long i = 0; i < n; ++i) x += 1.0 / (double)(i + 1);
  return x;
}

int main(int argc, char** argv) {
  const int instances = argc > 1 ? atoi(argv[1]) : 12000;
  double sum = 0.0;
  for (int r = 0; r < instances; ++r) {
#pragma omp parallel reduction(+ : sum)
    sum += spin(omp_get_thread_num() == 0 ? 60000 : 10000);
  }
  printf("sum=%.3f\n", sum);
  return 0;
}
