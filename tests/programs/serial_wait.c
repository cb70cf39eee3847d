// Designed pathology: serial time off the CPU. Between its parallel loops the program sleeps
// (0.3 s twice: a wait for a device, a file, another process), so most of its serial time is
// spent waiting, not computing (expected cause: serial_blocked, never "parallelise it").
#include <omp.h>
#include <stdio.h>
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

int main(void) {
  double total = 0.0;
  for (int phase = 0; phase < 3; ++phase) {
#pragma omp parallel for reduction(+ : total) schedule(static)
    for (int i = 0; i < 64; ++i) total += work(200000);
    if (phase < 2) wait_s(0.3);
  }
  printf("total=%.3f\n", total);
  return 0;
}
