// BOTS's shape (sparselu, health, nqueens): one untied task creates untied tasks of a few µs
// each. libomp runs an untied task as parts: at its start it hands its continuation back to the
// task it was started from, then runs it; under adaptive sampling the creator is recorded and the
// tasks it creates are light (e2e_untied_light_bodies). Arguments: iterations per task body
// (default 4000, a few µs) and task count (default 20000).
#include <stdio.h>
#include <stdlib.h>

static double work(long n) {
  double x = 0.0;
  for (long i = 0; i < n; ++i) x += 1.0 / (double)(i + 1);
  return x;
}

int main(int argc, char** argv) {
  const long body = argc > 1 ? atol(argv[1]) : 4000;
  const long tasks = argc > 2 ? atol(argv[2]) : 20000;
  double negative = 0;  // stays 0: keeps the bodies from being optimised away
#pragma omp parallel
#pragma omp single
#pragma omp task untied shared(negative)
  {
    for (long i = 0; i < tasks; ++i) {
#pragma omp task untied shared(negative)
      {
        const double r = work(body);
        if (r < 0) {
#pragma omp atomic
          negative += r;
        }
      }
    }
  }
  printf("%g\n", negative);
  return 0;
}
