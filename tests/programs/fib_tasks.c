// Recursive Fibonacci with a task per call down to a depth cutoff: below the cutoff the calls
// are plain function calls. Arguments: n (default 25) and the cutoff depth (default: none, a task
// per call, ~10^5 tasks of ~0.1 µs each at n=25: the runtime's per-task cost dwarfs the bodies).
// A cutoff that leaves tiny tasks (e.g. `30 22`) is fine-grained still; a well-chosen one (`30 6`)
// leaves about a hundred tasks of tens of µs.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

static long fib(int n, int depth, int cutoff) {
  if (n < 2) return n;
  if (depth >= cutoff) return fib_serial(n);
  long a, b;
#pragma omp task shared(a)
  a = fib(n - 1, depth + 1, cutoff);
#pragma omp task shared(b)
  b = fib(n - 2, depth + 1, cutoff);
#pragma omp taskwait
  return a + b;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 25;
  const int cutoff = argc > 2 ? atoi(argv[2]) : n;
  long r = 0;
#pragma omp parallel
#pragma omp single
  r = fib(n, 0, cutoff);
  printf("fib(%d)=%ld\n", n, r);
  return 0;
}
