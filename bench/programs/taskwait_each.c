// A task that waits for each task it creates before it creates the next (a sequential chain of
// tasks, as codes that port a loop to tasks one call at a time write it): N creations, N
// taskwaits. Every pass of the analysis that walked a task's children at each of its taskwaits,
// or a thread's whole history of constructs at each item, was quadratic in N here (BENCHMARKS.md,
// "Session 2026-11-28 (4)": 20 000 tasks, `report` 1.9 s before, 78 ms after).
// usage: taskwait_each [N]   (default 20000)
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

static void work(int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += i * 0.5;
  sink = s;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 20000;
#pragma omp parallel
#pragma omp single
#pragma omp task
  for (int i = 0; i < n; ++i) {
#pragma omp task
    work(2000);
#pragma omp taskwait
  }
  printf("%f\n", sink);
  return 0;
}
