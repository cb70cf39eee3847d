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
  // The split's invariants: every part >= 0, and work + barrier wait + lock wait + fork/join is
  // the region's time (task time is inside work). Measured intervals keep them by construction;
  // the bounds below hold them where an estimate could reach past what was measured: lock wait
  // scaled from sampled operations (build_timeline), lock waits inside tasks (in both task time
  // and lock wait).
  const double region_s = std::max(0.0, region.end - region.begin);
  const double inside = std::clamp(part.end - part.start, 0.0, region_s);
  s.barrier_wait_s = std::clamp(waiting, 0.0, inside);
  s.lock_wait_s = std::clamp(part.lock_wait, 0.0, inside - s.barrier_wait_s);
  // MPI calls in the region (MPI_THREAD_MULTIPLE, FUNNELED from the master) are the thread's MPI
  // time, not its work (docs/mpi.md, "MPI inside parallel regions").
  s.mpi_s = std::clamp(part.mpi, 0.0, inside - s.barrier_wait_s - s.lock_wait_s);
  s.work_s = inside - s.barrier_wait_s - s.lock_wait_s - s.mpi_s;
  s.task_s = std::clamp(tasks, 0.0, s.work_s);
  s.tasks = static_cast<double>(part.tasks_completed);
  s.fork_join_s = region_s - inside;
  s.usage = part.usage();
  s.task_usage = part.task_visits().usage;
  s.task_usage_tasks_s = part.task_visits().tasks_s;
  return s;
}

ThreadSplit& operator+=(ThreadSplit& into, const ThreadSplit& s) {
  into.work_s += s.work_s;
  into.task_s += s.task_s;
  into.barrier_wait_s += s.barrier_wait_s;
  into.lock_wait_s += s.lock_wait_s;
  into.fork_join_s += s.fork_join_s;
  into.outside_s += s.outside_s;
  into.tasks += s.tasks;
  into.usage += s.usage;
  into.mpi_s += s.mpi_s;
  into.task_usage += s.task_usage;
  into.task_usage_tasks_s += s.task_usage_tasks_s;
  return into;
}

ThreadSplit operator*(ThreadSplit s, double f) {
  s.work_s *= f;
  s.task_s *= f;
  s.barrier_wait_s *= f;
  s.lock_wait_s *= f;
  s.fork_join_s *= f;
  s.outside_s *= f;
  s.tasks *= f;
  s.usage = s.usage * f;
  s.mpi_s *= f;
  s.task_usage = s.task_usage * f;
  s.task_usage_tasks_s *= f;
  return s;
}

// A recorded instance this many times longer than the typical one was delayed once (preempted, a
// page-fault storm): left out of what light instances are split like.
constexpr double kOneOffDelay = 10;

bool represents_light(const RegionProfile& p, const RegionInstance& r) {
  return !r.light && p.typical && r.end > r.begin && r.end - r.begin <= kOneOffDelay * (p.typical->end - p.typical->begin);
}

const RegionInstance* typical_instance(std::vector<const RegionInstance*> recorded) {
  std::erase_if(recorded, [](const RegionInstance* r) { return !(r->end > r->begin); });
  if (recorded.empty()) return nullptr;
  auto mid = recorded.begin() + static_cast<std::ptrdiff_t>(recorded.size() / 2);
  std::nth_element(recorded.begin(), mid, recorded.end(), [](const RegionInstance* a, const RegionInstance* b) {
    return a->end - a->begin < b->end - b->begin;
  });
  return *mid;
}

namespace {

// How much of [begin, end] the top-level region instances cover. `top` holds their intervals,
// ordered by begin; top-level instances of one process do not overlap.
double overlap_with(const std::vector<std::pair<double, double>>& top, double begin, double end) {
  auto it = std::upper_bound(top.begin(), top.end(), std::make_pair(begin, begin));
  if (it != top.begin()) --it;
  double covered = 0;
  for (; it != top.end() && it->first < end; ++it) covered += std::max(0.0, std::min(end, it->second) - std::max(begin, it->first));
  return covered;
}

// The wall time of [begin, end) in none of `busy` (sorted, possibly overlapping).
double uncovered(const std::vector<std::pair<double, double>>& busy, double begin, double end) {
  double covered = 0, reach = begin;
  for (const auto& [b, e] : busy) {
    if (e <= reach) continue;
    if (b >= end) break;
    const double from = std::max(b, reach), to = std::min(e, end);
    if (to > from) covered += to - from;
    reach = std::max(reach, to);
  }
  return std::max(0.0, end - begin - covered);
}

}  // namespace

SerialSplit serial_split(const std::vector<SerialReading>& readings, double start,
                         const std::vector<std::pair<double, double>>& busy) {
  SerialSplit out;
  if (readings.empty()) return out;
  out.read = true;
  SerialReading last{start, 0, 0};
  for (const SerialReading& r : readings) {
    const double wall = r.time - last.time;
    if (wall > 0) {
      const double off = std::max(0.0, wall - std::max(0.0, r.cpu_s - last.cpu_s));
      const double queued = r.run_delay_s >= 0 && last.run_delay_s >= 0
                                ? std::clamp(r.run_delay_s - last.run_delay_s, 0.0, off) : 0.0;
      const double serial = uncovered(busy, last.time, r.time);
      const double blocked = std::min(off - queued, serial);
      out.blocked_s += blocked;
      out.runqueue_s += std::min(queued, serial - blocked);
      // What the stretch waited for, where both ends carry the kernel's counts (the process's
      // start reads 0 for them too). Counters are 32-bit: differences modulo their width.
      if (r.waits_read && (last.waits_read || &r == &readings.front())) {
        out.waits.read = true;
        const uint32_t io = r.block_io - (last.waits_read ? last.block_io : 0u);
        if (blocked > 0 && r.children_cpu_s > (last.waits_read ? last.children_cpu_s : 0.0))
          out.waits.child_s += blocked;
        else if (blocked > 0 && io > 0)
          out.waits.io_s += blocked, out.waits.io_operations += io;
      }
    }
    last = r;
  }
  return out;
}

ProgramProfile profile_program(const Timeline& timeline) {
  ProgramProfile out;
  // The stretches the program paused the tool in are none of its time (omp_control_tool).
  double paused = 0;
  for (const auto& [from, to] : timeline.paused) paused += to - from;
  out.wall_s = std::max(0.0, timeline.end - timeline.start - paused);
  std::unordered_map<uint64_t, size_t> by_callsite;
  std::unordered_map<uint32_t, size_t> program_thread;
  std::unordered_map<uint32_t, double> in_top_regions;  // per log thread
  // Light (sampled-out) instances are split among threads as their callsite's recorded ones were,
  // in proportion to time: the recorded instances' splits summed, times the light time over the
  // recorded time, leaving out a recorded instance longer than kOneOffDelay times the typical
  // one's (typical_instance: a one-off delay is not extrapolated). One typical instance scaled to
  // the light time stood for all of them before: where instances are of two kinds (beside a
  // competing process, the worker woken late in many, its fork/join then most of the instance)
  // it was one kind or the other, and the sampled run's worker waited 14–17% of the region
  // against 38–48% recorded in full.
  std::unordered_map<uint64_t, std::vector<const RegionInstance*>> recorded;
  std::unordered_map<uint64_t, double> light_top_level_s;
  for (const ThreadSummary& t : timeline.threads) {
    program_thread[t.thread] = out.threads.size();
    out.threads.push_back(ThreadSplit{.thread = t.thread});
  }
  for (const RegionInstance& r : timeline.regions) {
    auto [it, inserted] = by_callsite.try_emplace(r.site(), out.regions.size());
    if (inserted) {
      out.regions.push_back(RegionProfile{});
      out.regions.back().codeptr = r.codeptr;
      out.regions.back().body = r.body;
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
        p.per_thread.push_back(ThreadSplit{.thread = static_cast<uint32_t>(i)});
    }
    const bool top_level = r.parent_parallel_id == 0;
    if (top_level) out.in_regions_s += r.end - r.begin;
    if (r.light) {
      p.light_time_s += r.end - r.begin;
      if (top_level) light_top_level_s[r.site()] += r.end - r.begin;
      continue;
    }
    recorded[r.site()].push_back(&r);
    double faults = 0;
    bool read = false;
    for (size_t i = 0; i < r.threads.size(); ++i) {
      ThreadSplit s = split_thread_time(r, r.threads[i]);
      s.thread = static_cast<uint32_t>(i);
      faults += s.usage.minor_faults + s.usage.major_faults;
      read = read || s.usage.wall_s > 0;
      p.per_thread[i] += s;
      if (top_level) {
        auto t = program_thread.find(r.threads[i].thread);
        if (t == program_thread.end()) continue;
        out.threads[t->second] += s;
        in_top_regions[r.threads[i].thread] += r.end - r.begin;
      }
    }
    if (read) {
      if (p.faults_read_instances++ == 0) p.first_faults_read = faults;
      p.faults_read += faults;
    }
  }
  for (RegionProfile& p : out.regions) {
    if (p.light_time_s <= 0) continue;
    p.typical = typical_instance(recorded[p.site()]);  // what a one-off delay is measured against
    if (!p.typical) continue;
    std::vector<ThreadSplit> split(p.per_thread.size());       // by index in the team
    std::unordered_map<uint32_t, ThreadSplit> split_of_thread;  // by log thread
    double time = 0;
    for (const RegionInstance* r : recorded[p.site()]) {
      if (!represents_light(p, *r)) continue;
      time += r->end - r->begin;
      for (size_t i = 0; i < r->threads.size() && i < split.size(); ++i) {
        const ThreadSplit s = split_thread_time(*r, r->threads[i]);
        split[i] += s;
        split_of_thread[r->threads[i].thread] += s;
      }
    }
    if (!(time > 0)) continue;
    for (size_t i = 0; i < split.size(); ++i) p.per_thread[i] += split[i] * (p.light_time_s / time);
    const double top = light_top_level_s[p.site()];
    if (top <= 0) continue;
    for (const auto& [log_thread, s] : split_of_thread) {
      auto t = program_thread.find(log_thread);
      if (t == program_thread.end()) continue;
      out.threads[t->second] += s * (top / time);
      in_top_regions[log_thread] += top;
    }
  }
  // MPI calls outside the top-level regions are MPI time, not serial code (docs/mpi.md); inside a
  // region (MPI_THREAD_MULTIPLE) they are already the thread's MPI time in its region splits.
  std::vector<std::pair<double, double>> top;
  for (const RegionInstance& r : timeline.regions)
    if (r.parent_parallel_id == 0) top.emplace_back(r.begin, r.end);
  // In order already (the timeline's instances are by begin) but where two begin together: sorting
  // 416 667 sorted pairs again was 2% of a loop log's analyses.
  if (!std::is_sorted(top.begin(), top.end())) std::sort(top.begin(), top.end());
  std::unordered_map<uint32_t, double> mpi_outside;
  for (const MpiInterval& m : timeline.mpi) mpi_outside[m.thread] += (m.end - m.begin) - overlap_with(top, m.begin, m.end);
  out.mpi_s = mpi_outside.count(0) ? mpi_outside[0] : 0.0;  // log thread 0: the initial thread
  out.serial_s = std::max(0.0, out.wall_s - out.in_regions_s - out.mpi_s);
  if (!timeline.serial_usage.empty()) {
    std::vector<std::pair<double, double>> busy = top;  // the initial thread's time that is not serial code
    for (const MpiInterval& m : timeline.mpi)
      if (m.thread == 0) busy.emplace_back(m.begin, m.end);
    busy.insert(busy.end(), timeline.paused.begin(), timeline.paused.end());
    if (!std::is_sorted(busy.begin(), busy.end())) std::sort(busy.begin(), busy.end());
    const SerialSplit split = serial_split(timeline.serial_usage, timeline.start, busy);
    out.serial_usage_read = split.read;
    out.serial_blocked_s = std::min(out.serial_s, split.blocked_s);
    out.serial_runqueue_s = std::min(out.serial_s - out.serial_blocked_s, split.runqueue_s);
    out.serial_waits = split.waits;
    // Its parts within the time blocked that serial time keeps (blocked_s is capped at serial_s).
    const double scale = split.blocked_s > 0 ? out.serial_blocked_s / split.blocked_s : 0.0;
    out.serial_waits.child_s *= scale;
    out.serial_waits.io_s *= scale;
  }
  for (ThreadSplit& t : out.threads) {
    const double outside_mpi = mpi_outside.count(t.thread) ? mpi_outside[t.thread] : 0.0;
    t.mpi_s += outside_mpi;
    t.outside_s = std::max(0.0, out.wall_s - in_top_regions[t.thread] - outside_mpi);
  }
  return out;
}

}  // namespace ompscope::analysis
