/* A task tree with a known number of explicit tasks, for the trace writers' end-to-end test.
 *
 *   1 task created in serial code (outside any parallel region)
 *   8 parent tasks (from a single), each creating 4 child tasks and waiting for them: 8 + 32
 *   1 undeferred task (if(0)), created and run at once by the single thread
 *   = 42 explicit tasks, each created once and completed once.
 * A worksharing loop with a critical section and an omp lock add loops and lock holds.
 * `task_tree R` repeats the parallel part R times (1 + 41·R tasks): the trace benchmark. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define PARENTS 8
#define CHILDREN 4
#define EXPECTED_TASKS (1 + PARENTS + PARENTS * CHILDREN + 1)

static volatile double sink;

static void spin(int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += i * 0.5;
  sink = s;
}

static void parent(int p) {
  for (int c = 0; c < CHILDREN; ++c) {
#pragma omp task firstprivate(c, p)
    spin(20000 + 3000 * c + 1000 * p);
  }
#pragma omp taskwait
  spin(10000);
}

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? atoi(argv[1]) : 1;
#pragma omp task
  spin(5000);

  omp_lock_t lock;
  omp_init_lock(&lock);
  double total = 0;

  for (int r = 0; r < repeats; ++r) {
#pragma omp parallel
    {
#pragma omp single
      {
        for (int p = 0; p < PARENTS; ++p) {
#pragma omp task firstprivate(p)
          parent(p);
        }
#pragma omp task if (0)
        spin(3000);
#pragma omp taskwait
      }

#pragma omp for schedule(static)
      for (int i = 0; i < 64; ++i) {
        spin(2000 + 100 * i);
        if (i % 16 == 0) {
#pragma omp critical
          total += i;
        }
        if (i % 16 == 1) {
          omp_set_lock(&lock);
          total += i;
          omp_unset_lock(&lock);
        }
      }
    }
  }
  omp_destroy_lock(&lock);
  printf("tasks %d total %g\n", 1 + (EXPECTED_TASKS - 1) * repeats, total);
  return 0;
}
