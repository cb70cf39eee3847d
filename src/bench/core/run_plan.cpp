#include "bench/core/run_plan.h"

#include <sched.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ompscope::bench {

int available_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return std::max(1, CPU_COUNT(&set));
}

std::vector<int> default_thread_counts(int cores) {
  std::vector<int> counts{1, 2};
  for (int t = 4; t <= cores; t *= 2) counts.push_back(t);
  counts.push_back(std::max(cores, 1));
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  return counts;
}

double estimate_seconds_left(double elapsed_s, int runs_done, int runs_total) {
  if (runs_done <= 0) return -1;
  return elapsed_s / runs_done * std::max(0, runs_total - runs_done);
}

std::string format_duration(double seconds) {
  if (seconds < 0) return "?";
  const long s = std::lround(seconds);
  char text[32];
  if (s < 60)
    std::snprintf(text, sizeof text, "%lds", s);
  else
    std::snprintf(text, sizeof text, "%ldm%02lds", s / 60, s % 60);
  return text;
}

}  // namespace ompscope::bench
