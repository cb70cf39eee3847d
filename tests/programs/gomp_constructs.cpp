// Every construct the libgomp interposer wraps, in one C++ program (firstprivate with a copy
// constructor makes GCC pass a copy function to GOMP_task; an over-aligned firstprivate array, task
// dependences, nest locks, sections, named critical, ordered, taskgroup): under the interposer it
// must print what it prints bare (tests/e2e: gcc_constructs).
#include <omp.h>
#include <cstdio>
#include <string>
#include <vector>
struct Big { std::vector<double> v; Big() : v(100, 1.0) {} Big(const Big& o) : v(o.v) {} };
int main() {
  // Each section updates its own counter: a nest lock and a named critical do not exclude each
  // other, so one shared counter would be a data race (it lost an update in 2 runs of 20).
  long total = 0, locked = 0, named = 0; double s = 0; Big b;
  omp_nest_lock_t nl; omp_init_nest_lock(&nl);
  alignas(64) double al[8] = {1,2,3,4,5,6,7,8};
#pragma omp parallel
  {
#pragma omp single
    for (int i = 0; i < 1000; ++i) {
#pragma omp task firstprivate(b, i) shared(s)
      {
#pragma omp atomic
        s += b.v[i % 100] * i;
      }
    }
#pragma omp for schedule(guided) reduction(+:total)
    for (int i = 0; i < 100000; ++i) total += i % 7;
#pragma omp sections
    {
#pragma omp section
      { omp_set_nest_lock(&nl); omp_set_nest_lock(&nl); locked += 1; omp_unset_nest_lock(&nl); omp_unset_nest_lock(&nl); }
#pragma omp section
      {
#pragma omp critical(named)
        named += 2;
      }
    }
#pragma omp for ordered schedule(dynamic)
    for (int i = 0; i < 100; ++i) {
#pragma omp ordered
      { total += i; }
    }
    int dep = 0;
#pragma omp single
    {
#pragma omp task depend(out:dep) firstprivate(al)
      { dep = (int)al[3]; }
#pragma omp task depend(in:dep)
      { total += dep; }
#pragma omp taskwait
    }
#pragma omp taskgroup
    {
#pragma omp task
      { long double x = 1; for (int k = 0; k < 1000; ++k) x *= 1.0001L; if (x < 0) total = 0; }
    }
  }
  printf("total=%ld s=%.1f\n", total + locked + named, s);
}
