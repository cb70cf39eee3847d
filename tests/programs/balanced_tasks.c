// Tasks of equal, moderate size created by one thread and run by the team.
#include <omp.h>
#include <stdio.h>

static double work(long n) {
  double x = 0.0;
  for (long i = 0; i < n; ++i) x += 1.0 / (double)(i + 1);
  return x;
}

int main(void) {
  double results[200];
#pragma omp parallel
#pragma omp single
  {
    for (int i = 0; i < 200; ++i) {
#pragma omp task firstprivate(i) shared(results)
      results[i] = work(100000);
    }
#pragma omp taskwait
  }
  double sum = 0;
  for (int i = 0; i < 200; ++i) sum += results[i];
  printf("sum=%.3f\n", sum);
  return 0;
}
