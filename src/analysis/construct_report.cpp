#include "analysis/construct_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <set>

#include "analysis/constructs.h"
#include "analysis/duration_text.h"
#include "analysis/region_causes.h"

namespace ompscope::analysis {
namespace {

// A construct's share of a cause below this stays the region's own (spread over balanced loops,
// it is noise: a finding on every loop would point at none).
constexpr double kSmallestShare = 0.1;
// A construct with more than this share of a cause gives the region's cause its hint and place.
constexpr double kMostShare = 0.5;

bool is_task_cause(const report::CauseKind& k) { return k.cause().family == report::CauseFamily::kTask; }
bool costs_around_task_bodies(const report::CauseKind& k) {
  return k == "fine_grained_tasks" || k == "task_creation_bottleneck";
}

}  // namespace

std::string construct_place(const report::ConstructReport& c) {
  SourceLocation where;
  where.file = c.file;
  where.line = c.line;
  where.function = c.function;
  return construct_place(c.kind, where);
}

// Lines kept per construct and count (a region keeps five).
constexpr size_t kConstructLinesKept = 3;

namespace {

// A load_imbalance's schedule prediction (region_causes: details.schedule_gain_s and
// schedule_leaves_s) as `wins` of its gain: where a cause takes a construct's hint, its figures say
// what the hint's percentage says.
void set_schedule_prediction(Problem& p, double wins) {
  std::erase_if(p.details, [](const auto& d) { return d.first == "schedule_gain_s" || d.first == "schedule_leaves_s"; });
  p.details.emplace_back("schedule_gain_s", p.gain_s * wins);
  p.details.emplace_back("schedule_leaves_s", p.gain_s * (1 - wins));
}

}  // namespace

void ConstructReports::add(const std::vector<const RegionRun*>& repeats, int threads, const RegionRun& typical,
                           double to_median, RegionReport& region) {
  // Times and counts from the typical repeat, scaled like the region's split.
  for (const ConstructRun& c : typical.constructs.nodes) {
    auto [it, fresh] = entries_.try_emplace(c.path);
    Entry& e = it->second;
    if (fresh) {
      order_.push_back(c.path);
      e.parent = c.parent >= 0 ? typical.constructs.nodes[c.parent].path : "";
      e.report.kind = c.kind;
      e.report.file = c.where.file;
      e.report.line = c.where.line;
      e.report.function = c.where.function;
    }
    e.report.time_s[threads] = c.time_s * to_median;
    e.report.instances = static_cast<uint64_t>(std::llround(c.instances));
  }
  if (!typical.constructs.nodes.empty())
    region.outside_constructs_s[threads] = typical.constructs.outside_s * to_median;

  // Samples: each construct's lines, means over the repeats (a repeat without it counts none).
  static const RunSamples kNone;
  std::map<std::string, std::vector<const RunSamples*>> samples;
  for (size_t k = 0; k < repeats.size(); ++k)
    for (const ConstructRun& c : repeats[k]->constructs.nodes) {
      auto& v = samples[c.path];
      v.resize(repeats.size(), &kNone);
      v[k] = &c.samples;
    }
  for (const auto& [path, v] : samples) {
    auto e = entries_.find(path);
    if (e == entries_.end() || std::none_of(v.begin(), v.end(), [](const RunSamples* s) { return s->cpu_s > 0; })) continue;
    e->second.report.sampled[threads] = summarize_samples(v, kConstructLinesKept);
  }

  // Each construct diagnosed on its own figures, over the repeats; the region's own code (the
  // barriers no construct owns) as one more.
  std::deque<RegionRun> figures;
  std::map<std::string, std::vector<const RegionRun*>> runs;  // by path; "" the region's own code
  for (const RegionRun* r : repeats) {
    // Only where the region's runtime work outside waits is its lock calls' (region_causes.h).
    const TeamWork team = r->locks.locks.empty() ? TeamWork{} : team_work({r});
    const double region_operations = team.lock_operations;
    const bool lock_calls = lock_call_work_s(team) > 0;
    for (const ConstructRun& c : r->constructs.nodes) {
      RegionRun& f = figures.emplace_back();
      f.phases = c.phases;
      f.locks = c.locks;
      if (report::info(c.kind).mutual_exclusion) {
        f.lock_kinds = {c.kind};
        // The runtime's work around the region's lock calls is the lock sites', by their share of
        // the operations (lock_overhead's second part: region_causes.h, kLockCallMaxS).
        const double share = lock_calls && region_operations > 0 ? c.locks.operations() / region_operations : 0.0;
        if (share > 0)
          for (double s : r->constructs.runtime_work_s) f.constructs.runtime_work_s.push_back(s * share);
      }
      f.profile.time_s = r->profile.time_s;
      f.profile.instances = static_cast<uint64_t>(std::llround(c.instances));
      // A construct of a region made of tasks is advised as that region is (never "or tasks"):
      // the count is all diagnose_region reads of the tasks (gcc_constructs' barrier in its task
      // region was told to hand its work out as tasks, once in four suite runs).
      f.tasks.tasks = r->tasks.tasks;
      runs[c.path].push_back(&f);
    }
    RegionRun& own = figures.emplace_back();
    own.phases = r->constructs.own_phases;
    own.profile.time_s = r->profile.time_s;
    own.tasks.tasks = r->tasks.tasks;
    runs[""].push_back(&own);
  }
  const double time = region.time_s.count(threads) ? region.time_s.at(threads) : 0;
  std::map<std::string, std::vector<Problem>> found;
  for (const auto& [path, rs] : runs) found[path] = diagnose_region(rs, threads, time, std::nullopt, nullptr, dispatch_per_chunk_s_);

  for (Problem& cause : region.problems) {
    if (cause.threads != threads) continue;
    // The construct's own measure of the cause: its gain as diagnosed on its figures; a task
    // cause goes to the task-creation sites by the tasks they created.
    std::map<std::string, double> measure;
    double total = 0;
    if (is_task_cause(cause.kind)) {
      // By the tasks each creation site created; tasks whose site was not recorded are left out
      // (under sampling, the recorded tasks stand for their sites).
      for (const auto& [path, e] : entries_)
        if (e.report.kind == report::ConstructKind::kTask && e.report.function != kUnrecordedTaskSite && e.report.time_s.count(threads)) {
          measure[path] = static_cast<double>(e.report.instances);
          total += measure[path];
        }
    } else {
      for (const auto& [path, problems] : found)
        for (const Problem& p : problems)
          if (p.kind.name() == cause.kind.name()) {
            measure[path] = p.gain_s;
            total += p.gain_s;
          }
    }
    if (!(total > 0)) continue;
    const Problem whole = cause;
    for (const auto& [path, m] : measure) {
      double share = m / total;
      if (path.empty() || share < kSmallestShare) continue;  // the region's own, or noise
      // A construct that the typical repeat did not run (a lock taken in another repeat only)
      // has no place in the tree: its share stays the region's.
      const auto entry = entries_.find(path);
      if (entry == entries_.end() || !entry->second.report.time_s.count(threads)) continue;
      Entry& e = entry->second;
      // A construct carries no more of a cause than its own time: a barrier's release skew
      // lands in the next construct, and a lock's share of the region's lock cause can be
      // measured above its own time. The rest stays the region's (docs/source-locations.md).
      // Not a cause that costs around the tasks' bodies: a task construct's time is its tasks'
      // bodies, and creating and handing out tasks too small for their cost (or waiting for a
      // creator) happens around them, shared by the tasks each site created. Capped, the tinier
      // a tree's tasks the less their own site carried of fine_grained_tasks (BOTS nqueens 11:
      // bodies 93.5 ms per node against 2.46 s of thread time), and the finding stood at the
      // parallel region, not at the task construct its hint changes.
      const double own_time = e.report.time_s.at(threads);
      const double measured_share = share;
      const double largest = std::max(whole.time_s, whole.gain_s);
      if (!costs_around_task_bodies(cause.kind) && largest * share > own_time)
        share = largest > 0 ? std::max(0.0, own_time) / largest : 0;
      if (share < kSmallestShare) continue;
      Problem p = whole;
      const Problem* own_cause = nullptr;
      if (!is_task_cause(cause.kind))
        for (const Problem& own : found[path])
          if (own.kind.name() == cause.kind.name()) {
            own_cause = &own;
            p.hint = own.hint;
            p.details = own.details;
            std::erase_if(p.details, [](const auto& d) { return d.first == "gain_scaled_by"; });
          }
      if (cause.kind == "barrier_overhead")
        p.hint = barrier_overhead_hint(e.report.kind == report::ConstructKind::kBarrier ? "it" : "its barrier", false,
                                       whole.time_s * share / std::max(1.0, static_cast<double>(e.report.instances)));
      p.hint = construct_place(e.report) + ": " + p.hint;
      p.gain_s = whole.gain_s * share;
      p.time_s = whole.time_s * share;
      // A schedule's own prediction, as the hint's percentage says it: that share of the gain
      // shown here (and of the region's, where the region takes this hint).
      const double wins = own_cause && own_cause->gain_s > 0 && report::detail_of(*own_cause, "schedule_gain_s") > 0
                              ? report::detail_of(*own_cause, "schedule_gain_s") / own_cause->gain_s
                              : -1;
      if (wins >= 0) set_schedule_prediction(p, wins);
      p.details.emplace_back("share", share);
      if (share < measured_share) p.details.emplace_back("measured_share", measured_share);
      if (share > kMostShare) {
        cause.hint = share < 0.995 ? fmt::format("{}; this construct carries {:.0f}% of the cause", p.hint, 100 * share) : p.hint;
        if (wins >= 0) set_schedule_prediction(cause, wins);
      }
      e.report.problems.push_back(std::move(p));
    }
    // A task cause that no one node carries (a recursive function creates its tasks at two
    // lines, each of them under several constructs) still names where its tasks are created:
    // the creation sites (each with its share of the recorded tasks), when there are few.
    // (dependency_bound names the sites on its path in its own hint.)
    if (is_task_cause(cause.kind) && cause.kind != "dependency_bound" && cause.hint == whole.hint) {
      std::map<std::string, double> sites;
      for (const auto& [path, m] : measure) sites[construct_place(entries_.at(path).report)] += m / total;
      if (!sites.empty() && sites.size() <= 3) {
        std::vector<std::pair<std::string, double>> ranked(sites.begin(), sites.end());
        std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
        std::string named;
        const std::string_view lead = "the tasks created at ";
        for (size_t k = 0; k < ranked.size(); ++k) {
          std::string_view place = ranked[k].first;
          if (k > 0 && place.starts_with(lead)) place.remove_prefix(lead.size());  // "… at a.c:16 and a.c:18"
          named += fmt::format("{}{}{}", k == 0 ? "" : (k + 1 == ranked.size() ? " and " : ", "), place,
                               ranked.size() > 1 ? fmt::format(" ({:.0f}%)", 100 * ranked[k].second) : "");
        }
        cause.hint = named + ": " + cause.hint;
      }
    }
  }
}

void ConstructReports::finish(RegionReport& region) {
  if (entries_.empty()) return;
  const int largest = region.time_s.empty() ? 0 : region.time_s.rbegin()->first;
  const auto time_at = [largest](const report::ConstructReport& c) {
    auto it = c.time_s.find(largest);
    return it == c.time_s.end() ? 0.0 : it->second;
  };
  std::map<std::string, std::vector<std::string>> children;
  for (const std::string& path : order_) children[entries_.at(path).parent].push_back(path);
  std::function<std::vector<report::ConstructReport>(const std::string&)> build = [&](const std::string& parent) {
    std::vector<report::ConstructReport> out;
    for (const std::string& path : children[parent]) {
      report::ConstructReport c = std::move(entries_.at(path).report);
      c.constructs = build(path);
      out.push_back(std::move(c));
    }
    std::stable_sort(out.begin(), out.end(), [&](const auto& a, const auto& b) { return time_at(a) > time_at(b); });
    return out;
  };
  region.constructs = build("");
}

}  // namespace ompscope::analysis
