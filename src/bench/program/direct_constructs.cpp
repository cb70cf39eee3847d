#include "bench/program/direct_constructs.h"

namespace ompscope::bench {
namespace {

// Loop iterations each thread gets in one `for` instance: four chunks of 16, bodies empty, so
// the cost is the schedule's and the closing barrier's.
constexpr int kForIterationsPerThread = 64;

volatile double g_sink = 0;

template <class Schedule>
DirectMeasurement measure_for(const TickClock& clock, const ThreadClockOffsets& offsets,
                              const DirectSettings& settings, Schedule schedule) {
  const int iterations = kForIterationsPerThread * static_cast<int>(offsets.offset.size());
  return measure_in_region(clock, offsets, settings, [&](int) { schedule(iterations); });
}

}  // namespace

DirectMeasurement measure_direct(Construct construct, const TickClock& clock,
                                 const ThreadClockOffsets& offsets, const DirectSettings& settings) {
  const int team = static_cast<int>(offsets.offset.size());
  switch (construct) {
    case Construct::Parallel:
      return measure_fork(clock, offsets, settings, [&](uint64_t& fork, std::vector<ThreadStamps>& stamps) {
        fork = clock.now();
#pragma omp parallel num_threads(team)
        stamps[static_cast<std::size_t>(omp_get_thread_num())].entry = clock.now();
      });
    case Construct::Firstprivate:
      return measure_fork(clock, offsets, settings, [&](uint64_t& fork, std::vector<ThreadStamps>& stamps) {
        double value = g_sink;
        fork = clock.now();
#pragma omp parallel num_threads(team) firstprivate(value)
        {
          stamps[static_cast<std::size_t>(omp_get_thread_num())].entry = clock.now();
          if (value < 0) g_sink = value;  // never true; keeps the copy alive
        }
      });
    case Construct::Reduction:
      return measure_join(clock, offsets, settings, [&](std::vector<ThreadStamps>& stamps, uint64_t& join) {
        double sum = 0;
#pragma omp parallel num_threads(team) reduction(+ : sum)
        {
          sum += 1;
          stamps[static_cast<std::size_t>(omp_get_thread_num())].exit = clock.now();
        }
        join = clock.now();
        g_sink = sum;
      });
    case Construct::Barrier:
      return measure_in_region(clock, offsets, settings, [](int) {
#pragma omp barrier
      });
    case Construct::Single:
      return measure_in_region(clock, offsets, settings, [](int) {
#pragma omp single
        g_sink = 1;
      });
    case Construct::ForStatic:
      return measure_for(clock, offsets, settings, [](int n) {
#pragma omp for schedule(static, 16)
        for (int i = 0; i < n; ++i) asm volatile("" : : "r"(i));
      });
    case Construct::ForDynamic:
      return measure_for(clock, offsets, settings, [](int n) {
#pragma omp for schedule(dynamic, 16)
        for (int i = 0; i < n; ++i) asm volatile("" : : "r"(i));
      });
    case Construct::ForGuided:
      return measure_for(clock, offsets, settings, [](int n) {
#pragma omp for schedule(guided, 16)
        for (int i = 0; i < n; ++i) asm volatile("" : : "r"(i));
      });
    case Construct::Critical:
      return measure_in_region(clock, offsets, settings, [](int) {
#pragma omp critical
        g_sink = g_sink + 1;
      });
    case Construct::Lock: {
      omp_lock_t lock;
      omp_init_lock(&lock);
      DirectMeasurement m = measure_in_region(clock, offsets, settings, [&](int) {
        omp_set_lock(&lock);
        omp_unset_lock(&lock);
      });
      omp_destroy_lock(&lock);
      return m;
    }
    case Construct::Atomic: {
      double shared = 0;
      DirectMeasurement m = measure_in_region(clock, offsets, settings, [&](int) {
#pragma omp atomic
        shared += 1.0;
      });
      g_sink = shared;
      return m;
    }
    case Construct::Task:
      return measure_in_region(clock, offsets, settings, [](int) {
#pragma omp task
        asm volatile("" ::: "memory");  // GCC drops a task whose body is empty
#pragma omp taskwait
      });
    case Construct::TaskTree:
      // A tree's tasks run wherever they are stolen: no instance starts on every thread at once,
      // which is what the direct method times (main.cpp skips it).
      return {};
  }
  return {};
}

}  // namespace ompscope::bench
