// One dependence chain: each task is depend(inout) on the one before it, so no two tasks can
// ever run at once; at 2 threads half the team idles (dependency_bound, never fine-grained:
// the bodies are ~0.35 ms each). Arguments: tasks (200), iterations per body (350000).
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static double step(double x, long n) {
  for (long i = 0; i < n; ++i) x = x * 0.999999 + 1.0 / (double)(i + 1);
  return x;
}

int main(int argc, char** argv) {
  const int tasks = argc > 1 ? atoi(argv[1]) : 200;
  const long n = argc > 2 ? atol(argv[2]) : 350000;
  double state = 1.0;
#pragma omp parallel
#pragma omp single
  {
    for (int i = 0; i < tasks; ++i) {
#pragma omp task depend(inout: state) shared(state)
      state = step(state, n);
    }
  }
  printf("state=%.6f\n", state);
  return 0;
}
