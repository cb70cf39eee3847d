// A small run built by hand: one parallel region of two threads; the master creates a task
// that the worker runs inside the join barrier; the master runs a loop with a critical section.
// Times are in µs (converted to the Timeline's seconds).
#pragma once
#include <fmt/format.h>
#include <omp-tools.h>

#include "analysis/timeline.h"
#include "analysis/build_trace_model.h"

namespace ompscope::trace_test {

inline double us(double v) { return v * 1e-6; }

inline analysis::Timeline two_thread_run() {
  analysis::Timeline t;
  t.start = 0;
  t.end = us(21);
  t.threads = {{0, us(0.5), us(21)}, {1, us(2), us(20)}};

  analysis::RegionInstance r;
  r.parallel_id = 1;
  r.codeptr = 0x100;
  r.requested_threads = 2;
  r.team_size = 2;
  r.master_thread = 0;
  r.begin = us(1);
  r.end = us(20);
  analysis::ThreadInRegion m;
  m.thread = 0;
  m.index = 0;
  m.start = us(1.5);
  m.end = us(19.5);
  m.syncs.push_back({.kind = analysis::SyncKind::JoinBarrier, .follows_loop = true, .arrive = us(15), .depart = us(19.5)});
  analysis::ThreadInRegion w;
  w.thread = 1;
  w.index = 1;
  w.start = us(2);
  w.end = us(20);
  w.syncs.push_back({.kind = analysis::SyncKind::JoinBarrier, .arrive = us(4), .depart = us(20), .tasks = us(7)});
  r.threads = {m, w};
  t.regions.push_back(r);

  analysis::LockAcquisition lock;
  lock.thread = 0;
  lock.wait_id = 0xdead;
  lock.codeptr = 0x300;
  lock.mutex_kind = ompt_mutex_critical;
  lock.parallel_id = 1;
  lock.request = us(13);
  lock.acquired = us(13.5);
  lock.released = us(14);
  t.locks.push_back(lock);

  analysis::TaskInstance task;
  task.id = 7;
  task.parent = 3;
  task.parallel_id = 1;
  task.creator_thread = 0;
  task.codeptr = 0x200;
  task.flags = ompt_task_explicit;
  task.created = us(3);
  task.completed = us(12);
  task.fragments = {{1, us(5), us(12)}};
  t.tasks.push_back(task);
  return t;
}

inline std::vector<analysis::WorkSpan> two_thread_work() {
  return {{0, ompt_work_loop, 0x400, us(6), us(14.5)}};
}

inline analysis::Timeline with_work(analysis::Timeline t, std::vector<analysis::WorkSpan> work) {
  t.work = std::move(work);
  return t;
}

inline analysis::Callsite name_of(uint64_t codeptr, bool = false) {
  switch (codeptr) {
    case 0x100: return {"main@t.c:10", "main", "t.c", 10};
    case 0x200: return {"work@t.c:20", "work", "t.c", 20};
    case 0x300: return {"main@t.c:30", "main", "t.c", 30};
    case 0x400: return {"main@t.c:40", "main", "t.c", 40};
    default: return {fmt::format("0x{:x}", codeptr), "", "", 0};
  }
}

inline analysis::TraceModel two_thread_model() {
  return analysis::build_trace_model(with_work(two_thread_run(), two_thread_work()), name_of, 42, 1'000'000);
}

}  // namespace ompscope::trace_test
