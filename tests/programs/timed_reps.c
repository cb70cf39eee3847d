// Designed shape: a benchmark that sizes its repetitions by time (as micro-benchmark suites do:
// repeat the construct until the test has run a target time). Each run does a different amount
// of work at each thread count, so the region's instance counts differ between counts and its
// total times compare different work.
//   (no argument) "shared": a fixed loop shared with omp for; an instance takes half as long at
//                  2 threads, so twice as many run in the same time: the totals are equal at 1
//                  and 2 threads, which compared as totals reads as 50% efficiency;
//   "each":        a plain parallel region where every thread runs the whole delay (the
//                  per-thread work of a parallel-overhead benchmark, ~50 ms here so that a loaded
//                  machine's fork and join stay small beside it): work that grows with the team.
#include <omp.h>
#include <stdio.h>
#include <string.h>

static int each = 0;

static double delay(long n) {  // on the CPU, in registers
  double x = 0;
  for (long k = 0; k < n; ++k) x = x * 0.999 + 1.0;
  return x;
}

static double sink;

static void test(long reps) {
  const long n = 100 * 1000;  // ~0.5 ms of delay on one thread
  for (long r = 0; r < reps; ++r) {
    if (each) {
#pragma omp parallel
      {
        const double x = delay(100 * n);  // ~50 ms: a fork and join on a loaded machine (3-12 ms) stay small beside it
#pragma omp atomic
        sink += x;
      }
    } else {
      double total = 0;
#pragma omp parallel for reduction(+ : total) schedule(static)
      for (long i = 0; i < 64; ++i) total += delay(n / 64);
      sink += total;
    }
  }
}

int main(int argc, char** argv) {
  each = argc > 1 && strcmp(argv[1], "each") == 0;
  // The repetitions that fill the target time, from the fastest of five trials (the measured time per
  // repetition: the fewer it takes at this team size, the more run).
  const double target = 0.12;
  test(1);  // the team starts at the first fork: not part of the trial
  const long trial_reps = each ? 1 : 32;
  double per_rep = 1e9, start;
  for (int trial = 0; trial < 5; ++trial) {  // the fastest of five trials
    start = omp_get_wtime();
    test(trial_reps);
    const double t = (omp_get_wtime() - start) / trial_reps;
    if (t < per_rep) per_rep = t;
  }
  const long reps = (long)(target / per_rep) + 1;
  for (int outer = 0; outer < 3; ++outer) {
    start = omp_get_wtime();
    test(reps);
    printf("%ld repetitions: %.1f us each\n", reps, 1e6 * (omp_get_wtime() - start) / reps);
  }
  printf("sink=%.0f\n", sink);
  return 0;
}
