// Designed pathology: every thread takes its own lock very often around a tiny update, so
// the cost is the lock algorithm itself, not contention (expected cause: lock_overhead). The
// 4 M updates are divided among the team: with 2 M per thread at any count (as before), the
// team's work doubled at 2 threads, a second pathology (work that grows with the team) whose
// gain, half the loop's time outside the locks, outranked the locks on a machine where a lock
// costs little beside the loop and the tool's records (an AMD EPYC VM: work_inflation). Each
// thread's lock and total sit on their own cache line: adjacent ones would add false sharing
// (work inflation: at 2 threads the GCC build's work outside lock waits grew 24-fold).
#include <omp.h>
#include <stdio.h>

#define MAX_THREADS 256

int main(void) {
  static struct { omp_lock_t lock; char pad[64 - sizeof(omp_lock_t)]; } locks[MAX_THREADS] __attribute__((aligned(64)));
  static struct { double total; char pad[64 - sizeof(double)]; } totals[MAX_THREADS] __attribute__((aligned(64)));
  for (int i = 0; i < MAX_THREADS; ++i) omp_init_lock(&locks[i].lock);
  const long total = 4000000;
#pragma omp parallel
  {
    const int me = omp_get_thread_num() % MAX_THREADS;
    const long updates = total / omp_get_num_threads() + (omp_get_thread_num() < total % omp_get_num_threads());
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
