/* ompscope-probe: the smallest program that exercises the callbacks doctor checks:
   a parallel region with a loop, a barrier, a critical section, a lock and a task. */
#include <omp.h>
#include <stdio.h>

int main(void) {
  omp_lock_t lock;
  omp_init_lock(&lock);
  int sum = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp for schedule(dynamic)
    for (int i = 0; i < 8; ++i) {
#pragma omp critical
      sum += i;
    }
    omp_set_lock(&lock);
    omp_unset_lock(&lock);
#pragma omp single
    {
#pragma omp task
      sum += 1;
    }
  }
  omp_destroy_lock(&lock);
  printf("probe %d\n", sum);
  return 0;
}
