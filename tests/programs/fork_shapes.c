// Designed shapes: regions the compilers fork in ways that hide their directive.
//   tally():      a function whose last statement is a plain parallel region holding only an
//                 atomic update, called from a loop: clang -O2 tail-calls the fork (the return
//                 address is the caller's) and nothing in the body calls the runtime;
//   scale_all():  a static inline helper holding a parallel loop, inlined into main;
//   the last region's body calls a static inline helper (its code is the body's first).
// Each region must be located at its own directive's line.
#include <stdio.h>

#define N 4096
static double a[N];
static long hits, step;

__attribute__((noinline)) void tally(void) {
#pragma omp parallel
  {
#pragma omp atomic
    hits += step;
  }
}

static inline void scale_all(double f) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; ++i) a[i] = a[i] * f + 1.0;
}

static inline double smooth(int lo, int hi) {
  double s = 0;
  for (int i = lo; i < hi; ++i) s += a[i] * 0.5;
  return s;
}

int main(void) {
  for (step = 0; step < 40; ++step) tally();
  for (int it = 0; it < 20; ++it) scale_all(0.5);
  double total = 0;
  for (int it = 0; it < 20; ++it) {
#pragma omp parallel reduction(+ : total)
    {
      total += smooth(0, N);
    }
  }
  printf("%ld %.1f\n", hits, total);
  return 0;
}
