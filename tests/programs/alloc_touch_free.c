// Designed pathology: a balanced loop whose every iteration allocates a buffer larger than
// glibc's largest mmap threshold (32 MiB: below it, glibc raises the threshold after the first
// free and keeps the memory), touches each page, and frees it. Each buffer comes fresh from the
// kernel (mmap), every page of it faults on first touch and is zeroed, and munmap gives it back:
// at 2 threads the faults of both threads contend in the kernel (the process's memory map), so
// the team's work grows, most of it kernel time in page faults. The iterations are handed out
// one at a time: on an AMD EPYC VM whose two vCPUs are two cores, one of them zeroed pages
// slower than the other, and a static split of 8 iterations left that thread 12-20 ms behind at
// the barrier (load imbalance, the machine's, beside the inflation this program is about).
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int iterations = 24;
  const size_t bytes = 36u << 20;
  double sum = 0;
  for (int r = 0; r < 2; ++r) {
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : sum)
    for (int i = 0; i < iterations; ++i) {
      char* buffer = malloc(bytes);
      for (size_t b = 0; b < bytes; b += 4096) buffer[b] = (char)(b + i);
      sum += buffer[(size_t)i * 4096 % bytes];
      free(buffer);
    }
  }
  printf("sum=%.0f\n", sum);
  return 0;
}
