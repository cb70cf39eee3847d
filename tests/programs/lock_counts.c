// Lock operations whose count the log must give exactly under lock sampling, on both capture
// paths (tests/e2e: lock_counts). Per thread, with sampling on (docs/locks.md):
// - region A, once: 3000 times two locks taken and released out of order (set a, set b,
//   unset a, unset b): 6000 operations, each release belonging to its own acquire;
// - region B, 3000 instances of 5 operations: the first 1000 instances are recorded, then one
//   in 10 (200 more); the 1800 light instances leave nothing, so 6000 operations count;
// - region C, once: 3000 operations.
// 15 000 counted operations per thread in all, recorded or counted in LockOps records.
#include <omp.h>
#include <stdio.h>

int main(void) {
  omp_lock_t a[2], b[2], c[2], d;
  long sum = 0;
  for (int t = 0; t < 2; ++t) omp_init_lock(&a[t]), omp_init_lock(&b[t]), omp_init_lock(&c[t]);
  omp_init_lock(&d);
#pragma omp parallel num_threads(2) reduction(+ : sum)
  {
    const int t = omp_get_thread_num();
    for (int i = 0; i < 3000; ++i) {
      omp_set_lock(&a[t]);
      omp_set_lock(&b[t]);
      omp_unset_lock(&a[t]);
      ++sum;
      omp_unset_lock(&b[t]);
    }
  }
  for (int r = 0; r < 3000; ++r) {
#pragma omp parallel num_threads(2) reduction(+ : sum)
    {
      const int t = omp_get_thread_num();
      for (int i = 0; i < 5; ++i) {
        omp_set_lock(&c[t]);
        ++sum;
        omp_unset_lock(&c[t]);
      }
    }
  }
#pragma omp parallel num_threads(2) reduction(+ : sum)
  for (int i = 0; i < 3000; ++i) {
    omp_set_lock(&d);
    ++sum;
    omp_unset_lock(&d);
  }
  printf("sum=%ld\n", sum);
  return 0;
}
