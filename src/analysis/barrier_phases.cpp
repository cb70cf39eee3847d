#include "analysis/barrier_phases.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

#include "common/scratch.h"

namespace ompscope::analysis {
namespace {

bool is_barrier(const SyncVisit& v) { return v.kind == SyncKind::Barrier || v.kind == SyncKind::JoinBarrier; }

// One instance's working lists, kept by the thread from instance to instance: made anew, they were
// a few allocations an instance, millions for a loop log's (416 667 instances).
struct InstanceScratch {
  std::vector<std::vector<const SyncVisit*>> barriers;  // each thread's, in order
  std::vector<double> segment_start, cpus, squares;
};

// Each thread's barrier visits into `out` (its first region.threads.size() lists).
void barriers_by_thread(const RegionInstance& region, std::vector<std::vector<const SyncVisit*>>& out) {
  if (out.size() < region.threads.size()) out.resize(region.threads.size());
  for (size_t k = 0; k < region.threads.size(); ++k) {
    out[k].clear();
    for (const SyncVisit& v : region.threads[k].syncs)
      if (is_barrier(v)) out[k].push_back(&v);
  }
}

}  // namespace

void PositionSums::clear() {
  at_.clear();
  cpu_.clear();
  squared_.clear();
  stride_ = 0;
}

PositionSums::View PositionSums::operator[](size_t row) const {
  const At& a = at_[row];
  return {a.position, a.instances, std::span<const double>(cpu_.data() + row * stride_, a.threads),
          std::span<const double>(squared_.data() + row * stride_, a.threads), a.cpu_imbalance_s};
}

// Rows as wide as `threads`, laid out again where a wider team comes. An empty one (cleared) only
// widens its stride, so that its arrays' memory serves again.
void PositionSums::widen(size_t threads) {
  if (threads <= stride_) return;
  if (!at_.empty()) {
    std::vector<double> cpu(at_.size() * threads), squared(at_.size() * threads);
    for (size_t r = 0; r < at_.size(); ++r)
      for (size_t k = 0; k < at_[r].threads; ++k) {
        cpu[r * threads + k] = cpu_[r * stride_ + k];
        squared[r * threads + k] = squared_[r * stride_ + k];
      }
    cpu_ = std::move(cpu);
    squared_ = std::move(squared);
  }
  stride_ = threads;
}

size_t PositionSums::row_of(size_t b) {
  // Positions come in order (an instance's barriers, a sum's rows): most often after the last.
  if (!at_.empty() && at_.back().position == b) return at_.size() - 1;
  size_t row = at_.size();
  if (!at_.empty() && at_.back().position > b) {
    row = static_cast<size_t>(std::lower_bound(at_.begin(), at_.end(), b, [](const At& a, size_t p) {
                                return a.position < p;
                              }) - at_.begin());
    if (at_[row].position == b) return row;
  }
  at_.insert(at_.begin() + static_cast<std::ptrdiff_t>(row), At{.position = b});
  cpu_.insert(cpu_.begin() + static_cast<std::ptrdiff_t>(row * stride_), stride_, 0.0);
  squared_.insert(squared_.begin() + static_cast<std::ptrdiff_t>(row * stride_), stride_, 0.0);
  return row;
}

void PositionSums::add(size_t b, double instances, double cpu_imbalance_s, std::span<const double> cpu,
                       std::span<const double> cpu_squared) {
  widen(cpu.size());
  const size_t row = row_of(b);
  At& a = at_[row];
  a.threads = std::max(a.threads, cpu.size());
  double* to = cpu_.data() + row * stride_;
  double* to_squared = squared_.data() + row * stride_;
  for (size_t k = 0; k < cpu.size(); ++k) {
    to[k] += cpu[k];
    to_squared[k] += cpu_squared[k];
  }
  a.instances += instances;
  a.cpu_imbalance_s += cpu_imbalance_s;
}

void PositionSums::add(const PositionSums& o) {
  if (o.empty()) return;
  widen(o.stride_);
  for (size_t r = 0; r < o.size(); ++r) {
    const View from = o[r];
    add(from.position, from.instances, from.cpu_imbalance_s, from.cpu, from.cpu_squared);
  }
}

void PositionSums::add(PositionSums&& o) {
  if (!empty()) return add(o);
  *this = std::move(o);
  o.clear();
}

BarrierPhases barrier_phases(const RegionInstance& region, const std::function<void(const BarrierPhases& one)>& each) {
  BarrierPhases out;
  const size_t n = region.threads.size();
  if (n == 0) return out;
  double last_start = region.begin;
  bool creates_threads = false;
  for (const ThreadInRegion& t : region.threads) {
    last_start = std::max(last_start, t.start);
    creates_threads = creates_threads || t.thread_begin >= region.begin;
  }
  // The master too waits for the threads being created before it starts its implicit task.
  if (creates_threads) {
    out.team_creation_s = last_start - region.begin;
  } else {
    // A thread switched out just before its part (another process held its CPU: its
    // start_off_cpu_s) starts it late: that wait is the machine's, with the barriers' waits for
    // switched-out threads, never the runtime's fork (a busy loop beside false_sharing: a fork of
    // 1.6 ms per instance ranked first over the time off the CPU, once in three suites).
    // Each thread's share is capped by its own delay, so the most of them never exceeds the fork.
    double off = 0;
    for (const ThreadInRegion& t : region.threads)
      off = std::max(off, std::min(static_cast<double>(t.start_off_cpu_s), std::max(0.0, t.start - region.begin)));
    out.fork_s = last_start - region.begin - off;
    out.descheduled_s += off;
  }

  thread_local InstanceScratch scratch;
  const std::vector<std::vector<const SyncVisit*>>& visits = scratch.barriers;
  barriers_by_thread(region, scratch.barriers);
  size_t count = visits[0].size();
  for (size_t k = 0; k < n; ++k) count = std::min(count, visits[k].size());

  std::vector<double>& segment_start = scratch.segment_start;
  segment_start.resize(n);
  for (size_t k = 0; k < n; ++k) segment_start[k] = region.threads[k].start;
  constexpr double inf = std::numeric_limits<double>::infinity();
  // A barrier's threads' CPU times, and what it adds for its construct: made once per instance
  // and refilled at each barrier (a region of 100 000 barriers allocated them at each).
  std::vector<double>& cpus = scratch.cpus;
  std::vector<double>& squares = scratch.squares;
  cpus.assign(n, 0.0);
  squares.assign(n, 0.0);
  BarrierPhases one;
  for (size_t b = 0; b < count; ++b) {
    double max_w = -inf, sum_w = 0, last_arrive = -inf, first_depart = inf, last_depart = -inf;
    double max_cpu = -inf, sum_cpu = 0;
    const size_t position = b;
    uint32_t iterations = 0;
    uint8_t schedule = 0;
    bool join = false, after_loop = false, tasks = false, cpu_read = true;
    for (size_t k = 0; k < n; ++k) {
      const SyncVisit& v = *visits[k][b];
      // A thread's MPI calls in the segment are neither its work nor its imbalance (docs/mpi.md):
      // they leave its wall time and its CPU time (MPI libraries poll while they wait).
      const SegmentReadings& read = v.readings();
      const double w = std::max(0.0, v.arrive - segment_start[k] - read.mpi);
      max_w = std::max(max_w, w);
      sum_w += w;
      last_arrive = std::max(last_arrive, v.arrive);
      first_depart = std::min(first_depart, v.depart);
      last_depart = std::max(last_depart, v.depart);
      join = join || v.kind == SyncKind::JoinBarrier;
      after_loop = after_loop || v.follows_loop;
      iterations = std::max(iterations, v.loop_iterations);
      schedule = std::max(schedule, v.loop_schedule);
      tasks = tasks || v.tasks > 0;
      cpu_read = cpu_read && read.cpu >= 0;
      const double cpu = read.cpu >= 0 ? std::max(0.0, read.cpu - read.mpi) : read.cpu;
      max_cpu = std::max(max_cpu, cpu);
      sum_cpu += cpu;
      segment_start[k] = v.depart;
    }
    ++out.barriers;
    // What this barrier adds, for the caller that charges each barrier to its construct.
    // The sums before it; its per-position sums stay out of the copy, which at each barrier of a
    // region with 100 000 of them would make the analysis quadratic (it ran for minutes).
    BarrierPhases before;
    {
      PositionSums positions = std::move(out.positions);
      before = out;
      out.positions = std::move(positions);
    }
    // This barrier's CPU times alone, for the construct that owns it: a construct's barriers
    // pooled as one position (with a static schedule a thread runs the same iterations at each
    // visit of one loop, so the same threads stay the slow ones), so that its own diagnosis can
    // tell a loop whose iterations differ in cost from one whose slow thread moves.
    double alone_imbalance = -1;  // < 0: its CPU times were not read
    const auto record = [&] {
      if (!each) return;
      one.positions.clear();
      if (alone_imbalance >= 0) one.positions.add(0, 1, alone_imbalance, cpus, squares);
      one.imbalance_s = out.imbalance_s - before.imbalance_s;
      one.measured_imbalance_s = out.measured_imbalance_s - before.measured_imbalance_s;
      one.cpu_imbalance_s = out.cpu_imbalance_s - before.cpu_imbalance_s;
      one.loop_iterations = out.loop_iterations - before.loop_iterations;
      one.loop_work_s = out.loop_work_s - before.loop_work_s;
      one.measured_loop_work_s = out.measured_loop_work_s - before.measured_loop_work_s;
      one.loops_with_iterations = out.loops_with_iterations - before.loops_with_iterations;
      one.indivisible_s = out.indivisible_s - before.indivisible_s;
      one.walkthrough_s = out.walkthrough_s - before.walkthrough_s;
      one.startup_s = out.startup_s - before.startup_s;
      one.descheduled_s = out.descheduled_s - before.descheduled_s;
      one.join_s = out.join_s - before.join_s;
      one.barriers = 1;
      one.imbalanced_after_loop = out.imbalanced_after_loop - before.imbalanced_after_loop;
      one.imbalanced_after_dynamic = out.imbalanced_after_dynamic - before.imbalanced_after_dynamic;
      one.imbalanced_after_guided = out.imbalanced_after_guided - before.imbalanced_after_guided;
      one.skipped_with_tasks = out.skipped_with_tasks - before.skipped_with_tasks;
      each(one);
    };
    if (tasks) {
      // Arrival times say little when threads execute tasks in the barrier.
      ++out.skipped_with_tasks;
      if (join) out.join_s += std::max(0.0, region.end - last_depart);
      record();
      continue;
    }
    const double imbalance = max_w - sum_w / static_cast<double>(n);
    out.imbalance_s += imbalance;
    if (cpu_read) {
      const double cpu_imbalance =
          std::clamp(max_cpu - sum_cpu / static_cast<double>(n), 0.0, std::max(0.0, imbalance));
      out.measured_imbalance_s += imbalance;
      out.cpu_imbalance_s += cpu_imbalance;
      for (size_t k = 0; k < n; ++k) {
        const SegmentReadings& read = visits[k][b]->readings();
        const double cpu = std::max(0.0, read.cpu - read.mpi);
        cpus[k] = cpu;
        squares[k] = cpu * cpu;
      }
      out.positions.add(position, 1, cpu_imbalance, cpus, squares);
      alone_imbalance = cpu_imbalance;
    }
    if (imbalance > 0 && after_loop) {
      ++out.imbalanced_after_loop;
      if (schedule == 11) ++out.imbalanced_after_dynamic;
      if (schedule == 12) ++out.imbalanced_after_guided;
      if (iterations > 0) {
        const double l = iterations, t = static_cast<double>(n);
        out.loop_iterations += l;
        out.loop_work_s += sum_w;
        if (cpu_read) out.measured_loop_work_s += sum_w;
        ++out.loops_with_iterations;
        // Where every thread runs at most one iteration (L <= n), no schedule changes which runs
        // which: the whole imbalance is indivisible, whatever the iterations or the CPUs cost. A
        // wavefront's diagonals of 2 blocks on 2 threads, one on a vCPU 10% slower, had read as
        // iterations that differ in cost (load_imbalance, "try schedule(dynamic, 1)").
        out.indivisible_s += l <= t ? imbalance : std::min(imbalance, (std::ceil(l / t) - l / t) * sum_w / l);
      }
    }
    if (join) {
      // The region ends when its primary thread (index 0) leaves the join barrier. Switched out
      // while it waited there (another process on its CPU), it leaves late: that wait is the
      // machine's, with the other barriers' waits for switched-out threads, never the runtime's
      // join (false_sharing beside busy loops: 4 ms of one instance's join, the master 80 us on
      // the CPU in an 8 ms wait, ranked fork_join_overhead beside the time off the CPU). Capped
      // by the delay after the last arrival: time off the CPU before it held nothing back.
      const double delay = std::max(0.0, region.end - last_arrive);
      const double off = std::min(visits[0][b]->readings().off_cpu, delay);
      out.join_s += delay - off;
      out.descheduled_s += off;
    } else {
      double walkthrough = std::max(0.0, first_depart - last_arrive), startup = last_depart - first_depart;
      double off = 0;
      for (size_t k = 0; k < n; ++k)
        off = std::max(off, std::min(visits[k][b]->readings().off_cpu, std::max(0.0, visits[k][b]->depart - last_arrive)));
      off = std::min(off, walkthrough + startup);
      const double from_startup = std::min(off, startup);
      startup -= from_startup;
      walkthrough -= off - from_startup;
      out.walkthrough_s += walkthrough;
      out.startup_s += startup;
      out.descheduled_s += off;
    }
    record();
  }
  for (auto& visits_of_thread : scratch.barriers) give_back_if_large(visits_of_thread);
  for (auto* list : {&scratch.segment_start, &scratch.cpus, &scratch.squares}) give_back_if_large(*list);
  return out;
}

double consistent_cpu_imbalance(const std::vector<const BarrierPhases*>& runs) {
  if (runs.empty()) return 0;
  double total = 0;
  PositionSums pooling;  // one position at a time, its memory kept from one to the next
  // The runs' positions held, in order: each run's rows from a cursor, the least position first.
  std::vector<size_t> row(runs.size(), 0);
  for (;;) {
    size_t b = SIZE_MAX;
    for (size_t i = 0; i < runs.size(); ++i)
      if (row[i] < runs[i]->positions.size()) b = std::min(b, runs[i]->positions[row[i]].position);
    if (b == SIZE_MAX) break;
    pooling.clear();
    for (size_t i = 0; i < runs.size(); ++i) {
      if (row[i] >= runs[i]->positions.size() || runs[i]->positions[row[i]].position != b) continue;
      const PositionSums::View at = runs[i]->positions[row[i]++];
      if (at.instances == 0) continue;
      pooling.add(0, at.instances, at.cpu_imbalance_s, at.cpu, at.cpu_squared);
    }
    if (pooling.empty()) continue;
    const PositionSums::View pooled = pooling[0];
    const double n = pooled.instances;
    const size_t threads = pooled.cpu.size();
    if (n == 0 || threads < 2) continue;
    if (n < 3) {
      total += pooled.cpu_imbalance_s;
      continue;
    }
    double max_mean = -std::numeric_limits<double>::infinity(), sum_mean = 0, sum_var = 0;
    for (size_t k = 0; k < threads; ++k) {
      const double mean = pooled.cpu[k] / n;
      max_mean = std::max(max_mean, mean);
      sum_mean += mean;
      sum_var += std::max(0.0, pooled.cpu_squared[k] / n - mean * mean) * n / (n - 1);
    }
    const double t = static_cast<double>(threads);
    const double between = max_mean - sum_mean / t;
    // The standard error of max − mean of the thread means: for two threads, half that of their
    // difference, sqrt(2 s² / n) / 2.
    const double standard_error = std::sqrt(sum_var / t * (1 - 1 / t) / n);
    if (between > 2 * standard_error) total += std::min(between * n, pooled.cpu_imbalance_s);
  }
  // The positions hold the instances whose CPU time was read in full, and a region's sampled-out
  // instances carry their share of the CPU-time imbalance (scale_to_all_instances) but no
  // positions: the consistent part stands for them in the same proportion. Without this a
  // wavefront loop recorded in 1160 of its 2600 instances showed 1.9 ms of its 30 ms of CPU-time
  // imbalance as consistent, and the rest went to threads slowed unevenly (work inflation).
  double seen = 0, all = 0;
  for (const BarrierPhases* r : runs) {
    all += r->cpu_imbalance_s;
    for (size_t b = 0; b < r->positions.size(); ++b) seen += r->positions[b].cpu_imbalance_s;
  }
  const double to_all = seen > 0 && all > seen ? all / seen : 1.0;
  return total * to_all / static_cast<double>(runs.size());
}

SegmentCpu segment_cpu_per_instance(const PositionSums& positions) {
  SegmentCpu out;
  for (size_t b = 0; b < positions.size(); ++b) {
    const PositionSums::View at = positions[b];
    if (at.instances <= 0 || at.cpu.empty()) continue;
    out.team += std::accumulate(at.cpu.begin(), at.cpu.end(), 0.0) / at.instances;
    out.fastest += *std::min_element(at.cpu.begin(), at.cpu.end()) / at.instances;
  }
  return out;
}

BarrierPhases operator*(BarrierPhases p, double f) {
  p.imbalance_s *= f;
  p.measured_imbalance_s *= f;
  p.cpu_imbalance_s *= f;
  p.loop_iterations *= f;
  p.loop_work_s *= f;
  p.measured_loop_work_s *= f;
  p.indivisible_s *= f;
  p.walkthrough_s *= f;
  p.startup_s *= f;
  p.descheduled_s *= f;
  p.fork_s *= f;
  // team_creation_s: once per run, whatever the number of instances.
  p.join_s *= f;
  const auto count = [f](uint32_t n) { return static_cast<uint32_t>(static_cast<double>(n) * f + 0.5); };
  p.barriers = count(p.barriers);
  p.imbalanced_after_loop = count(p.imbalanced_after_loop);
  p.loops_with_iterations = count(p.loops_with_iterations);
  p.imbalanced_after_dynamic = count(p.imbalanced_after_dynamic);
  p.imbalanced_after_guided = count(p.imbalanced_after_guided);
  p.skipped_with_tasks = count(p.skipped_with_tasks);
  // positions: samples of CPU time, kept as read (consistent_cpu_imbalance scales what they show).
  return p;
}

namespace {

// Every figure of p but its per-position sums.
void add_figures(BarrierPhases& into, const BarrierPhases& p) {
  into.imbalance_s += p.imbalance_s;
  into.measured_imbalance_s += p.measured_imbalance_s;
  into.cpu_imbalance_s += p.cpu_imbalance_s;
  into.loop_iterations += p.loop_iterations;
  into.loop_work_s += p.loop_work_s;
  into.measured_loop_work_s += p.measured_loop_work_s;
  into.loops_with_iterations += p.loops_with_iterations;
  into.indivisible_s += p.indivisible_s;
  into.walkthrough_s += p.walkthrough_s;
  into.startup_s += p.startup_s;
  into.descheduled_s += p.descheduled_s;
  into.fork_s += p.fork_s;
  into.team_creation_s += p.team_creation_s;
  into.join_s += p.join_s;
  into.barriers += p.barriers;
  into.imbalanced_after_loop += p.imbalanced_after_loop;
  into.imbalanced_after_dynamic += p.imbalanced_after_dynamic;
  into.imbalanced_after_guided += p.imbalanced_after_guided;
  into.skipped_with_tasks += p.skipped_with_tasks;
}

}  // namespace

void add_phases(BarrierPhases& into, const BarrierPhases& p) {
  add_figures(into, p);
  into.positions.add(p.positions);
}

void add_phases(BarrierPhases& into, BarrierPhases&& p) {
  add_figures(into, p);
  into.positions.add(std::move(p.positions));
}

}  // namespace ompscope::analysis
