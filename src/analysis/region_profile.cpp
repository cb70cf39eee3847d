#include "analysis/region_profile.h"

#include <algorithm>
#include <unordered_map>

namespace ompscope::analysis {

ThreadSplit split_thread_time(const RegionInstance& region, const ThreadInRegion& part) {
  ThreadSplit s;
  s.thread = part.index;
  double waiting = 0, tasks = part.tasks_outside_syncs;
  for (const SyncVisit& v : part.syncs) {
    // A nested visit's time is already inside its enclosing visit (as task time or waiting).
    if (v.kind == SyncKind::Other || v.nested) continue;
    waiting += (v.depart - v.arrive) - v.tasks;
    tasks += v.tasks;
  }
  const double inside = part.end - part.start;
  s.barrier_wait_s = waiting;
  s.lock_wait_s = part.lock_wait;
  s.task_s = tasks;
  s.work_s = inside - waiting - part.lock_wait;
  s.fork_join_s = (region.end - region.begin) - inside;
  return s;
}

ThreadSplit& operator+=(ThreadSplit& into, const ThreadSplit& s) {
  into.work_s += s.work_s;
  into.task_s += s.task_s;
  into.barrier_wait_s += s.barrier_wait_s;
  into.lock_wait_s += s.lock_wait_s;
  into.fork_join_s += s.fork_join_s;
  into.outside_s += s.outside_s;
  return into;
}

ThreadSplit operator*(ThreadSplit s, double f) {
  s.work_s *= f;
  s.task_s *= f;
  s.barrier_wait_s *= f;
  s.lock_wait_s *= f;
  s.fork_join_s *= f;
  s.outside_s *= f;
  return s;
}

ProgramProfile profile_program(const Timeline& timeline) {
  ProgramProfile out;
  out.wall_s = timeline.end - timeline.start;
  std::unordered_map<uint64_t, size_t> by_callsite;
  std::unordered_map<uint32_t, size_t> program_thread;
  std::unordered_map<uint32_t, double> in_top_regions;  // per log thread
  // A light (sampled-out) instance is split among threads like the last recorded instance of
  // its callsite, scaled to its length.
  std::unordered_map<uint64_t, const RegionInstance*> last_recorded;
  for (const ThreadSummary& t : timeline.threads) {
    program_thread[t.thread] = out.threads.size();
    out.threads.push_back(ThreadSplit{t.thread});
  }
  for (const RegionInstance& r : timeline.regions) {
    auto [it, inserted] = by_callsite.try_emplace(r.codeptr, out.regions.size());
    if (inserted) {
      out.regions.push_back(RegionProfile{});
      out.regions.back().codeptr = r.codeptr;
    }
    RegionProfile& p = out.regions[it->second];
    ++p.instances;
    p.time_s += r.end - r.begin;
    if (!r.light) {
      ++p.recorded_instances;
      p.recorded_time_s += r.end - r.begin;
    }
    p.max_team_size = std::max(p.max_team_size, r.team_size);
    p.nested = p.nested || r.parent_parallel_id != 0;
    p.complete = p.complete && r.complete;
    if (p.per_thread.size() < r.threads.size()) {
      for (size_t i = p.per_thread.size(); i < r.threads.size(); ++i)
        p.per_thread.push_back(ThreadSplit{static_cast<uint32_t>(i)});
    }
    const bool top_level = r.parent_parallel_id == 0;
    if (top_level) out.in_regions_s += r.end - r.begin;
    if (r.light) {
      auto model = last_recorded.find(r.codeptr);
      if (!top_level || model == last_recorded.end()) continue;
      const RegionInstance& m = *model->second;
      const double f = m.end > m.begin ? (r.end - r.begin) / (m.end - m.begin) : 0.0;
      for (const ThreadInRegion& part : m.threads) {
        auto t = program_thread.find(part.thread);
        if (t == program_thread.end()) continue;
        out.threads[t->second] += split_thread_time(m, part) * f;
        in_top_regions[part.thread] += r.end - r.begin;
      }
      continue;
    }
    last_recorded[r.codeptr] = &r;
    for (size_t i = 0; i < r.threads.size(); ++i) {
      ThreadSplit s = split_thread_time(r, r.threads[i]);
      s.thread = static_cast<uint32_t>(i);
      p.per_thread[i] += s;
      if (top_level) {
        auto t = program_thread.find(r.threads[i].thread);
        if (t == program_thread.end()) continue;
        out.threads[t->second] += s;
        in_top_regions[r.threads[i].thread] += r.end - r.begin;
      }
    }
  }
  out.serial_s = std::max(0.0, out.wall_s - out.in_regions_s);
  for (ThreadSplit& t : out.threads) t.outside_s = std::max(0.0, out.wall_s - in_top_regions[t.thread]);
  return out;
}

}  // namespace ompscope::analysis
