// A recursive task tree (Fibonacci, a task per call): most tasks are created by tasks, so under
// task sampling whole subtrees are sampled out. Argument: depth (default 22, 57 312 tasks).
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long fib(int n) {
  if (n < 2) return n;
  long a, b;
#pragma omp task shared(a)
  a = fib(n - 1);
#pragma omp task shared(b)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 22;
  long r = 0;
#pragma omp parallel
#pragma omp single
  r = fib(n);
  printf("fib(%d)=%ld\n", n, r);
  return 0;
}
