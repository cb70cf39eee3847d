// Designed shape: three parallel regions in the branches of one if/else chain, run 10, 20 and
// 30 times. clang -O2 merges their __kmpc_fork_call calls into one call site.
#include <stdio.h>

#define N (1 << 16)
static double a[3][N];

int main(void) {
  for (int it = 0; it < 60; ++it) {
    const int k = it % 6 == 0 ? 0 : it % 6 < 3 ? 1 : 2;
    if (k == 0) {
#pragma omp parallel for
      for (int i = 0; i < N; ++i) a[0][i] += i * 0.5;
    } else if (k == 1) {
#pragma omp parallel for
      for (int i = 0; i < N; ++i) a[1][i] += i * 0.25;
    } else {
#pragma omp parallel for
      for (int i = 0; i < N; ++i) a[2][i] += i * 0.125;
    }
  }
  printf("%.1f %.1f %.1f\n", a[0][N - 1], a[1][N - 1], a[2][N - 1]);
  return 0;
}
