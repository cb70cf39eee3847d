// Designed pathology: a balanced region cut by very many barriers around tiny equal work,
// so the barriers themselves dominate (expected cause: barrier_overhead).
#include <omp.h>
#include <stdio.h>

int main(void) {
  double cells[256] = {0};
#pragma omp parallel
  {
    const int me = omp_get_thread_num() % 256;
    for (int step = 0; step < 100000; ++step) {
      cells[me] += 1.0;
#pragma omp barrier
    }
  }
  printf("cell0=%.0f\n", cells[0]);
  return 0;
}
