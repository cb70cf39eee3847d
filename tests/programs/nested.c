// Nested parallelism: an outer team of 2, each member forking an inner team of 2, 3 times.
#include <omp.h>
#include <stdio.h>

int main(void) {
  omp_set_max_active_levels(2);
  int inner_runs = 0;
  for (int r = 0; r < 3; ++r) {
#pragma omp parallel num_threads(2)
    {
#pragma omp parallel num_threads(2)
      {
#pragma omp atomic
        inner_runs++;
      }
    }
  }
  printf("inner=%d\n", inner_runs);
  return 0;
}
