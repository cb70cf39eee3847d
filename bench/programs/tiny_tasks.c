// Task-heavy code for the overhead measurement: 2 million tiny tasks created by one thread.
#include <omp.h>
#include <stdio.h>

int main(void) {
  long sum = 0;
#pragma omp parallel
#pragma omp single
  for (long i = 0; i < 2000000; ++i) {
#pragma omp task firstprivate(i) shared(sum)
    {
#pragma omp atomic
      sum += i & 1;
    }
  }
  printf("%ld\n", sum);
  return 0;
}
