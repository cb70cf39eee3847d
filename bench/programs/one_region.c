// The tool's fixed cost: one tiny parallel region, so a run under the tool costs what loading
// it, opening the logs, starting the writer and finalising cost, and nearly nothing per event.
#include <omp.h>
#include <stdio.h>

int main(void) {
  int sum = 0;
#pragma omp parallel reduction(+ : sum)
  sum += omp_get_thread_num();
  printf("%d\n", sum);
  return 0;
}
