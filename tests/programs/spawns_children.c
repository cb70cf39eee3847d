// A program that starts other OpenMP programs (issue 23, item 4): it runs a parallel region,
// fork+execs itself twice as children that run at the same time, waits for both, runs another
// region and exits 3. Each child runs its own regions for about 0.1 s; argv[1] = "child" makes
// a process a child. The parent's exit status (3) must come out of ompscope unchanged.
//   spawns_children            the parent
//   spawns_children child N    one child (N: which, for its output)
//   spawns_children wait SECS  one region, then SECS seconds asleep outside any region (the
//                              signal tests send their signal then), then exit 0
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static double spin(long n) {
  double x = 0.0;
  for (long i = 0; i < n; ++i) x += 1.0 / (double)(i + 1);
  return x;
}

static double regions(int count, long work) {
  double sum = 0.0;
  for (int r = 0; r < count; ++r) {
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < 64; ++i) sum += spin(work);
  }
  return sum;
}

int main(int argc, char** argv) {
  if (argc > 2 && strcmp(argv[1], "child") == 0) {
    printf("child %s: sum=%.3f\n", argv[2], regions(20, 20000));
    return 0;
  }
  if (argc > 2 && strcmp(argv[1], "wait") == 0) {
    printf("waiting: sum=%.3f\n", regions(5, 2000));
    fflush(stdout);
    const int seconds = atoi(argv[2]);
    for (int s = 0; s < seconds * 10; ++s) usleep(100000);
    return 0;
  }
  double sum = regions(5, 2000);
  pid_t children[2];
  for (int c = 0; c < 2; ++c) {
    children[c] = fork();
    if (children[c] == 0) {
      char which[8];
      snprintf(which, sizeof which, "%d", c);
      execl("/proc/self/exe", argv[0], "child", which, (char*)NULL);
      _exit(127);
    }
  }
  for (int c = 0; c < 2; ++c) {
    int status = 0;
    waitpid(children[c], &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) printf("child %d failed: status %d\n", c, status);
  }
  sum += regions(5, 2000);
  printf("parent: sum=%.3f\n", sum);
  return 3;
}
