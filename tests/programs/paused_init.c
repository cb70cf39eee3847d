// A program that leaves its initialisation out of the measurement with omp_control_tool (the
// OpenMP API for tools; docs/sampling.md, "Leaving a phase out"): the tool is paused around an
// initialisation that has a parallel region of its own (fill), and started again before the
// solver's loop (sweep). A report of it holds sweep's region and no region of fill's, and the
// pause's time is none of the program's.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 22)

static double fill(double* a, int rounds) {
  double s = 0;
  for (int r = 0; r < rounds; ++r) {
#pragma omp parallel for reduction(+ : s)
    for (long i = 0; i < N; ++i) {  // the initialisation's region
      a[i] = (double)((i * 2654435761u + r) % 1000) * 1e-3;
      s += a[i];
    }
  }
  return s;
}

static double sweep(double* a, int rounds) {
  double s = 0;
  for (int r = 0; r < rounds; ++r) {
#pragma omp parallel for reduction(+ : s)
    for (long i = 1; i < N - 1; ++i) s += 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];  // the solver's region
  }
  return s;
}

int main(void) {
  double* a = malloc(sizeof(double) * N);
  if (!a) return 1;
  // libomp answers omp_control_tool only once it is initialised (its first region, or a query such
  // as this one); before that it returns omp_control_tool_notool without telling the tool
  // (docs/runtime-quirks.md).
  const int threads = omp_get_max_threads();
  if (omp_control_tool(omp_control_tool_pause, 0, NULL) == omp_control_tool_notool)
    fprintf(stderr, "no tool to pause\n");
  const double init = fill(a, 80);  // four times the solver's rounds: most of the run is paused
  omp_control_tool(omp_control_tool_start, 0, NULL);
  const double result = sweep(a, 20);
  printf("threads=%d init=%.6g result=%.6g\n", threads, init, result);
  free(a);
  return 0;
}
