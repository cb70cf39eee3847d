// One thread prepares each task's input serially, then creates the task: with preparation
// 8 times as long as a body (the default), the other threads wait for tasks most of the time
// (task_creation_bottleneck). Argument: preparation ÷ body; 0.25 lets one creator feed a
// second thread and is no longer a bottleneck.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { kTasks = 1000, kBody = 20000 };  // a body: tens of µs

static double work(long n) {
  double x = 0.0;
  for (long i = 0; i < n; ++i) x += 1.0 / (double)(i + 1);
  return x;
}

int main(int argc, char** argv) {
  const double ratio = argc > 1 ? atof(argv[1]) : 8.0;
  static double results[kTasks];
#pragma omp parallel
#pragma omp single
  {
    for (int i = 0; i < kTasks; ++i) {
      const double input = work((long)(kBody * ratio));  // the serial preparation
#pragma omp task firstprivate(i, input) shared(results)
      results[i] = input + work(kBody);
    }
#pragma omp taskwait
  }
  double sum = 0;
  for (int i = 0; i < kTasks; ++i) sum += results[i];
  printf("sum=%.3f\n", sum);
  return 0;
}
