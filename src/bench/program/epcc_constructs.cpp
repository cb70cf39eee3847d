// Conventions: a test and its reference run the same delay work on every thread; they differ
// only by the construct. "inner" counts the instances each thread executes, except for
// critical and lock, where the instances serialise: there inner counts the team's instances
// (each thread runs inner / team), so the overhead is the wall time one instance adds.
#include "bench/program/epcc_constructs.h"

#include <omp.h>

#include <memory>

namespace ompscope::bench {
namespace {

// Loop iterations each thread gets in one `for` instance: four chunks of 16. Each iteration
// does an eighth of the delay, so one instance's work (and its noise) stays near the
// construct's own cost instead of dwarfing it.
constexpr int kForIterationsPerThread = 64;
constexpr double kForIterationShareOfDelay = 1.0 / 8;

// Results go here so the compiler must compute them.
volatile double g_sink = 0;

template <class Work>
double timed(const TickClock& clock, Work&& work) {
  const uint64_t start = clock.now();
  work();
  return clock.seconds(static_cast<double>(clock.now() - start));
}

double serial_delays(const TickClock& clock, const DelayWork& delay, int inner) {
  return timed(clock, [&] {
    for (int j = 0; j < inner; ++j) delay.run();
  });
}

// Every thread runs inner * per_instance delays inside one parallel region.
double team_delays(const TickClock& clock, const DelayWork& delay, int inner, int per_instance) {
  return timed(clock, [&] {
#pragma omp parallel
    for (int j = 0; j < inner; ++j)
      for (int k = 0; k < per_instance; ++k) delay.run();
  });
}

template <class Schedule>
double for_loop_test(const TickClock& clock, const DelayWork& delay, int inner, Schedule schedule) {
  return timed(clock, [&] {
#pragma omp parallel
    {
      const int iterations = kForIterationsPerThread * omp_get_num_threads();
      for (int j = 0; j < inner; ++j) schedule(iterations, delay);
    }
  });
}

// A binary tree of tasks, each creating two and waiting for them, its leaves empty: the shape of a
// recursive program without a cutoff (fib, nqueens). In a team of one every task runs at once in
// its creator; in a team its tasks are queued, stolen and waited for.
constexpr int kTreeDepth = 8;
constexpr int kTreeTasks = (2 << kTreeDepth) - 2;  // 510

void task_tree(int depth) {
  if (depth == 0) {
    asm volatile("" ::: "memory");
    return;
  }
#pragma omp task
  task_tree(depth - 1);
#pragma omp task
  task_tree(depth - 1);
#pragma omp taskwait
}

// `trees` trees one after another, started by one thread of a team of `team` threads (0: the
// default team); returns the team's thread time (elapsed × its size).
double tree_thread_time(const TickClock& clock, int trees, int team) {
  int size = 1;
  const double elapsed = timed(clock, [&] {
#pragma omp parallel num_threads(team > 0 ? team : omp_get_max_threads())
#pragma omp single
    {
      size = omp_get_num_threads();
      for (int k = 0; k < trees; ++k) task_tree(kTreeDepth);
    }
  });
  return elapsed * size;
}

}  // namespace

EpccCase epcc_case(Construct construct, const TickClock& clock, const DelayWork& delay) {
  const TickClock* ck = &clock;
  const DelayWork* dw = &delay;
  const int team = omp_get_max_threads();
  auto serial_reference = [ck, dw](int inner) { return serial_delays(*ck, *dw, inner); };
  auto team_reference = [ck, dw](int inner) { return team_delays(*ck, *dw, inner, 1); };

  switch (construct) {
    case Construct::Parallel:
      return {[ck, dw](int inner) {
                return timed(*ck, [&] {
                  for (int j = 0; j < inner; ++j) {
#pragma omp parallel
                    dw->run();
                  }
                });
              },
              serial_reference};
    case Construct::Firstprivate:
      return {[ck, dw](int inner) {
                return timed(*ck, [&] {
                  double value = g_sink;
                  for (int j = 0; j < inner; ++j) {
#pragma omp parallel firstprivate(value)
                    {
                      dw->run();
                      value += 1;
                      if (value < 0) g_sink = value;  // never true; keeps the copy alive
                    }
                  }
                });
              },
              serial_reference};
    case Construct::Reduction:
      return {[ck, dw](int inner) {
                return timed(*ck, [&] {
                  double sum = 0;
                  for (int j = 0; j < inner; ++j) {
#pragma omp parallel reduction(+ : sum)
                    {
                      dw->run();
                      sum += 1;
                    }
                  }
                  g_sink = sum;
                });
              },
              serial_reference};
    case Construct::Barrier:
      return {[ck, dw](int inner) {
                return timed(*ck, [&] {
#pragma omp parallel
                  for (int j = 0; j < inner; ++j) {
                    dw->run();
#pragma omp barrier
                  }
                });
              },
              team_reference};
    case Construct::Single:
      return {[ck, dw](int inner) {
                return timed(*ck, [&] {
#pragma omp parallel
                  for (int j = 0; j < inner; ++j) {
#pragma omp single
                    dw->run();
                  }
                });
              },
              team_reference};
    case Construct::ForStatic:
    case Construct::ForDynamic:
    case Construct::ForGuided: {
      // Owned by the returned functions: the caller keeps only `delay` alive.
      auto iteration = std::make_shared<const DelayWork>(delay.scaled(kForIterationShareOfDelay));
      auto reference = [ck, iteration](int inner) {
        return team_delays(*ck, *iteration, inner, kForIterationsPerThread);
      };
      if (construct == Construct::ForStatic)
        return {[ck, iteration](int inner) {
                  return for_loop_test(*ck, *iteration, inner, [](int n, const DelayWork& d) {
#pragma omp for schedule(static, 16)
                    for (int i = 0; i < n; ++i) d.run();
                  });
                },
                reference};
      if (construct == Construct::ForDynamic)
        return {[ck, iteration](int inner) {
                  return for_loop_test(*ck, *iteration, inner, [](int n, const DelayWork& d) {
#pragma omp for schedule(dynamic, 16)
                    for (int i = 0; i < n; ++i) d.run();
                  });
                },
                reference};
      return {[ck, iteration](int inner) {
                return for_loop_test(*ck, *iteration, inner, [](int n, const DelayWork& d) {
#pragma omp for schedule(guided, 16)
                  for (int i = 0; i < n; ++i) d.run();
                });
              },
              reference};
    }
    case Construct::Critical:
      return {[ck, dw](int inner) {
                return timed(*ck, [&] {
#pragma omp parallel
                  {
                    const int mine = inner / omp_get_num_threads();
                    for (int j = 0; j < mine; ++j) {
#pragma omp critical
                      dw->run();
                    }
                  }
                });
              },
              team_reference, team};
    case Construct::Lock:
      return {[ck, dw](int inner) {
                omp_lock_t lock;
                omp_init_lock(&lock);
                const double elapsed = timed(*ck, [&] {
#pragma omp parallel
                  {
                    const int mine = inner / omp_get_num_threads();
                    for (int j = 0; j < mine; ++j) {
                      omp_set_lock(&lock);
                      dw->run();
                      omp_unset_lock(&lock);
                    }
                  }
                });
                omp_destroy_lock(&lock);
                return elapsed;
              },
              team_reference, team};
    case Construct::Atomic:
      return {[ck, dw](int inner) {
                double shared = 0;
                const double elapsed = timed(*ck, [&] {
#pragma omp parallel
                  for (int j = 0; j < inner; ++j) {
                    dw->run();
#pragma omp atomic
                    shared += 1.0;
                  }
                });
                g_sink = shared;
                return elapsed;
              },
              team_reference};
    case Construct::Task:
      return {[ck, dw](int inner) {
                return timed(*ck, [&] {
#pragma omp parallel
                  for (int j = 0; j < inner; ++j) {
                    dw->run();
#pragma omp task
                    asm volatile("" ::: "memory");  // GCC drops a task whose body is empty
#pragma omp taskwait
                  }
                });
              },
              team_reference};
    case Construct::TaskTree:
      // inner counts tasks, a whole number of trees. The test is the team's thread time, the
      // reference the same trees' in a team of one: their difference per task is what running
      // a recursive tree's tasks deferred (queued, stolen, waited for) costs beyond running each
      // at once in its creator, the cost the replay of a graph recorded at one thread lacks
      // (docs/tasks.md, "Replay").
      return {[ck](int inner) { return tree_thread_time(*ck, inner / kTreeTasks, 0); },
              [ck](int inner) { return tree_thread_time(*ck, inner / kTreeTasks, 1); }, kTreeTasks};
  }
  return {};
}

}  // namespace ompscope::bench
