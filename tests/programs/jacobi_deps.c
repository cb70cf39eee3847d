// A blocked Jacobi sweep with `depend`: a grid of rows (2 x 64 MiB), cut into blocks of rows;
// each block's task of a sweep reads its own and its two neighbouring blocks of the old grid,
// writes its block of the new one, and adds each point's change to its thread's partial residual. The
// graph offers far more parallelism than 2 threads use, and each task body is slower at 2
// threads than at 1 (task inflation, on the CPU), for two reasons a real solver has: the bodies
// stream through memory (where the grid is larger than the last-level cache, each thread gets
// less than the whole bandwidth), and the threads' partial residuals share a cache line, so two
// tasks running at once write the same line (false sharing; on a machine whose cache holds the
// grid, a 480 MiB L3 VM, this alone slows the bodies). The grids are first touched in
// parallel, outside the sweeps. Arguments: sweeps (8), blocks (32).
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { COLS = 4096, ROWS = 2048 };

// One partial residual per thread, packed: eight threads to a cache line.
static volatile double residual[64];

static void relax(const double* restrict old, double* restrict out, long first, long last) {
  volatile double* partial = &residual[omp_get_thread_num() % 64];
  for (long i = first; i < last; ++i) {
    const double* up = old + (i > 0 ? i - 1 : i) * COLS;
    const double* mid = old + i * COLS;
    const double* down = old + (i + 1 < ROWS ? i + 1 : i) * COLS;
    double* o = out + i * COLS;
    o[0] = mid[0];
    for (long j = 1; j < COLS - 1; ++j) {
      o[j] = 0.25 * (up[j] + down[j] + mid[j - 1] + mid[j + 1]);
      *partial += o[j] - mid[j];
    }
    o[COLS - 1] = mid[COLS - 1];
  }
}

int main(int argc, char** argv) {
  const int sweeps = argc > 1 ? atoi(argv[1]) : 8;
  const int blocks = argc > 2 ? atoi(argv[2]) : 32;
  if (blocks < 1) return 2;
  const long rows_per_block = ROWS / blocks;
  double* grid[2];
  grid[0] = malloc(sizeof(double) * ROWS * COLS);
  grid[1] = malloc(sizeof(double) * ROWS * COLS);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < ROWS; ++i)
    for (long j = 0; j < COLS; ++j) {
      grid[0][i * COLS + j] = (double)((i * 7 + j * 3) % 101);
      grid[1][i * COLS + j] = 0;
    }
#pragma omp parallel
#pragma omp single
  {
    for (int s = 0; s < sweeps; ++s) {
      double* old = grid[s % 2];
      double* out = grid[(s + 1) % 2];
      for (int b = 0; b < blocks; ++b) {
        const long first = b * rows_per_block, last = first + rows_per_block;
        const long up = b > 0 ? first - rows_per_block : first, down = b + 1 < blocks ? last : first;
#pragma omp task depend(in: old[up * COLS], old[first * COLS], old[down * COLS]) depend(out: out[first * COLS])
        relax(old, out, first, last);
      }
    }
  }
  printf("centre=%.6f\n", grid[sweeps % 2][(ROWS / 2) * COLS + COLS / 2]);
  free(grid[0]);
  free(grid[1]);
  return 0;
}
