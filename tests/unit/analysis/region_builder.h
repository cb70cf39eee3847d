// Hand-built region instances for the metric tests: times are plain seconds with small integer
// or binary-fraction values, so every expected figure is exact in floating point.
#pragma once
#include <vector>

#include "analysis/timeline.h"

namespace ompscope::analysis::testing {

inline SyncVisit visit(SyncKind kind, double arrive, double depart, bool follows_loop = false, double tasks = 0) {
  SyncVisit v;
  v.kind = kind;
  v.arrive = arrive;
  v.depart = depart;
  v.follows_loop = follows_loop;
  v.tasks = tasks;
  return v;
}
inline SyncVisit barrier(double arrive, double depart, bool follows_loop = false, double tasks = 0) {
  return visit(SyncKind::Barrier, arrive, depart, follows_loop, tasks);
}
inline SyncVisit join_barrier(double arrive, double depart, bool follows_loop = false, double tasks = 0) {
  return visit(SyncKind::JoinBarrier, arrive, depart, follows_loop, tasks);
}

inline ThreadInRegion member(uint32_t index, double start, double end, std::vector<SyncVisit> syncs,
                             double lock_wait = 0, double tasks_outside_syncs = 0) {
  ThreadInRegion p;
  p.thread = index;
  p.index = index;
  p.start = start;
  p.end = end;
  p.syncs = std::move(syncs);
  p.lock_wait = lock_wait;
  p.tasks_outside_syncs = tasks_outside_syncs;
  return p;
}

inline RegionInstance instance(uint32_t id, uint64_t codeptr, double begin, double end,
                               std::vector<ThreadInRegion> threads, uint32_t parent = 0) {
  RegionInstance r;
  r.parallel_id = id;
  r.codeptr = codeptr;
  r.begin = begin;
  r.end = end;
  r.parent_parallel_id = parent;
  r.team_size = static_cast<uint32_t>(threads.size());
  r.requested_threads = r.team_size;
  r.threads = std::move(threads);
  return r;
}

}  // namespace ompscope::analysis::testing
