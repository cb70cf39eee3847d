// Designed pathology: all threads serialise on one lock that guards real work, so they
// queue for it (expected cause: lock_contention).
#include <omp.h>
#include <stdio.h>

static double work(long n) {
  double x = 0.0;
  for (long i = 0; i < n; ++i) x += 1.0 / (double)(i + 1);
  return x;
}

int main(void) {
  omp_lock_t lock;
  omp_init_lock(&lock);
  double total = 0.0;
#pragma omp parallel
  {
    for (int i = 0; i < 400; ++i) {
      double local = work(2000);
      omp_set_lock(&lock);
      total += work(400000) + local;
      omp_unset_lock(&lock);
    }
  }
  omp_destroy_lock(&lock);
  printf("total=%.3f\n", total);
  return 0;
}
