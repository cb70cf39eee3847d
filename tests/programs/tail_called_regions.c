// Designed shape: three functions whose last statement is a parallel region, called from one
// loop, 10, 20 and 30 times. clang -O2 ends each in `jmp __kmpc_fork_call`, so the fork's
// return address is the caller's: the three regions share it.
#include <stdio.h>

#define N (1 << 16)
static double a[3][N];

__attribute__((noinline)) void first(void) {
#pragma omp parallel for
  for (int i = 0; i < N; ++i) a[0][i] += i * 0.5;
}

__attribute__((noinline)) void second(void) {
#pragma omp parallel for
  for (int i = 0; i < N; ++i) a[1][i] += i * 0.25;
}

__attribute__((noinline)) void third(void) {
#pragma omp parallel for
  for (int i = 0; i < N; ++i) a[2][i] += i * 0.125;
}

typedef void (*step_fn)(void);

int main(void) {
  const step_fn steps[6] = {first, second, second, third, third, third};
  for (int it = 0; it < 60; ++it) steps[it % 6]();
  printf("%.1f %.1f %.1f\n", a[0][N - 1], a[1][N - 1], a[2][N - 1]);
  return 0;
}
