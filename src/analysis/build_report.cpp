#include "analysis/build_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "analysis/construct_report.h"
#include "analysis/duration_text.h"
#include "analysis/region_causes.h"
#include "analysis/repeats.h"
#include "analysis/report_notes.h"
#include "analysis/source_excerpt.h"
#include "analysis/statistics.h"
#include "analysis/task_diagnoses.h"
#include "analysis/team_work.h"
#include "common/thread_count_phrase.h"
#include "common/version.h"
#include "report/findings.h"

namespace ompscope::analysis {

namespace {

// The time at t if it scaled ideally from T(t0): T(t0)·t0/t, or T(t0) for weak scaling, where
// the work grows with the team by design; the efficiency is that over T(t).
double ideal_time(bool weak, int t0, double time0, int t) { return weak ? time0 : time0 * t0 / t; }

// A top-level region that ran n times at t and n0 at t0 is compared per instance: the base's time
// and work scaled by n/n0 (docs/design.md, "Instance counts"). A nested region's count grows with
// the team that forks it, and is compared as it is.
double per_instance_factor(bool nested, double base_instances, double instances) {
  if (nested || !(base_instances > 0) || !(instances > 0) || instances == base_instances) return 1.0;
  return instances / base_instances;
}

TeamWork scaled_to_instances(TeamWork w, double f) {
  if (f == 1.0) return w;
  w.work_s *= f;
  w.usage = w.usage * f;
  w.time_s *= f;
  w.outside_worksharing_s *= f;
  w.lock_operations *= f;
  for (TeamWork::Loop& l : w.loops) l.time_s *= f;
  for (auto& [key, s] : w.sampled_lines) s *= f;
  w.runtime_work_s *= f;
  return w;
}

double efficiency_of(double time0, int t0, double time, int t) { return time > 0 ? time0 * t0 / (time * t) : 0; }

// Why a time is below perfect scaling by `faster_s` (docs/lost-time.md, "Faster than perfect"):
// within the spread of the repeats at either count (the base's slowest repeat makes "perfect"
// too generous, or this count's fastest), or, where the team's work (thread time outside waits)
// shrank from t0, superlinear: the threads' data fit their caches. Else the spread does not
// cover it and the work did not shrink: said as it is.
std::string negative_loss_reason(double faster_s, double efficiency, double spread_s, double base_spread_s,
                                 double base_work_s, double work_s, int t0) {
  const std::string head = fmt::format("{} faster (efficiency {:.0f}%)", duration_text(faster_s), 100 * efficiency);
  const double spread = std::max(spread_s, base_spread_s);
  if (spread > 0 && faster_s <= spread)
    return fmt::format("{}, within the spread of the repeats ({} here, {} at {}): noise, not a finding", head,
                       duration_text(spread_s), duration_text(base_spread_s), threads_phrase(t0));
  if (base_work_s > 0 && work_s > 0 && work_s < base_work_s)
    return fmt::format("{}: superlinear, the team's work shrank from {} to {} (the threads' share of the data fits "
                       "their caches)",
                       head, duration_text(base_work_s), duration_text(work_s));
  return fmt::format("{}, more than the spread of the repeats ({}){}", head, duration_text(spread),
                     base_work_s > 0 ? " with the team's work not smaller: the base count ran slower than its work "
                                       "needed (a loaded machine during those runs?)"
                                     : "");
}

// The runs that observed anything, by the team that ran.
using RunsByCount = std::map<int, std::vector<const RunAnalysis*>>;

// The serial code's figures beside the program's, per count.
struct SerialSeries {
  std::map<int, double> spread;       // max − min of the serial time over the repeats
  std::map<int, SerialWaits> waits;   // of serial_blocked_s, what it waited for (medians)
};

// The program's time per count (median and range), its serial code, its MPI outside regions.
SerialSeries program_times(Report& report, const RunsByCount& by_threads) {
  SerialSeries out;
  for (const auto& [t, analyses] : by_threads) {
    std::vector<double> wall, serial, mpi, blocked, queued, child, io, io_operations, before_runtime;
    bool any_mpi = false;
    for (const RunAnalysis* a : analyses) {
      wall.push_back(a->wall_s);
      serial.push_back(a->serial_s);
      before_runtime.push_back(a->serial_before_runtime_s);
      mpi.push_back(a->mpi_s);
      any_mpi = any_mpi || a->mpi;
      if (a->serial_usage_read) blocked.push_back(a->serial_blocked_s), queued.push_back(a->serial_runqueue_s);
      if (a->serial_waits.read) {
        child.push_back(a->serial_waits.child_s);
        io.push_back(a->serial_waits.io_s);
        io_operations.push_back(a->serial_waits.io_operations);
      }
    }
    if (!child.empty()) out.waits[t] = {true, median(child), median(io), median(io_operations)};
    report.program_time_s[t] = median(wall);
    report.program_time_range_s[t] = {*std::min_element(wall.begin(), wall.end()), *std::max_element(wall.begin(), wall.end())};
    report.serial_s[t] = median(serial);
    if (serial.size() > 1) out.spread[t] = *std::max_element(serial.begin(), serial.end()) -
                                           *std::min_element(serial.begin(), serial.end());
    if (!blocked.empty()) {
      report.serial_blocked_s[t] = std::min(report.serial_s[t], median(blocked));
      report.serial_runqueue_s[t] = median(queued);
    }
    if (any_mpi) report.mpi_s[t] = median(mpi);
    if (const double before = median(before_runtime); before > 0) report.serial_before_runtime_s[t] = std::min(report.serial_s[t], before);
    report.program_threads[t] = analyses.front()->threads;
  }
  return out;
}

// The program's efficiency and speedup per count, and the bound its serial code sets.
void program_speedups(Report& report, const std::set<int>& unmeasured) {
  if (report.program_time_s.empty()) return;
  const auto& [t0, time0] = *report.program_time_s.begin();
  for (const auto& [t, time] : report.program_time_s) {
    // No speedup from a count that is not the team that ran (docs/design.md, "Thread counts").
    if (unmeasured.count(t) || unmeasured.count(t0)) continue;
    report.program_efficiency[t] = time > 0 ? ideal_time(report.weak, t0, time0, t) / time : 0;
    if (const auto s = report::speedup_at(t0, time0, t, time); s && !report.weak) report.program_speedup[t] = *s;
  }
  // MPI calls outside regions do not shrink with the threads either (a singleton's MPI_Init
  // and MPI_Finalize): they bound the speedup with the serial code (CloverLeaf run as one
  // process: "serial code bounds the speedup at 65x" with 390 ms of its 765 ms in MPI).
  const double serial0 = report.serial_s[t0] + (report.mpi_s.count(t0) ? report.mpi_s.at(t0) : 0.0);
  if (serial0 > 0 && time0 > 0) report.amdahl_speedup_bound = time0 / serial0;
}

// One region over every count: its time, split, causes, constructs, tasks and sampled lines at
// each, compared with the smallest count. A count faster than perfect scaling adds its line to
// `negative`.
// The replay keeps each task's own work as the smallest count ran it; the tasks' bodies at the
// largest count measured, against those, are carried to every count above the smallest (the
// replayed time plus the bodies' growth times what they add to it: the tasks' own work on the
// replay's chain that ends last, ReplayedTime::body_s). Where the bodies grew with the team
// (their data between two cores' caches), the replay from 1 thread missed the growth at every
// count: block_lu_deps on an AMD
// EPYC VM of two cores, bodies ×0.86 to ×1.42 from 1 thread to 2 from one run to the next, the
// replay 10–32% off the time at 2, 1–4% off with the growth carried.
void carry_body_growth(RegionReport& region, const std::map<int, double>& replay_body_s) {
  if (!region.task_replay || replay_body_s.empty() || region.tasks.size() < 2) return;
  RegionReport::TaskReplay& replay = *region.task_replay;
  const auto from = region.tasks.find(replay.from_threads);
  const auto largest = std::prev(region.tasks.end());
  if (from == region.tasks.end() || largest->first <= replay.from_threads || !(from->second.mean_body_s > 0) ||
      !(largest->second.mean_body_s > 0))
    return;
  replay.body_growth = largest->second.mean_body_s / from->second.mean_body_s;
  replay.body_growth_at = largest->first;
  // The line through the replays at ×1 and ×2 is not a replay: where the schedule changes between
  // them it can rise with the count, which a replay at the growth never does (more threads never
  // take longer in it). So no count above the smallest takes longer than the one below it.
  double below = std::numeric_limits<double>::infinity();
  for (auto& [t, time] : replay.predicted_time_s) {
    if (t <= replay.from_threads) continue;
    if (replay_body_s.count(t)) time = std::max(0.0, time + (replay.body_growth - 1) * replay_body_s.at(t));
    time = std::min(time, below);
    below = time;
  }
}

RegionReport region_report(const CallsiteKey& key, const RunsByCount& by_threads,
                           const std::optional<BenchCosts>& bench, bool weak, std::vector<std::string>& negative) {
  const double bench_dispatch = bench ? bench->dispatch_per_chunk_s : 0;
  RegionReport region;
  ConstructReports constructs(bench_dispatch);
  std::optional<std::pair<int, double>> base;  // (t0, T(t0))
  TeamWork base_work;
  double base_instances = 0;  // the region's instances at t0
  std::map<int, std::vector<const RunSamples*>> samples_at;  // each count's repeats, where sampled
  std::map<int, double> replay_body_s;  // what the bodies add to the replay at each count (median)
  for (const auto& [t, analyses] : by_threads) {
    std::vector<const RegionRun*> repeats;
    for (const RunAnalysis* a : analyses) {
      auto it = a->regions.find(key);
      if (it != a->regions.end()) repeats.push_back(&it->second);
    }
    if (repeats.empty()) continue;
    const RegionRun& first = *repeats.front();
    if (region.function.empty() && region.file.empty()) {
      region.function = first.where.function;
      region.file = first.where.file;
      region.line = first.where.line;
      region.module = first.where.module;
      region.module_offset = first.where.module_offset;
    }
    region.nested = region.nested || first.profile.nested;
    // The time, split and causes of the repeat closest to the median time, so that each
    // thread's parts add up to the time the report shows (the first repeat's split beside the
    // median time was 5% off with two repeats) and the causes to the time lost.
    const RegionRun* typical = &typical_repeat(repeats);
    const double time = typical->profile.time_s;
    region.time_s[t] = time;
    if (repeats.size() > 1) {
      const auto [low, high] = std::minmax_element(repeats.begin(), repeats.end(), [](const RegionRun* a, const RegionRun* b) {
        return a->profile.time_s < b->profile.time_s;
      });
      region.time_spread_s[t] = (*high)->profile.time_s - (*low)->profile.time_s;
      for (const RegionRun* r : repeats) region.repeat_times_s[t].push_back(r->profile.time_s);
    }
    // The typical repeat's count, beside its time (a program that sizes its repetitions by
    // time runs a different number at each repeat).
    region.instances_at[t] = typical->profile.instances;
    if (typical->sampled()) region.recorded_instances_at[t] = typical->profile.recorded_instances;
    region.per_thread[t] = typical->profile.per_thread;
    if (!base) {
      base = std::make_pair(t, time);
      base_work = team_work(repeats);
      base_work.threads = t;
      base_instances = static_cast<double>(typical->profile.instances);
    }
    // A count that ran the region a different number of times did different work: compared per
    // instance (note instances_differ), the base's time and work scaled to this count's instances.
    const double per_instance =
        per_instance_factor(region.nested, base_instances, static_cast<double>(typical->profile.instances));
    const int t0 = base->first;
    const double time0 = base->second * per_instance;
    // Weak scaling: the work at t0 is each thread's share; the team's at t is meant to be t/t0 of it.
    TeamWork base_at_t = scaled_to_instances(base_work, per_instance);
    if (weak && t > t0) {
      const double f = static_cast<double>(t) / t0;
      base_at_t.work_s *= f;
      base_at_t.usage = base_at_t.usage * f;
      base_at_t.runtime_work_s *= f;
      base_at_t.weak = true;
    }
    region.efficiency[t] = time > 0 ? ideal_time(weak, t0, time0, t) / time : 0;
    const std::optional<double> region_speedup = report::speedup_at(t0, time0, t, time);
    if (region_speedup && !weak) region.speedup[t] = *region_speedup;
    const double lost = t == t0 ? 0.0 : time - ideal_time(weak, t0, time0, t);
    region.time_lost_s[t] = lost;
    const std::optional<double> known_lost = t == t0 && t0 > 1 ? std::nullopt : std::optional<double>(lost);
    double explained = 0;
    const size_t first_problem = region.problems.size();
    for (Problem& p : diagnose_region(repeats, t, time, known_lost, t > t0 ? &base_at_t : nullptr, bench_dispatch)) {
      explained += p.gain_s;
      region.problems.push_back(std::move(p));
    }
    region.unexplained_s[t] = unexplained(lost, explained);
    const double spread = region.time_spread_s.count(t) ? region.time_spread_s.at(t) : 0.0;
    share_the_loss(region.problems, first_problem, lost, explained, spread);
    if (lost < 0 && t > t0) {
      const TeamWork now = team_work(repeats);
      const double spread0 = region.time_spread_s.count(t0) ? region.time_spread_s.at(t0) : 0.0;
      negative.push_back(fmt::format("{} at {}: {}",
                                     region.file.empty() ? fmt::format("{}+{:#x}", region.module, region.module_offset)
                                                         : fmt::format("{}:{}", region.file, region.line),
                                     threads_phrase(t),
                                     negative_loss_reason(-lost, efficiency_of(time0, t0, time, t), spread, spread0,
                                                          base_at_t.work_s, now.work_s, t0)));
    }
    constructs.add(repeats, t, *typical, /*to_median=*/1.0, region);  // the time is the typical repeat's own
    std::vector<const RunSamples*> samples;
    for (const RegionRun* r : repeats) samples.push_back(&r->samples);
    if (std::any_of(samples.begin(), samples.end(), [](const RunSamples* s) { return s->cpu_s > 0; })) {
      region.sampled[t] = summarize_samples(samples, kSampledLinesShown);
      samples_at[t] = std::move(samples);
    }
    std::vector<const TaskFigures*> tasks;
    for (const RegionRun* r : repeats)
      if (r->tasks.tasks > 0) tasks.push_back(&r->tasks);
    if (!tasks.empty()) {
      region.tasks[t] = summarize_tasks(tasks, t, region_speedup.value_or(0),
                                        t > t0 ? &base_work.tasks : nullptr);
      if (bench) region.tasks[t].bench_task_s = bench->task_s;
    }
    // The replay from the smallest count (task_replay.h): each count's median over the repeats,
    // where every repeat replayed it.
    if (t == t0 && !tasks.empty() &&
        std::none_of(tasks.begin(), tasks.end(), [](const TaskFigures* f) { return f->replay_s.empty(); })) {
      RegionReport::TaskReplay replay{t0, 0, {}};
      std::vector<double> per_task;
      for (const TaskFigures* f : tasks) per_task.push_back(f->replay_per_task_s);
      replay.per_task_s = median(per_task);
      replay.instances = tasks.front()->task_instances;
      replay.replayed_instances = tasks.front()->replayed_instances;
      for (const auto& [count, time] : tasks.front()->replay_s) {
        std::vector<double> times;
        for (const TaskFigures* f : tasks)
          if (f->replay_s.count(count)) times.push_back(f->replay_s.at(count));
        if (times.size() == tasks.size()) replay.predicted_time_s[count] = median(times);
        std::vector<double> bodies;
        for (const TaskFigures* f : tasks)
          if (f->replay_body_s.count(count)) bodies.push_back(f->replay_body_s.at(count));
        if (bodies.size() == tasks.size()) replay_body_s[count] = median(bodies);
      }
      region.task_replay = replay;
    }
  }
  if (!region.instances_at.empty()) region.instances = region.instances_at.rbegin()->second;
  carry_body_growth(region, replay_body_s);
  name_grown_lines(region, samples_at);
  constructs.finish(region);
  return region;
}

// The program's serial code, one more place to win time back beside the regions.
RegionReport serial_report(const Report& report, const RunsByCount& by_threads, const std::set<int>& unmeasured,
                           const SerialSeries& series) {
  RegionReport serial;
  serial.kind = report::RegionKind::kSerial;
  serial.function = "(outside parallel regions)";
  const auto& [t0, time0] = *report.program_time_s.begin();
  const auto at = [](const std::map<int, double>& m, int t) { return m.count(t) ? m.at(t) : 0.0; };
  for (const auto& [t, s] : report.serial_s) {
    serial.time_s[t] = s;
    serial.instances_at[t] = 1;
    SerialFigures f;
    f.threads = t;
    f.base_threads = t0;
    f.serial_s = s;
    f.blocked_s = at(report.serial_blocked_s, t);
    f.runqueue_s = at(report.serial_runqueue_s, t);
    f.before_runtime_s = at(report.serial_before_runtime_s, t);
    if (series.waits.count(t)) f.waits = series.waits.at(t);
    f.base_serial_s = report.serial_s.at(t0);
    f.base_blocked_s = at(report.serial_blocked_s, t0);
    f.base_program_s = time0;
    f.known = !unmeasured.count(t) && !unmeasured.count(t0);
    const double lost = t == t0 || !f.known ? 0.0 : s - ideal_time(report.weak, t0, report.serial_s.at(t0), t);
    serial.time_lost_s[t] = lost;
    SerialCauses causes = diagnose_serial(f, lost, at(series.spread, t));
    serial.unexplained_s[t] = unexplained(lost, causes.explained_s);
    for (Problem& p : causes.problems) serial.problems.push_back(std::move(p));
  }
  serial.instances = 1;
  serial.time_spread_s = series.spread;
  std::map<int, std::vector<const RunSamples*>> samples_at;
  for (const auto& [t, analyses] : by_threads) {
    std::vector<const RunSamples*> samples;
    for (const RunAnalysis* a : analyses) samples.push_back(&a->serial_samples);
    if (std::none_of(samples.begin(), samples.end(), [](const RunSamples* s) { return s->cpu_s > 0; })) continue;
    serial.sampled[t] = summarize_samples(samples, kSampledLinesShown);
    samples_at[t] = std::move(samples);
  }
  name_serial_lines(serial);
  name_grown_lines(serial, samples_at);
  return serial;
}

// The program's time lost adds up the same way: what its top-level regions and serial code
// explain of their own losses (nested regions' time is inside their parent's).
void program_loss(Report& report, const std::set<int>& unmeasured, std::vector<std::string>& negative) {
  if (report.program_time_s.empty()) return;
  const auto& [t0, time0] = *report.program_time_s.begin();
  for (const auto& [t, time] : report.program_time_s) {
    if (unmeasured.count(t) || unmeasured.count(t0)) continue;
    const double lost = t == t0 ? 0.0 : time - ideal_time(report.weak, t0, time0, t);
    // Regions that ran faster than ideal (a negative loss) give time back: their gain offsets
    // the others' losses, so what the causes explain may exceed what the program lost.
    double explained = 0, given_back = 0;
    for (const RegionReport& r : report.regions) {
      if (r.nested || !r.time_lost_s.count(t)) continue;
      explained += std::max(0.0, r.time_lost_s.at(t)) - r.unexplained_s.at(t);
      given_back += std::max(0.0, -r.time_lost_s.at(t));
    }
    // MPI calls outside regions (a singleton run's MPI_Init and MPI_Finalize included) do not
    // shrink with the threads: their share of the loss is measured, never unexplained (docs/mpi.md).
    if (t != t0 && report.mpi_s.count(t) && report.mpi_s.count(t0))
      explained += std::max(0.0, report.mpi_s.at(t) - ideal_time(report.weak, t0, report.mpi_s.at(t0), t));
    // lost = explained − given back + unexplained, exactly: where the causes explain more than
    // the program lost even with what regions gave back, the rest of the program (its time in
    // neither a region nor serial code) gave back the difference too.
    report.program_time_lost_s[t] = lost;
    report.program_unexplained_s[t] = t == t0 ? 0.0 : std::max(0.0, lost - explained + given_back);
    report.program_given_back_s[t] = t == t0 ? 0.0 : given_back + std::max(0.0, explained - given_back - lost);
    if (lost < 0 && t > t0) {
      const auto& [fast, slow] = report.program_time_range_s[t];
      const auto& [fast0, slow0] = report.program_time_range_s[t0];
      negative.insert(negative.begin(),
                      fmt::format("the program at {}: {}", threads_phrase(t),
                                  negative_loss_reason(-lost, efficiency_of(time0, t0, time, t), slow - fast,
                                                       slow0 - fast0, 0, 0, t0)));
    }
  }
}

// Region ids name a region, not its rank: numbered in source order (file, line, function, then
// the module's address for a region without debug info), so r3 is the same region in `profile`,
// `scale` and `report` of one program, whatever each run measured it to lose.
void number_regions(Report& report) {
  std::vector<RegionReport*> by_place;
  for (RegionReport& r : report.regions)
    if (r.kind != report::RegionKind::kSerial) by_place.push_back(&r);
  std::stable_sort(by_place.begin(), by_place.end(), [](const RegionReport* a, const RegionReport* b) {
    return std::tie(a->file, a->line, a->function, a->module, a->module_offset, a->nested) <
           std::tie(b->file, b->line, b->function, b->module, b->module_offset, b->nested);
  });
  int number = 0;
  for (RegionReport* r : by_place) r->id = fmt::format("r{}", ++number);
  for (RegionReport& r : report.regions)
    if (r.kind == report::RegionKind::kSerial) r.id = "serial";
}

// Ranked by the time lost at the largest count with a core per thread when there is one (an
// oversubscribed count's costs are time-sharing: a barrier at 4 threads on 2 cores took 317 ms):
// what the causes explain and what none does together, so a region that lost 84 ms that no
// cause explains ranks above 2.58 ms of serial code. A report of one count (profile) has no
// loss: its regions rank by their largest gain. Equal ranks: by gain, then by time.
void rank_regions(Report& report) {
  int largest = report.threads.empty() ? 0 : report.threads.back();
  for (int t : report.threads)
    if (!report.oversubscribed(t)) largest = t;
  std::stable_sort(report.regions.begin(), report.regions.end(), [&](const RegionReport& a, const RegionReport& b) {
    const double la = a.rank_loss(largest), lb = b.rank_loss(largest);
    if (la != lb) return la > lb;
    const double ga = a.largest_gain(largest), gb = b.largest_gain(largest);
    if (ga != gb) return ga > gb;
    auto ta = a.time_s.count(largest) ? a.time_s.at(largest) : 0, tb = b.time_s.count(largest) ? b.time_s.at(largest) : 0;
    return ta > tb;
  });
}

// Each region's causes by gain at the ranked count first, then at the other counts, largest
// first, each by gain: the first row a reader sees is the region's top cause where regions are
// ranked (not a fork/join overhead at 1 thread).
void order_causes(Report& report) {
  const int ranked = report::ranked_count(report);
  for (RegionReport& r : report.regions)
    std::stable_sort(r.problems.begin(), r.problems.end(), [ranked](const Problem& a, const Problem& b) {
      if ((a.threads == ranked) != (b.threads == ranked)) return a.threads == ranked;
      if (a.threads != b.threads) return a.threads > b.threads;
      return a.gain_s > b.gain_s;
    });
}

}  // namespace

Report build_report(const std::vector<std::string>& command, int cores, const std::vector<MeasuredRun>& runs,
                    const std::optional<BenchCosts>& bench, bool weak) {
  Report report;
  report.weak = weak;
  report.bench = bench;
  if (bench) report.notes.push_back(bench_cache_note(*bench));
  report.version = kVersion;
  report.command = command;
  report.cores = cores;
  std::set<int> thread_set;
  RunsByCount by_threads;
  for (const MeasuredRun& run : runs) {
    report.runs.push_back(run.record);
    thread_set.insert(run.record.threads);
    if (run.analysis) {
      by_threads[run.record.threads].push_back(&*run.analysis);
      if (report.runtime.empty()) report.runtime = run.analysis->runtime;
    }
  }
  report.threads.assign(thread_set.begin(), thread_set.end());
  const std::set<int> unmeasured = unmeasured_counts(runs);
  for (Note& note : thread_count_notes(runs)) report.notes.push_back(std::move(note));
  const SerialSeries serial = program_times(report, by_threads);
  program_speedups(report, unmeasured);

  std::set<CallsiteKey> keys;
  for (const auto& [t, analyses] : by_threads)
    for (const RunAnalysis* a : analyses)
      for (const auto& [key, r] : a->regions) keys.insert(key);
  std::vector<std::string> negative;  // regions faster than perfect scaling, and why
  for (const CallsiteKey& key : keys) report.regions.push_back(region_report(key, by_threads, bench, weak, negative));
  if (!report.serial_s.empty()) report.regions.push_back(serial_report(report, by_threads, unmeasured, serial));
  program_loss(report, unmeasured, negative);

  number_regions(report);
  rank_regions(report);
  report.summary_threads = report::summary_counts(report);
  if (std::optional<Note> note = instances_differ_note(report)) report.notes.push_back(std::move(*note));
  for (Note& note : run_notes(report, runs, std::move(negative))) report.notes.push_back(std::move(note));
  order_causes(report);
  report.findings = report::build_findings(report);
  // The code beside the findings and the constructs (the files the debug info names).
  attach_source_excerpts(report);
  return report;
}

}  // namespace ompscope::analysis
