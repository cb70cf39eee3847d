// A program that sets its own thread count, as many public benchmarks do: `-t N` on its command
// line (or --threads=N), else a team of 2 whatever OMP_NUM_THREADS says. Its one region is a
// balanced loop.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  int threads = 2;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) threads = atoi(argv[i + 1]);
    if (strncmp(argv[i], "--threads=", 10) == 0) threads = atoi(argv[i] + 10);
  }
  omp_set_num_threads(threads);
  const long n = 20L * 1000 * 1000;
  double total = 0;
  for (int r = 0; r < 3; ++r) {
#pragma omp parallel for reduction(+ : total) schedule(static)
    for (long i = 0; i < n; ++i) total += (double)(i & 7) * 0.5;
  }
  printf("threads=%d total=%.0f\n", threads, total);
  return 0;
}
