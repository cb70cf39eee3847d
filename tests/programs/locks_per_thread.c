// Designed pathology: every thread takes its own lock very often around a tiny update, so
// the cost is the lock algorithm itself, not contention (expected cause: lock_overhead). Each
// thread's lock and total sit on their own cache line: adjacent ones would add false sharing
// (work inflation: at 2 threads the GCC build's work outside lock waits grew 24-fold).
#include <omp.h>
#include <stdio.h>

#define MAX_THREADS 256

int main(void) {
  static struct { omp_lock_t lock; char pad[64 - sizeof(omp_lock_t)]; } locks[MAX_THREADS] __attribute__((aligned(64)));
  static struct { double total; char pad[64 - sizeof(double)]; } totals[MAX_THREADS] __attribute__((aligned(64)));
  for (int i = 0; i < MAX_THREADS; ++i) omp_init_lock(&locks[i].lock);
  const long updates = 2000000;
#pragma omp parallel
  {
    const int me = omp_get_thread_num() % MAX_THREADS;
    for (long i = 0; i < updates; ++i) {
      omp_set_lock(&locks[me].lock);
      totals[me].total += 1.0;
      omp_unset_lock(&locks[me].lock);
    }
  }
  double sum = 0;
  for (int i = 0; i < MAX_THREADS; ++i) sum += totals[i].total;
  printf("updates=%.0f\n", sum);
  for (int i = 0; i < MAX_THREADS; ++i) omp_destroy_lock(&locks[i].lock);
  return 0;
}
