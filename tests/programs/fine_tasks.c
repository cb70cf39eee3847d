// One thread creates many tasks whose bodies are far shorter than what the runtime spends
// creating and dispatching each one: fine_grained_tasks. Arguments: iterations per task body
// (default 10, tens of ns) and task count (default 400000). With `20000 2000` the bodies take
// tens of µs and the same program is no longer fine-grained.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static double work(long n) {
  double x = 0.0;
  for (long i = 0; i < n; ++i) x += 1.0 / (double)(i + 1);
  return x;
}

int main(int argc, char** argv) {
  const long body = argc > 1 ? atol(argv[1]) : 10;
  const long tasks = argc > 2 ? atol(argv[2]) : 400000;
  double negative = 0;  // stays 0: keeps the bodies from being optimised away
#pragma omp parallel
#pragma omp single
  {
    for (long i = 0; i < tasks; ++i) {
#pragma omp task shared(negative)
      {
        const double r = work(body);
        if (r < 0) {
#pragma omp atomic
          negative += r;
        }
      }
    }
#pragma omp taskwait
  }
  printf("negative=%.1f\n", negative);
  return 0;
}
