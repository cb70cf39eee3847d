// Fixed work split into a few equal tasks: with the default 3 tasks on 2 threads one thread
// idles while the third task runs (coarse_grained_tasks). Argument: the number of tasks the
// same total work is split into; 64 balances the end and is no longer coarse.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static double work(long n) {
  double x = 0.0;
  for (long i = 0; i < n; ++i) x += 1.0 / (double)(i + 1);
  return x;
}

int main(int argc, char** argv) {
  const int tasks = argc > 1 ? atoi(argv[1]) : 3;
  const long total = 150000000;  // about 0.3 s of divisions in all
  double sum = 0;
#pragma omp parallel
#pragma omp single
  {
    for (int i = 0; i < tasks; ++i) {
#pragma omp task shared(sum)
      {
        const double r = work(total / tasks);
#pragma omp atomic
        sum += r;
      }
    }
#pragma omp taskwait
  }
  printf("sum=%.3f\n", sum);
  return 0;
}
