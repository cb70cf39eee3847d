// Designed pathology for sampled lines (docs/sampling.md): one region calls two functions on
// each chunk of a loop. private_sum() computes in registers and costs the same at any thread
// count; shared_count() increments one of a few counters that share a cache line, atomically: at
// 1 thread the line stays in its core, at 2 each increment waits for the line to come back from
// the other core. The team's work grows (work inflation) and all of the growth is in
// shared_count(): the samples must name its line, not private_sum's.
// Each chunk's increments take longer than its arithmetic (~60% of a chunk on an AMD EPYC VM):
// the threads' counting phases then overlap, whatever the offset between the threads. With a
// quarter as many increments (the counting a sixth of a chunk) that VM ran one thread's counting
// while the other computed, for whole runs: no contention, 0.20 s at 1 thread and 0.11 at 2.
// The arithmetic is a third of the work or more: built with gcc, whose schedule(static) loop
// calls no runtime entry point, the team's CPU time can grow x2 by the atomics alone (beside
// another 2-thread program they slowed x2, not x3), and only private_sum's line, which did not
// grow, tells that from each thread repeating the work (replicated_work). At a sixth of the work
// it had too few samples to say so.
#include <omp.h>
#include <stdio.h>

static long counters[8] __attribute__((aligned(64)));  // one cache line

__attribute__((noinline)) static double private_sum(long n, double seed) {
  double s = seed;
  for (long i = 0; i < n; ++i) s = s * 0.999999 + (double)(i & 7);  // the private function's line
  return s;
}

__attribute__((noinline)) static void shared_count(int me, long n) {
  for (long i = 0; i < n; ++i) __atomic_fetch_add(&counters[me & 7], 1, __ATOMIC_RELAXED);  // the shared counter's line
}

int main(void) {
  const long chunks = 200, work = 90000, increments = 120000;
  double total = 0;
  for (int r = 0; r < 4; ++r) {
#pragma omp parallel reduction(+ : total)
    {
      const int me = omp_get_thread_num();
#pragma omp for schedule(static)
      for (long c = 0; c < chunks; ++c) {
        total += private_sum(work, (double)c);
        shared_count(me, increments);
      }
    }
  }
  long sum = 0;
  for (int i = 0; i < 8; ++i) sum += counters[i];
  printf("total=%.3g counted=%ld\n", total, sum);
  return 0;
}
