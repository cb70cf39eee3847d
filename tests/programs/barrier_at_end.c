// A fork shape: a region whose last statement is an explicit barrier, after a loop each thread
// partitions by hand. gcc -O2 compiles the barrier as a tail call from the outlined body
// (`jmp GOMP_barrier`), so the barrier's return address is not in the program: it must still be
// located in the program, never in ompscope's own sources (docs/source-locations.md).
#include <omp.h>
#include <stdio.h>

static double a[200000];

int main(void) {
  for (int r = 0; r < 20; ++r) {
#pragma omp parallel
    {
      const int me = omp_get_thread_num(), team = omp_get_num_threads();
      for (int i = me; i < 200000; i += team) a[i] += i * 0.5;
#pragma omp barrier
    }
  }
  printf("a[5]=%.1f\n", a[5]);
  return 0;
}
