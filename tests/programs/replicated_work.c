// Designed pathology: work that grows with the team. Each thread does a fixed amount, so the
// team does t times the work at t threads and the region takes as long at 2 threads as at 1.
//   (no argument) "spmd": a loop every thread runs whole inside a plain parallel region, no
//                  worksharing construct (the per-thread benchmark loop users write);
//   "trips":       a worksharing loop whose trip count is n × the team size (a problem size
//                  scaled with the threads);
//   "shared":      the fix: the same n iterations shared with omp for (no replicated work).
#include <omp.h>
#include <stdio.h>
#include <string.h>

// 40 dependent steps, on the CPU, in registers: no memory traffic to slow it at 2 threads. Written
// out rather than as a 40-trip loop: GCC keeps such a loop, and its exit branch ran 20-40% slower
// in phases of seconds on a VM whose host shares the core's branch predictor with another guest
// (the written-out chain: within 7%), beyond the 20% by which CPU time alone tells replicated
// work without hardware counters (team CPU time x1.6 and x2.57 in two clean-clone CIs).
#define STEP x = x * 0.999 + 1.0;
#define STEP8 STEP STEP STEP STEP STEP STEP STEP STEP
static double step(long i) {
  double x = (double)(i & 1023);
  STEP8 STEP8 STEP8 STEP8 STEP8
  return x;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "spmd";
  const long n = 1500L * 1000;
  double total = 0;
  for (int r = 0; r < 4; ++r) {
    if (strcmp(mode, "trips") == 0) {
      const long trips = n * omp_get_max_threads();
#pragma omp parallel for reduction(+ : total) schedule(static)
      for (long i = 0; i < trips; ++i) total += step(i);
    } else if (strcmp(mode, "shared") == 0) {
#pragma omp parallel for reduction(+ : total) schedule(static)
      for (long i = 0; i < n; ++i) total += step(i);
    } else {
#pragma omp parallel reduction(+ : total)
      {
        for (long i = 0; i < n; ++i) total += step(i);
      }
    }
  }
  printf("total=%.0f\n", total);
  return 0;
}
