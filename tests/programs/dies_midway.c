// A program that runs 5 parallel regions, then ends badly: argv[1] = abort | segv | exit3,
// or exit3-at-2 (exit 3 only when run with 2 threads, to test one failing count of a scale).
// The report must still hold the 5 regions that ran.
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  double sum = 0.0;
  for (int r = 0; r < 5; ++r) {
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < 1000; ++i) sum += i * 0.5;
  }
  printf("sum=%.1f\n", sum);
  fflush(stdout);
  const char* how = argc > 1 ? argv[1] : "abort";
  if (strcmp(how, "exit3") == 0) exit(3);
  if (strcmp(how, "exit3-at-2") == 0) return omp_get_max_threads() == 2 ? 3 : 0;
  if (strcmp(how, "segv") == 0) raise(SIGSEGV);
  abort();
}
