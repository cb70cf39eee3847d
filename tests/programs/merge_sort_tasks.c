// Merge sort of pseudo-random integers, a task per half down to leaves of a given size (sorted
// by insertion up to 32 elements, by qsort above). Arguments: element count (default 1 000 000) and the leaf size (default 8:
// ~250 000 tasks, most of them leaves of a few dozen ns). A well-chosen leaf (`1000000 16384`)
// leaves ~120 tasks.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void insertion_sort(int* a, long n) {
  for (long i = 1; i < n; ++i) {
    const int v = a[i];
    long j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      --j;
    }
    a[j + 1] = v;
  }
}

static int compare(const void* x, const void* y) {
  const int a = *(const int*)x, b = *(const int*)y;
  return (a > b) - (a < b);
}

static void merge(const int* a, long na, const int* b, long nb, int* out) {
  long i = 0, j = 0, k = 0;
  while (i < na && j < nb) out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
  while (i < na) out[k++] = a[i++];
  while (j < nb) out[k++] = b[j++];
}

// Sorts a[0..n) using tmp[0..n) as scratch.
static void sort(int* a, int* tmp, long n, long leaf) {
  if (n <= leaf) {
    if (n <= 32) insertion_sort(a, n); else qsort(a, (size_t)n, sizeof(int), compare);
    return;
  }
  const long half = n / 2;
#pragma omp task
  sort(a, tmp, half, leaf);
#pragma omp task
  sort(a + half, tmp + half, n - half, leaf);
#pragma omp taskwait
  merge(a, half, a + half, n - half, tmp);
  memcpy(a, tmp, (size_t)n * sizeof(int));
}

int main(int argc, char** argv) {
  const long n = argc > 1 ? atol(argv[1]) : 1000000;
  const long leaf = argc > 2 ? atol(argv[2]) : 8;
  if (n < 1 || leaf < 1) {
    fprintf(stderr, "merge_sort_tasks: the element count and the leaf size must be positive\n");
    return 2;
  }
  int* a = malloc((size_t)n * sizeof(int));
  int* tmp = malloc((size_t)n * sizeof(int));
  if (!a || !tmp) return 1;
  unsigned x = 12345;
  for (long i = 0; i < n; ++i) a[i] = (int)((x = x * 1103515245u + 12345u) >> 1);
#pragma omp parallel
#pragma omp single
  sort(a, tmp, n, leaf);
  long unsorted = 0;
  for (long i = 1; i < n; ++i) unsorted += a[i - 1] > a[i];
  printf("sorted %ld, %ld out of order\n", n, unsorted);
  free(a);
  free(tmp);
  return unsorted != 0;
}
