// Designed pathology: a blocked wavefront (issue 24's public program told "guided chunks": predicted
// 28 ms, real 10 ms). The blocks of a 7 × 7 grid are swept diagonal by diagonal, one worksharing
// loop per diagonal of 1, 2, ..., 7, ..., 1 blocks. At 2 threads a diagonal of an odd count leaves
// one thread a block more than the other, whatever the schedule: too few iterations, not a
// schedule's imbalance.
// argv[1] = "dynamic" runs the loops with schedule(dynamic, 1) instead of static (the change a
// schedule hint asks for, to measure its real gain); argv[2] = "skewed" makes a diagonal's first
// blocks the costly ones (4x its last), which static hands to one thread and dynamic spreads.
#include <omp.h>
#include <stdio.h>
#include <string.h>

static double spin(long n) {
  double x = 0.0;
  for (long i = 0; i < n; ++i) x += 1.0 / (double)(i + 1);
  return x;
}

int main(int argc, char** argv) {
  const int dynamic = argc > 1 && strcmp(argv[1], "dynamic") == 0;
  const double skew = argc > 2 && strcmp(argv[2], "skewed") == 0 ? 3.0 : 0.0;
  const int blocks = 7, sweeps = 200;
  const long unit = 40000;  // ~45 us a block
  double sum = 0.0;
  for (int s = 0; s < sweeps; ++s)
    for (int d = 0; d < 2 * blocks - 1; ++d) {
      const int first = d < blocks ? 0 : d - blocks + 1, last = d < blocks ? d : blocks - 1;
      const int len = last - first + 1;
      if (dynamic) {
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : sum)
        for (int k = 0; k < len; ++k) sum += spin((long)(unit * (1.0 + skew * (len - 1 - k) / (blocks - 1))));
      } else {
#pragma omp parallel for schedule(static) reduction(+ : sum)
        for (int k = 0; k < len; ++k) sum += spin((long)(unit * (1.0 + skew * (len - 1 - k) / (blocks - 1))));
      }
    }
  printf("sum=%.3f\n", sum);
  return 0;
}
