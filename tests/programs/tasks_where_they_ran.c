// Designed shape: tasks from two creation sites in one region. The first single creates tasks
// and does not wait: they run in the barrier that ends the single. The second single creates
// tasks and waits for them in a taskwait: its thread runs them there, and the other thread in
// the barrier after the single. The construct tree shows each site's tasks under the barrier
// or the taskwait where they ran.
#include <stdio.h>

static double work(long n) {
  double x = 0.0;
  for (long i = 0; i < n; ++i) x += 1.0 / (double)(i + 1);
  return x;
}

enum { tasks = 120 };
static double early[tasks], late[tasks];

int main(void) {
#pragma omp parallel
  {
#pragma omp single
    {
      for (int i = 0; i < tasks; ++i) {
#pragma omp task firstprivate(i)
        early[i] = work(200000);
      }
    }
#pragma omp single
    {
      for (int i = 0; i < tasks; ++i) {
#pragma omp task firstprivate(i)
        late[i] = work(200000);
      }
#pragma omp taskwait
    }
  }
  double sum = 0;
  for (int i = 0; i < tasks; ++i) sum += early[i] + late[i];
  printf("sum=%.3f\n", sum);
  return 0;
}
