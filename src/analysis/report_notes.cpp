#include "analysis/report_notes.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <set>
#include <utility>

#include "analysis/duration_text.h"
#include "common/thread_count_phrase.h"

namespace ompscope::analysis {

namespace {

// A run's threads switched out while runnable for this share of their work (or the initial
// thread waiting this share of its serial code for a CPU): the machine was busy.
constexpr double kBusyShare = 0.10;
// Other processes' share of the CPUs during a run (RunRecord::others_cpu_share) that makes it a
// busy machine's: as `bench` refuses a calibration (cli/bench_command.cpp, kMaxOthersShare).
constexpr double kBusyOthersShare = 0.05;

}  // namespace

std::string region_place(const RegionReport& r) {
  return fmt::format("{} ({}:{})", r.id, r.file.empty() ? r.module : r.file, r.line);
}

std::vector<Note> thread_count_notes(const std::vector<MeasuredRun>& runs) {
  // (asked for, ran) → runs; the counts asked for that ran the same team.
  std::map<std::pair<int, int>, int> differ;
  std::map<int, std::set<int>> asked_for;  // team that ran → counts asked for
  std::set<int> unknown;
  for (const MeasuredRun& run : runs) {
    const RunRecord& r = run.record;
    if (!run.analysis || r.threads_requested <= 0) continue;
    if (!r.threads_measured) {
      unknown.insert(r.threads);
      continue;
    }
    asked_for[r.threads].insert(r.threads_requested);
    if (r.threads != r.threads_requested) ++differ[{r.threads_requested, r.threads}];
  }
  std::vector<Note> notes;
  if (!differ.empty()) {
    Note n{"threads_differ", "", {}};
    std::vector<std::string> pairs;
    for (const auto& [key, count] : differ) {
      pairs.push_back(fmt::format("asked for {}, {} ran", threads_phrase(key.first), key.second));
      n.items.push_back(fmt::format("{} run{} asked for {} ran {}", count, count == 1 ? "" : "s",
                                    threads_phrase(key.first), threads_phrase(key.second)));
    }
    std::vector<std::string> merged;
    for (const auto& [team, asked] : asked_for)
      if (asked.size() > 1) {
        std::vector<std::string> counts;
        for (int a : asked) counts.push_back(std::to_string(a));
        merged.push_back(fmt::format("{} all ran {}", fmt::join(counts, ", "), threads_phrase(team)));
      }
    n.text = fmt::format("the program set its own team size ({}): runs are labelled by the team that ran (the "
                         "largest team of their outermost regions){}",
                         fmt::join(pairs, "; "),
                         merged.empty() ? ""
                                        : fmt::format("; the counts {} are one measurement, with no speedup or "
                                                      "efficiency between them",
                                                      fmt::join(merged, "; ")));
    notes.push_back(std::move(n));
  }
  if (!unknown.empty()) {
    std::vector<std::string> counts;
    for (int t : unknown) counts.push_back(std::to_string(t));
    notes.push_back({"threads_unknown",
                     fmt::format("no parallel region ran in the runs asked for {} threads: the team that ran is "
                                 "unknown there, and no speedup, efficiency or serial-code gain is computed from them",
                                 fmt::join(counts, ", ")),
                     {}});
  }
  return notes;
}

Note bench_cache_note(const BenchCosts& bench) {
  return {"bench_cache",
         fmt::format("the runtime's costs from the bench cache{}: the entry for {} measured at {}{} with {} (a task "
                     "{}, a dynamic loop's dispatch {} per chunk, a recursive tree's task deferred {} beyond run at "
                     "once)",
                     bench.cache_file.empty() ? "" : " " + bench.cache_file, bench.runtime_library,
                     bench.measured_at, bench.machine.empty() ? "" : " on " + bench.machine,
                     threads_phrase(bench.threads), duration_text(bench.task_s),
                     bench.dispatch_per_chunk_s > 0 ? duration_text(bench.dispatch_per_chunk_s) : "not measured",
                     bench.task_tree_s > 0 ? duration_text(bench.task_tree_s) : "not measured"),
         {}};
}

std::optional<Note> instances_differ_note(const Report& report) {
  Note note{"instances_differ",
            "these regions ran a different number of times at different thread counts, so the runs did different "
            "work (a program that sizes its repetitions by time, or converges in a different number of steps): each "
            "is compared per instance, its time and work at the smallest count scaled by the ratio of the instance "
            "counts; the program's own times are not the same work at each count",
            {}};
  for (const RegionReport& r : report.regions) {
    if (r.kind == report::RegionKind::kSerial || r.nested || r.instances_at.size() < 2) continue;
    const uint64_t n0 = r.instances_at.begin()->second;
    std::vector<std::string> counts;
    bool differ = false;
    for (const auto& [t, n] : r.instances_at) {
      differ = differ || n != n0;
      counts.push_back(fmt::format("{}{} at {}", n, counts.empty() ? " instances" : "", threads_phrase(t)));
    }
    if (differ) note.items.push_back(fmt::format("{}: {}", region_place(r), fmt::join(counts, ", ")));
  }
  if (note.items.empty()) return std::nullopt;
  return note;
}

std::vector<Note> run_notes(const Report& report, const std::vector<MeasuredRun>& runs, std::vector<std::string> negative) {
  std::vector<Note> out;
  // Notes of one kind are one note, whatever the number of regions it is about.
  Note instances{"sampled_instances",
                 "adaptive sampling: these regions were recorded in full on only some of their instances; their "
                 "causes are measured on those and scaled to all instances (OMPSCOPE_SAMPLING=off records every one)",
                 {}};
  Note tasks{"sampled_tasks",
             "adaptive sampling: these regions ran more tasks than were recorded in full; each thread counted the "
             "others, and their time is the count times the mean body recorded on the same thread "
             "(OMPSCOPE_SAMPLING=off records every one)",
             {}};
  Note subtrees{"sampled_subtrees",
                "adaptive sampling: in these regions sampled-out tasks created sampled-out tasks (a recursive task "
                "tree): those subtrees are missing from the task graph's span, so its parallelism is an upper bound, "
                "and their bodies are estimated from the tree's first subtrees, recorded in full, by the tasks each "
                "sampled-out task created (OMPSCOPE_SAMPLING=off records every one)",
                {}};
  Note locks{"sampled_locks",
             "adaptive sampling: these regions took more locks than were recorded (per thread and group of acquiring sites: "
             "the first 1000, then one in 16, 32, ... up to one in 65536); the others are counted exactly and their "
             "times scaled from the recorded ones (OMPSCOPE_SAMPLING=off records every one)",
             {}};
  Note dropped{"dropped_events", "events were dropped: the log could not grow (disk full?)", {}};
  for (const RegionReport& r : report.regions) {
    if (r.recorded_instances_at.empty()) continue;
    const auto& [t, recorded] = *r.recorded_instances_at.rbegin();
    instances.items.push_back(fmt::format("{}: {} of {} instances at {}", region_place(r), recorded,
                                          r.instances_at.at(t), threads_phrase(t)));
  }
  for (const RegionReport& r : report.regions) {
    // Lock sampling: the largest count's lock cause says how many operations were recorded.
    for (auto p = r.problems.rbegin(); p != r.problems.rend(); ++p) {
      if (p->kind.cause().family != report::CauseFamily::kLock) continue;
      const double ops = report::detail_of(*p, report::detail_key::kAcquisitions);
      const double recorded = report::detail_of(*p, report::detail_key::kRecordedAcquisitions);
      if (recorded > 0 && recorded < ops)
        locks.items.push_back(fmt::format("{}: {:.0f} locks at {}, {:.0f} recorded", region_place(r), ops,
                                          threads_phrase(p->threads), recorded));
      break;
    }
  }
  for (const RegionReport& r : report.regions) {
    if (r.tasks.empty()) continue;
    const auto& [t, s] = *r.tasks.rbegin();
    if (s.recorded_tasks >= s.tasks) continue;
    tasks.items.push_back(fmt::format("{}: {:.0f} tasks at {}, {:.0f} recorded in full", region_place(r), s.tasks,
                                      threads_phrase(t), s.recorded_tasks));
    if (s.hidden_subtree_tasks > 0)
      subtrees.items.push_back(fmt::format("{}: {:.0f} such tasks", region_place(r), s.hidden_subtree_tasks));
  }
  for (const MeasuredRun& run : runs)
    if (run.record.dropped_events > 0)
      dropped.items.push_back(fmt::format("{} in the run at {} (repeat {})", run.record.dropped_events,
                                          threads_phrase(run.record.threads), run.record.repeat));
  // The lock calibrations where they disagree (docs/locks.md, "The floor"): the recorded
  // acquisitions, less the tool's own time, came out below one uncontended atomic at the median.
  for (const MeasuredRun& run : runs) {
    if (!run.analysis) continue;
    const LockCalibration& c = run.analysis->lock_calibration;
    if (c.atomic_floor_s <= 0 || c.recorded < 100 || !(c.median_net_s < c.atomic_floor_s)) continue;
    out.push_back(
        {"lock_calibration",
         fmt::format("lock costs: the recorded acquisitions took {} at the median (run at {}), {} once the tool's own "
                     "time per record ({}, measured at start) is taken out: less than one uncontended atomic on this "
                     "machine ({}, measured at start), which no lock acquisition can undercut. The two calibrations "
                     "disagree here (the tool's time took in about what the lock's own atomic adds); {} of {} recorded "
                     "acquisitions are counted at the atomic's cost, the floor, and the gap is trusted only above it",
                     duration_text(c.median_raw_s), threads_phrase(run.record.threads), duration_text(std::max(0.0, c.median_net_s)),
                     duration_text(c.record_gap_s), duration_text(c.atomic_floor_s), c.floored, c.recorded),
         {}});
    break;
  }
  // The machine's state during each run (docs/lost-time.md, "A busy machine"): where the run's
  // threads were switched out while runnable for a tenth of their work or tasks or more (involuntary
  // switches, time off the CPU in the stretches read), or the initial thread waited that long
  // for a CPU in serial code (schedstat's run-queue wait), another process held the CPUs; where
  // the cgroup's CPU quota is below the team, the kernel withheld them (RunRecord::cpu_quota). Said
  // per run; that time is the machine's, named in work_inflation's preempted_s and its barrier
  // waits, never the program's barrier, fork/join or imbalance.
  Note busy{"busy_machine",
            "these runs were taken on a busy machine: their threads waited for a CPU that another process "
            "held or that the cgroup's CPU quota withheld; the time off the CPU in them (work_inflation's "
            "preempted_s and the barrier waits for switched-out threads) is the machine's, not the program's: rerun on idle cores to rank from the program's own time",
            {}};
  for (const MeasuredRun& run : runs) {
    if (!run.analysis) continue;
    // The work stretches and the barrier visits that ran tasks (a task region's bodies run in
    // those: a load that preempted only them went unsaid, and the replay's error was judged on it).
    WorkUsage work;
    for (const ThreadSplit& s : run.analysis->threads) {
      work += s.usage;
      work += s.task_usage;
    }
    const double off_share = work.wall_s > 0 ? work.off_cpu_s() / work.wall_s : 0.0;
    const double queued = run.analysis->serial_usage_read ? run.analysis->serial_runqueue_s : 0.0;
    const double queued_share = run.analysis->serial_s > 0 ? queued / run.analysis->serial_s : 0.0;
    const bool switched = work.switches > 0 && off_share >= kBusyShare;
    const bool others = run.record.others_cpu_share > kBusyOthersShare;
    // A quota below the team: the threads cannot all run at once, whatever the kernel's counters
    // caught (under 1.5 CPUs at 2 threads, a run's switches and time off the CPU were at times
    // under a tenth, and 23% of a dependence program's loss went unexplained, unsaid).
    const bool quota = run.record.cpu_quota > 0 && run.record.threads > run.record.cpu_quota;
    if (!switched && !(queued_share >= kBusyShare) && !others && !quota) continue;
    std::vector<std::string> parts;
    if (quota)
      parts.push_back(fmt::format("the cgroup's CPU quota of {:.3g} CPUs is less than its {}: the kernel stops them "
                                  "for the rest of each period once the quota is spent",
                                  run.record.cpu_quota, threads_phrase(run.record.threads)));
    if (others)
      parts.push_back(fmt::format("other processes used {:.0f}% of the CPUs while it ran", 100 * run.record.others_cpu_share));
    if (switched)
      parts.push_back(fmt::format("threads off their CPU {:.0f}% of their work read ({:.0f} involuntary switches)",
                                  100 * off_share, work.switches));
    if (queued_share >= kBusyShare)
      parts.push_back(fmt::format("the initial thread waited {} for a CPU in serial code ({:.0f}% of it)",
                                  duration_text(queued), 100 * queued_share));
    busy.items.push_back(fmt::format("the run at {} (repeat {}): {}", threads_phrase(run.record.threads),
                                     run.record.repeat, fmt::join(parts, "; ")));
  }
  if (!busy.items.empty()) out.push_back(std::move(busy));
  Note faster{"negative_loss",
              "faster than perfect scaling from the smallest count (a negative time lost, efficiency above 100%): "
              "nothing to win back there, and no cause is given a part of it",
              std::move(negative)};
  for (Note* note : {&instances, &locks, &tasks, &subtrees, &dropped, &faster})
    if (!note->items.empty()) out.push_back(std::move(*note));
  // Said once, whatever the number of runs (docs/lost-time.md, "Hardware counters").
  for (const MeasuredRun& run : runs)
    if (run.analysis && !run.analysis->counters_missing.empty()) {
      out.push_back({"hardware_counters",
                              fmt::format("no usable hardware counters ({}): IPC and cache misses not measured",
                                          run.analysis->counters_missing),
                              {}});
      break;
    }
  return out;
}

}  // namespace ompscope::analysis
