// Typical loop code for the overhead measurement: a 1-D Jacobi stencil, one parallel for per
// sweep (2000 regions, each with a loop and its barrier), a few hundred µs of work per region.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 200000, sweeps = 2000;
  double* a = calloc(n, sizeof *a);
  double* b = calloc(n, sizeof *b);
  a[n / 2] = 1.0;
  for (int s = 0; s < sweeps; ++s) {
#pragma omp parallel for schedule(static)
    for (int i = 1; i < n - 1; ++i) b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0;
    double* t = a;
    a = b;
    b = t;
  }
  printf("%.6e\n", a[n / 2]);
  free(a);
  free(b);
  return 0;
}
