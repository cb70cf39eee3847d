// Designed pathology: every thread takes its own lock very often around a tiny update, so
// the cost is the lock algorithm itself, not contention (expected cause: lock_overhead).
#include <omp.h>
#include <stdio.h>

#define MAX_THREADS 256

int main(void) {
  static omp_lock_t locks[MAX_THREADS];
  static double totals[MAX_THREADS];
  for (int i = 0; i < MAX_THREADS; ++i) omp_init_lock(&locks[i]);
  const long updates = 2000000;
#pragma omp parallel
  {
    const int me = omp_get_thread_num() % MAX_THREADS;
    for (long i = 0; i < updates; ++i) {
      omp_set_lock(&locks[me]);
      totals[me] += 1.0;
      omp_unset_lock(&locks[me]);
    }
  }
  double sum = 0;
  for (int i = 0; i < MAX_THREADS; ++i) sum += totals[i];
  printf("updates=%.0f\n", sum);
  for (int i = 0; i < MAX_THREADS; ++i) omp_destroy_lock(&locks[i]);
  return 0;
}
