// Designed pathology: a long serial phase before a short, well-balanced parallel one, so
// Amdahl's law bounds the speedup (expected cause: serial_code).
#include <omp.h>
#include <stdio.h>

static double work(long n) {
  double x = 0.0;
  for (long i = 0; i < n; ++i) x += 1.0 / (double)(i + 1);
  return x;
}

int main(void) {
  double serial = work(60000000);
  double parallel = 0.0;
#pragma omp parallel for reduction(+ : parallel) schedule(static)
  for (int i = 0; i < 64; ++i) parallel += work(50000);
  printf("serial=%.3f parallel=%.3f\n", serial, parallel);
  return 0;
}
