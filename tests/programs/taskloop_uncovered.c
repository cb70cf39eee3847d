// A construct the libgomp interposer does not observe (taskloop: GOMP_taskloop copies its loop
// bounds into the task's arguments, so its tasks cannot be wrapped). The program must run as it
// does bare, and the report must name what was not observed.
#include <math.h>
#include <stdio.h>

int main(void) {
  double sum = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop reduction(+ : sum) grainsize(1000)
  for (int i = 0; i < 2000000; ++i) sum += sqrt((double)i);
  printf("sum=%.1f\n", sum);
  return 0;
}
