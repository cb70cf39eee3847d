// Prints the CPUs each of its threads may run on, after enough tasks that the capture's writer
// thread has started (under ompscope, with OMPSCOPE_CHUNK_KB at one page): one line per thread,
// "thread TID main|other CPUS", CPUS as /proc gives them (Cpus_allowed_list). Under OMP_PROC_BIND
// the OpenMP threads are bound; a thread the program did not create (the writer) must not be.
#include <dirent.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void) {
  long sum = 0;
  for (int r = 0; r < 200; ++r) {
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 1000; ++i) {
#pragma omp task shared(sum)
      __atomic_fetch_add(&sum, 1, __ATOMIC_RELAXED);
    }
  }
  DIR* tasks = opendir("/proc/self/task");
  if (tasks == NULL) return 1;
  for (struct dirent* e; (e = readdir(tasks)) != NULL;) {
    if (e->d_name[0] == '.') continue;
    char path[128], line[256];
    snprintf(path, sizeof path, "/proc/self/task/%s/status", e->d_name);
    FILE* status = fopen(path, "r");
    if (status == NULL) continue;
    while (fgets(line, sizeof line, status))
      if (strncmp(line, "Cpus_allowed_list:", 18) == 0)
        printf("thread %s %s %s", e->d_name, atoi(e->d_name) == getpid() ? "main" : "other", line + 18 + strspn(line + 18, " \t"));
    fclose(status);
  }
  closedir(tasks);
  printf("tasks run: %ld\n", sum);
  return 0;
}
