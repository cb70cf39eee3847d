// Designed pathology: serial time off the CPU. Between its parallel loops the program sleeps
// (0.3 s twice: a wait for a device, a file, another process), so most of its serial time is
// spent waiting, not computing (expected cause: serial_blocked, never "parallelise it").
//   serial_wait         sleeps itself (nanosleep): a wait with no block I/O and no child
//   serial_wait child   waits for a child process that sleeps (system("sleep 0.3")): the wait
//                       is the child's
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double work(long n) {
  double x = 0.0;
  for (long i = 0; i < n; ++i) x += 1.0 / (double)(i + 1);
  return x;
}

static void wait_s(double s) {
  struct timespec ts = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

int main(int argc, char** argv) {
  const int child = argc > 1 && strcmp(argv[1], "child") == 0;
  double total = 0.0;
  for (int phase = 0; phase < 3; ++phase) {
#pragma omp parallel for reduction(+ : total) schedule(static)
    for (int i = 0; i < 64; ++i) total += work(200000);
    if (phase < 2 && child && system("sleep 0.3") != 0) return 1;
    if (phase < 2 && !child) wait_s(0.3);
  }
  printf("total=%.3f\n", total);
  return 0;
}
