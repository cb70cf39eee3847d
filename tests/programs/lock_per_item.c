// Designed pathology: one lock per data item (a histogram of many bins, each with its own
// lock), taken millions of times around a tiny update. Two threads almost never want the same
// bin at once, so the cost is the lock algorithm itself, not contention (expected cause:
// lock_overhead, with a hint for many cold locks: not "split the lock", which is done already).
// Argument: millions of updates (default 4).
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define BINS 100000

int main(int argc, char** argv) {
  const long updates = (long)((argc > 1 ? atof(argv[1]) : 4.0) * 1e6);
  static omp_lock_t locks[BINS];
  static double bins[BINS];
  for (int i = 0; i < BINS; ++i) omp_init_lock(&locks[i]);
#pragma omp parallel for schedule(dynamic, 4096)  // a thread slowed by the machine leaves no imbalance
  for (long i = 0; i < updates; ++i) {
    const unsigned long bin = ((unsigned long)i * 2654435761ul) % BINS;  // scattered, like an unstructured mesh
    omp_set_lock(&locks[bin]);
    bins[bin] += 1.0;
    omp_unset_lock(&locks[bin]);
  }
  double sum = 0;
  for (int i = 0; i < BINS; ++i) sum += bins[i];
  printf("updates=%.0f\n", sum);
  for (int i = 0; i < BINS; ++i) omp_destroy_lock(&locks[i]);
  return 0;
}
