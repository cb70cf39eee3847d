// Designed pathology: a balanced loop whose threads each update their own counter, and the
// counters share one cache line (false sharing). Every iteration costs the same at any thread
// count, yet at 2 threads each write waits for the line to come back from the other core: the
// team's work grows (work inflation), with nothing off the CPU and nothing in the kernel.
// argv[1] = "padded" gives each counter its own 64-byte line (the fix).
#include <omp.h>
#include <stdio.h>
#include <string.h>

#define MAX_THREADS 64

struct padded { volatile long value; char pad[64 - sizeof(long)]; };

static volatile long packed[MAX_THREADS];                      // one cache line for eight threads
static struct padded spread[MAX_THREADS] __attribute__((aligned(64)));

int main(int argc, char** argv) {
  const int pad = argc > 1 && strcmp(argv[1], "padded") == 0;
  const long n = 30L * 1000 * 1000;
  for (int r = 0; r < 4; ++r) {
#pragma omp parallel
    {
      const int me = omp_get_thread_num() % MAX_THREADS;
      volatile long* counter = pad ? &spread[me].value : &packed[me];
#pragma omp for schedule(static)
      for (long i = 0; i < n; ++i) *counter += i & 3;
    }
  }
  long total = 0;
  for (int i = 0; i < MAX_THREADS; ++i) total += packed[i] + spread[i].value;
  printf("total=%ld\n", total);
  return 0;
}
