// Designed pathology: NPB LU's pipelined sweep (its blts/buts). Each plane's rows are shared out
// with `omp for nowait schedule(static)`; a row needs the row before it done on the same plane,
// and a thread whose first row follows another thread's last one waits for it by spinning
// `while (flag[j - 1] == 0) { #pragma omp flush }`, the neighbour waiting in turn until the flag
// it set was taken. At 2 threads the second thread starts each sweep a plane behind the first,
// and every plane each thread waits for the other at the rows they share: CPU time in the
// runtime's flush (clang: a call to __kmpc_flush), outside any OpenMP wait, so it counts as the
// team's work, and it grows from 1 thread to 2 (expected: work_inflation, its largest part the
// runtime's time outside waits, not memory or false sharing).
#include <omp.h>
#include <stdio.h>

#define ROWS 64
#define PLANES 3
#define COLUMNS 2048

static double grid[PLANES][ROWS][COLUMNS];
static volatile int flag[ROWS];

static void sweep(int plane) {
#pragma omp for nowait schedule(static)
  for (int j = 0; j < ROWS; ++j) {
    if (j != 0)
      while (flag[j - 1] == 0) {
#pragma omp flush
      }
    if (j != ROWS - 1)
      while (flag[j] == 1) {
#pragma omp flush
      }
    const double* above = plane ? grid[plane - 1][j] : grid[plane][j];
    const double* before = j ? grid[plane][j - 1] : grid[plane][j];
    double* row = grid[plane][j];
    for (int rep = 0; rep < 8; ++rep)
      for (int i = 1; i < COLUMNS; ++i) row[i] = 0.25 * (row[i] + row[i - 1] + above[i] + before[i]) + 1e-9 * rep;
    // The handshake of LU: the row before is taken, this one is done.
    if (j != 0) flag[j - 1] = 0;
    if (j != ROWS - 1) flag[j] = 1;
#pragma omp flush
  }
}

int main(void) {
  for (int step = 0; step < 60; ++step) {
#pragma omp parallel
    {
      for (int plane = 0; plane < PLANES; ++plane) sweep(plane);
    }
  }
  printf("grid=%g\n", grid[PLANES - 1][ROWS - 1][COLUMNS - 1]);
  return 0;
}
