// N-queens by exhaustive search, a task per placement tried down to a depth cutoff (rows placed);
// below it each placement runs the same code as a plain call (the task construct's `if` false:
// what fine_grained_tasks proposes), copying the board per placement as BOTS nqueens's serial
// version does. Arguments: board size (default 10) and the cutoff depth (default: none, a task
// per placement: 35 538 tasks whose bodies are a few dozen comparisons). A well-chosen cutoff
// (`10 2`) leaves under a hundred tasks of tens of µs or more.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int safe(const char* rows, int row, int col) {
  for (int r = 0; r < row; ++r) {
    const int c = rows[r];
    if (c == col || c - col == row - r || col - c == row - r) return 0;
  }
  return 1;
}

static long solve(const char* placed, int n, int row, int cutoff);

// One placement: the board so far with `col` in `row`, searched on.
static long place(const char* rows, int n, int row, int col, int cutoff) {
  char next[32];
  memcpy(next, rows, (size_t)row);
  next[row] = (char)col;
  return solve(next, n, row + 1, cutoff);
}

static long solve(const char* placed, int n, int row, int cutoff) {
  if (row == n) return 1;
  char rows[32];
  memcpy(rows, placed, (size_t)row);
  long counts[32];
  for (int col = 0; col < n; ++col) {
    counts[col] = 0;
    if (!safe(rows, row, col)) continue;
    if (row >= cutoff) {
      counts[col] = place(rows, n, row, col, cutoff);
      continue;
    }
#pragma omp task firstprivate(col) shared(counts, rows)
    counts[col] = place(rows, n, row, col, cutoff);
  }
  if (row < cutoff) {
#pragma omp taskwait
  }
  long found = 0;
  for (int col = 0; col < n; ++col) found += counts[col];
  return found;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 10;
  const int cutoff = argc > 2 ? atoi(argv[2]) : n;
  if (n < 1 || n > 32) {
    fprintf(stderr, "nqueens_tasks: board size must be 1..32\n");
    return 2;
  }
  long found = 0;
#pragma omp parallel
#pragma omp single
  found = solve("", n, 0, cutoff);
  printf("%d queens: %ld solutions\n", n, found);
  return 0;
}
