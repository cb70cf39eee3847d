#include "analysis/team_work.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <numeric>

#include "analysis/repeats.h"
#include "analysis/statistics.h"

namespace ompscope::analysis {

WorkCounts counts_of(const WorkUsage& u) {
  const double f = u.wall_s / u.counted_s;
  return {u.cycles * f, u.instructions * f, u.llc_misses * f};
}

// In order: the work itself changed (more instructions); the same cycles per instruction, each
// slower (frequency); more misses per instruction (the data left the cache); as many misses, each
// slower, where the misses can cost the cycles' growth (memory bandwidth); else cycles no miss
// pays for: cache lines moving between cores (false sharing, data shared between threads).
CpuSlowdown name_cpu_slowdown(const WorkUsage& now, const WorkUsage& base) {
  CpuSlowdown c;
  if (!now.counted() || !base.counted() || now.wall_s <= 0 || base.wall_s <= 0) return c;
  const WorkCounts n = counts_of(now), b = counts_of(base);
  c.ipc = n.instructions / n.cycles;
  c.base_ipc = b.instructions / b.cycles;
  c.mpki = 1000 * n.misses / n.instructions;
  c.base_mpki = 1000 * b.misses / b.instructions;
  c.instruction_growth = n.instructions / b.instructions - 1;
  c.extra_cycles_per_miss = n.misses > 0 ? std::max(0.0, n.cycles - b.cycles) / n.misses : 0;
  if (c.instruction_growth > kInstructionGrowth)
    c.kind = CpuSlowdown::Kind::MoreInstructions;
  else if (c.ipc > (1 - kIpcFall) * c.base_ipc)
    c.kind = CpuSlowdown::Kind::Frequency;
  else if (c.mpki >= (1 + kMissGrowth) * c.base_mpki && n.misses > b.misses)
    c.kind = CpuSlowdown::Kind::CacheMisses;
  else if (n.misses > 0 && c.extra_cycles_per_miss <= kMissCostCycles)
    c.kind = CpuSlowdown::Kind::MemoryBandwidth;
  else
    c.kind = CpuSlowdown::Kind::Coherence;
  return c;
}

LineTimes mean_line_times(const std::vector<const RegionRun*>& repeats) {
  std::vector<const RunSamples*> samples;
  for (const RegionRun* r : repeats) samples.push_back(&r->samples);
  LineTimes out;
  for (const auto& [key, line] : mean_lines(samples)) out[key] = line.cpu_s;
  return out;
}

TeamWork team_work(const std::vector<const RegionRun*>& repeats) {
  std::vector<double> work, wall, cpu, system, minor, major, switches, counted, cycles, instructions, misses,
      lock_operations, voluntary;
  if (repeats.empty()) return {};
  std::vector<const TaskFigures*> tasks;
  for (const RegionRun* r : {&typical_repeat(repeats)}) {
    ThreadSplit team;
    for (const ThreadSplit& s : r->profile.per_thread) team += s;
    // Time holding locks is left out: critical sections that slow down as the lock and its data
    // move between cores are the lock's cost (lock contention, lock overhead), not the work's.
    double held = 0;
    for (const LockCost& c : r->locks.locks) held += c.hold_s;
    lock_operations.push_back(r->locks.operations());
    // What the work stretches span by the events: a stretch runs from a barrier's departure to the
    // next arrival, over the locks the thread waits for and holds and its MPI calls.
    const double spanned = team.work_s + team.lock_wait_s + team.mpi_s;
    team.work_s = std::max(0.0, team.work_s - held);
    work.push_back(team.work_s);
    if (r->tasks.tasks > 0) tasks.push_back(&r->tasks);
    // A task region's bodies run in barriers, outside the work stretches: the readings around
    // the visits in which tasks ran cover them (ThreadSplit::task_usage). Together they stand for
    // the work stretches and the task time in those visits.
    WorkUsage read = team.usage;
    read += team.task_usage;
    double read_over = team.usage.wall_s + team.task_usage_tasks_s;
    if (read_over <= 0 || read.wall_s <= 0) continue;
    // The stretches' wall is the readings' (each reading's time is in the stretch it ends), what
    // they span the events' (which the readings stay outside of): far beyond it, the split is the
    // tool's. Against the work alone, a lock per data item (lock_per_item: its work a third of the
    // stretches, the rest acquiring and holding locks) lost its kernel accounting, and time off the
    // CPU read as the same work slower: work_inflation ranked above the lock's cost.
    if (read_over > kReadingsOverWork * spanned) continue;
    // Each read stretch holds one reading's own time, nearly all of it system calls: taken out of
    // its wall, its CPU time and its kernel time, at the machine's cheapest reading (never more
    // than one costs). Where barriers come 100 us apart or more each thread reads the stretch
    // before every one: the readings grow with the team, and NPB SP W's read as system calls.
    const double readings_s = std::min({read.readings * r->kernel.usage_reading_s, read.cpu_s, read.wall_s, read_over});
    read.wall_s -= readings_s;
    read.cpu_s -= readings_s;
    read.system_s = std::max(0.0, read.system_s - readings_s);
    read_over -= readings_s;
    if (read_over <= 0 || read.wall_s <= 0) continue;
    WorkUsage u = read * (team.work_s / read_over);
    // The kernel's time is at least the minor faults at the machine's cheapest fault: getrusage's
    // user/system split is a tick sample scaled to the CPU time, and read 51.8 ms in the kernel
    // for LULESH's 257 180 faults at lulesh.cc:782 (the growth then read as the CPU running
    // slower: "pad per-thread data"), where the malloc setting won 1.12 s (capture/thread_usage.h).
    u.system_s = std::min(u.cpu_s, std::max(u.system_s, u.minor_faults * r->kernel.page_fault_floor_s));
    wall.push_back(u.wall_s);
    cpu.push_back(u.cpu_s);
    system.push_back(u.system_s);
    minor.push_back(u.minor_faults);
    major.push_back(u.major_faults);
    switches.push_back(u.switches);
    voluntary.push_back(u.voluntary_switches);
    counted.push_back(u.counted_s);
    cycles.push_back(u.cycles);
    instructions.push_back(u.instructions);
    misses.push_back(u.llc_misses);
  }
  TeamWork out;
  out.work_s = median(work);
  out.lock_operations = median(lock_operations);
  out.usage_read = !wall.empty();
  out.tasks = std::move(tasks);
  const RegionRun& typical = typical_repeat(repeats);
  out.time_s = typical.profile.time_s;
  out.other_runtime_calls = static_cast<double>(typical.profile.instances * typical.profile.per_thread.size()) +
                            typical.phases.barriers + static_cast<double>(typical.tasks.tasks);
  out.kernel = typical.kernel;
  double worksharing = 0;
  for (const ConstructRun& c : typical.constructs.nodes) {
    if (c.parent == -1 && report::info(c.kind).worksharing) worksharing += c.time_s;
    if (c.kind == report::ConstructKind::kLoop && c.iterations > 0 && c.instances > 0)
      out.loops.push_back({c.path, fmt::format("{}:{}", c.where.file.empty() ? c.where.module : c.where.file, c.where.line),
                           c.iterations / c.instances, c.time_s});
  }
  out.outside_worksharing_s = std::max(0.0, out.time_s - worksharing);
  out.sampled_lines = mean_line_times(repeats);
  // The runtime's CPU time outside waits; the constructs and functions that held it, summed over
  // the repeats.
  std::map<std::string, std::pair<double, const ConstructRun*>> runtime_at;  // by path
  std::map<std::string, double> functions;
  const double each = 1.0 / static_cast<double>(repeats.size());
  for (const RegionRun* r : repeats) {
    for (const auto& [function, s] : r->constructs.runtime_work_functions) functions[function] += s;
    const std::vector<double>& by_thread = r->constructs.runtime_work_s;
    if (!by_thread.empty()) {
      const double sum = std::accumulate(by_thread.begin(), by_thread.end(), 0.0);
      const double team = std::max<double>(static_cast<double>(by_thread.size()), r->profile.per_thread.size());
      out.runtime_work_s += each * sum;
      out.runtime_work_spread_s += each * (*std::max_element(by_thread.begin(), by_thread.end()) - sum / team);
    }
    for (const ConstructRun& c : r->constructs.nodes)
      if (c.runtime_work_s > 0) {
        auto& [s, run] = runtime_at[c.path];
        s += each * c.runtime_work_s;
        run = &c;
      }
  }
  const auto top = std::max_element(functions.begin(), functions.end(),
                                    [](const auto& a, const auto& b) { return a.second < b.second; });
  if (top != functions.end()) out.runtime_function = top->first;
  // Named where at most three constructs hold most of it (NPB LU: its two sweeps' loops, half each),
  // by their share.
  std::vector<std::pair<double, const ConstructRun*>> by_time;
  for (const auto& [path, held] : runtime_at) by_time.push_back(held);
  std::stable_sort(by_time.begin(), by_time.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  double named_s = 0;
  std::vector<std::string> places;
  for (const auto& [s, c] : by_time) {
    if (places.size() == 3 || named_s > 0.5 * out.runtime_work_s) break;
    places.push_back(fmt::format("{} ({:.0f}%)", construct_place(c->kind, c->where), 100 * s / out.runtime_work_s));
    named_s += s;
  }
  if (places.size() == 1) places.front().erase(places.front().rfind(" ("));  // one place: no share to say
  if (places.size() > 1) places.back().insert(0, "and ");
  if (named_s > 0.5 * out.runtime_work_s) out.runtime_place = fmt::format("{}", fmt::join(places, places.size() > 2 ? ", " : " "));
  if (out.usage_read)
    out.usage = {median(wall),     median(cpu),    median(system),       median(minor),  median(major),
                 median(switches), median(counted), median(cycles), median(instructions), median(misses),
                 0.0,              median(voluntary)};
  return out;
}

}  // namespace ompscope::analysis
