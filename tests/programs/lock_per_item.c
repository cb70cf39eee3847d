// Designed pathology: one lock per data item (a histogram of many bins, each with its own
// lock), taken millions of times around a tiny update. Two threads almost never want the same
// bin at once, so the cost is the lock algorithm itself, not contention (expected cause:
// lock_overhead, with a hint for many cold locks: not "split the lock", which is done already).
// Argument: millions of updates (default 4).
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define BINS 100000

// The bin of update i: a mixing hash (splitmix64's finaliser), so that the bins two threads visit
// at once are unrelated. A multiplicative one (i * 2654435761 % BINS) repeats every BINS updates:
// a thread that started a few chunks ahead (the worker's creation) ran the same bins as the other,
// 100 000 updates behind it, and once they met they stayed in step (the follower waiting for each
// lock the leader just held): on an AMD EPYC VM whose two vCPUs are two cores, 413 835 of 2 M
// acquisitions queued.
static unsigned long bin_of(unsigned long i) {
  i ^= i >> 30;
  i *= 0xbf58476d1ce4e5b9ul;
  i ^= i >> 27;
  i *= 0x94d049bb133111ebul;
  i ^= i >> 31;
  return i % BINS;
}

int main(int argc, char** argv) {
  const long updates = (long)((argc > 1 ? atof(argv[1]) : 4.0) * 1e6);
  static omp_lock_t locks[BINS];
  static double bins[BINS];
  for (int i = 0; i < BINS; ++i) omp_init_lock(&locks[i]);
#pragma omp parallel for schedule(dynamic, 4096)  // a thread slowed by the machine leaves no imbalance
  for (long i = 0; i < updates; ++i) {
    const unsigned long bin = bin_of((unsigned long)i);  // scattered, like an unstructured mesh
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
