#include "analysis/diff_reports.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "analysis/statistics.h"
#include "common/error.h"

namespace ompscope::analysis {
namespace {

using report::CauseChange;
using report::DiffMatch;
using report::DiffSide;
using report::RegionDiff;
using report::RegionReport;
using report::Report;

std::string base_name(const std::string& file) { return std::filesystem::path(file).filename().string(); }

std::vector<int> counts_of(const Report& r) {
  std::vector<int> out;
  for (const auto& [t, time] : r.program_time_s) out.push_back(t);
  return out;
}

std::optional<DiffSide> side_of(const RegionReport& r, int threads) {
  const auto time = r.time_s.find(threads);
  if (time == r.time_s.end()) return std::nullopt;
  DiffSide s{r.id, r.file, r.line, r.instances_at.count(threads) ? r.instances_at.at(threads) : r.instances,
             time->second, std::nullopt, {}};
  if (const auto spread = r.time_spread_s.find(threads); spread != r.time_spread_s.end()) s.spread_s = spread->second;
  if (const auto times = r.repeat_times_s.find(threads); times != r.repeat_times_s.end()) s.repeat_times_s = times->second;
  for (const report::Problem& p : r.problems)
    if (p.threads == threads) s.problems.push_back(p);
  std::sort(s.problems.begin(), s.problems.end(),
            [](const report::Problem& x, const report::Problem& y) { return x.gain_s > y.gain_s; });
  return s;
}

// The change and whether it is significant (docs/diff.md): where both sides ran the region
// enough times, by the U test on their repeats' times; else where it is larger than both sides'
// ranges of repeats together, so that they cannot overlap.
void judge(RegionDiff& d) {
  d.change_s = (d.b ? d.b->time_s : 0.0) - (d.a ? d.a->time_s : 0.0);
  const bool known = (!d.a || d.a->spread_s) && (!d.b || d.b->spread_s);
  if (known) d.spread_s = (d.a ? *d.a->spread_s : 0.0) + (d.b ? *d.b->spread_s : 0.0);
  // A region one side ran alone is judged by the ranges (its times against none).
  const Significance s = d.a && d.b ? judge_change(d.a->repeat_times_s, d.b->repeat_times_s, d.change_s, d.spread_s)
                                    : judge_change({}, {}, d.change_s, d.spread_s);
  d.p_value = s.p_value;
  d.significant = s.significant;
  std::vector<report::CauseKind> kinds;
  for (const auto* side : {&d.a, &d.b})
    if (*side)
      for (const report::Problem& p : (*side)->problems)
        if (std::none_of(kinds.begin(), kinds.end(), [&](report::CauseKind k) { return k.name() == p.kind.name(); })) kinds.push_back(p.kind);
  for (report::CauseKind k : kinds) {
    CauseChange c{k, std::nullopt, std::nullopt};
    const auto gain = [&](const std::optional<DiffSide>& s) -> std::optional<double> {
      if (!s) return std::nullopt;
      for (const report::Problem& p : s->problems)
        if (p.kind.name() == k.name()) return p.gain_s;
      return std::nullopt;
    };
    c.a_gain_s = gain(d.a);
    c.b_gain_s = gain(d.b);
    d.causes.push_back(c);
  }
}

// A construct of a region's tree at `threads`: where it sits (its parents' kinds) and its place.
struct FlatConstruct {
  std::string parents;  // "loop/critical": the kinds above it
  const report::ConstructReport* construct;
  double time_s;
};

void flatten(const std::vector<report::ConstructReport>& constructs, const std::string& parents, int threads,
             std::vector<FlatConstruct>& out) {
  for (const report::ConstructReport& c : constructs) {
    if (const auto time = c.time_s.find(threads); time != c.time_s.end()) out.push_back({parents, &c, time->second});
    flatten(c.constructs, parents + "/" + std::string(to_string(c.kind)), threads, out);
  }
}

// Constructs matched as regions are: the same kind under the same kinds of parents at the same
// line, else the nearest line of that kind there within kMaxLineShift (a changed schedule moves
// a loop's directive a line or two); the rest are on one side only.
std::vector<report::PartChange> match_constructs(const std::vector<FlatConstruct>& a, const std::vector<FlatConstruct>& b) {
  std::vector<report::PartChange> out;
  std::vector<bool> used(b.size(), false), matched(a.size(), false);
  const auto same = [](const FlatConstruct& x, const FlatConstruct& y) {
    return x.parents == y.parents && x.construct->kind == y.construct->kind &&
           base_name(x.construct->file) == base_name(y.construct->file);
  };
  const auto pair = [&](size_t i, size_t j) {
    used[j] = matched[i] = true;
    const report::ConstructReport& c = *b[j].construct;
    out.push_back({std::string(to_string(c.kind)), c.file, c.line, "", a[i].time_s, b[j].time_s});
  };
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = 0; j < b.size() && !matched[i]; ++j)
      if (!used[j] && same(a[i], b[j]) && a[i].construct->line == b[j].construct->line) pair(i, j);
  for (size_t i = 0; i < a.size(); ++i) {
    if (matched[i]) continue;
    size_t found = b.size();
    int nearest = kMaxLineShift + 1;
    for (size_t j = 0; j < b.size(); ++j)
      if (const int shift = std::abs(b[j].construct->line - a[i].construct->line);
          !used[j] && same(a[i], b[j]) && shift < nearest)
        nearest = shift, found = j;
    if (found < b.size()) pair(i, found);
  }
  for (size_t i = 0; i < a.size(); ++i)
    if (!matched[i]) {
      const report::ConstructReport& c = *a[i].construct;
      out.push_back({std::string(to_string(c.kind)), c.file, c.line, "", a[i].time_s, std::nullopt});
    }
  for (size_t j = 0; j < b.size(); ++j)
    if (!used[j]) {
      const report::ConstructReport& c = *b[j].construct;
      out.push_back({std::string(to_string(c.kind)), c.file, c.line, "", std::nullopt, b[j].time_s});
    }
  return out;
}

// Each part's change (b − a, an absent side 0), the largest kDiffPartsShown of them.
std::vector<report::PartChange> largest_changes(std::vector<report::PartChange> out) {
  for (report::PartChange& p : out) p.change_s = p.b_s.value_or(0.0) - p.a_s.value_or(0.0);
  std::stable_sort(out.begin(), out.end(), [](const report::PartChange& x, const report::PartChange& y) {
    return std::abs(x.change_s) > std::abs(y.change_s);
  });
  if (out.size() > report::kDiffPartsShown) out.resize(report::kDiffPartsShown);
  return out;
}

// Where inside a region both sides ran the time changed: its constructs and its sampled lines.
void compare_insides(RegionDiff& d, const RegionReport& a, const RegionReport& b, int threads) {
  std::vector<FlatConstruct> left, right;
  flatten(a.constructs, "", threads, left);
  flatten(b.constructs, "", threads, right);
  d.constructs = largest_changes(match_constructs(left, right));
  std::map<std::string, report::PartChange> lines;
  for (const auto& [side, a_side] : {std::pair{&a, true}, std::pair{&b, false}}) {
    const auto code = side->sampled.find(threads);
    if (code == side->sampled.end()) continue;
    for (const report::SampledLine& l : code->second.lines) {
      report::PartChange& p = lines[fmt::format("{}:{}:{}", base_name(l.file), l.line, l.file.empty() ? l.function : "")];
      p.kind = "line";
      p.file = l.file;
      p.line = l.line;
      p.function = l.function;
      (a_side ? p.a_s : p.b_s) = l.cpu_s;
    }
  }
  std::vector<report::PartChange> line_changes;
  for (auto& [key, p] : lines) line_changes.push_back(std::move(p));
  d.lines = largest_changes(std::move(line_changes));
}

}  // namespace

report::ReportDiff diff_reports(const Report& a, const std::string& a_name, const Report& b, const std::string& b_name,
                                std::optional<int> threads) {
  report::ReportDiff out;
  out.a = {a_name, a.command, a.runtime, counts_of(a)};
  out.b = {b_name, b.command, b.runtime, counts_of(b)};
  std::vector<int> common;
  std::set_intersection(out.a.threads.begin(), out.a.threads.end(), out.b.threads.begin(), out.b.threads.end(),
                        std::back_inserter(common));
  if (common.empty())
    throw Error(fmt::format("{} measured {} threads and {} measured {}: no thread count in common to compare at",
                            a_name, fmt::join(out.a.threads, ","), b_name, fmt::join(out.b.threads, ",")));
  if (threads && std::find(common.begin(), common.end(), *threads) == common.end())
    throw Error(fmt::format("--threads {}: not a count both reports measured ({})", *threads, fmt::join(common, ",")));
  out.threads = threads ? *threads : common.back();
  const int t = out.threads;

  // The whole run.
  out.program.kind = "program";
  for (const auto& [report, side] : {std::pair{&a, &out.program.a}, std::pair{&b, &out.program.b}}) {
    DiffSide s;
    s.time_s = report->program_time_s.at(t);
    // The repeats' range, where more than one run was measured at t (a single run's range is
    // a point, and says nothing of the noise).
    const auto repeats = std::count_if(report->runs.begin(), report->runs.end(),
                                       [&](const report::RunRecord& r) { return r.threads == t && !r.failed(); });
    if (const auto range = report->program_time_range_s.find(t); range != report->program_time_range_s.end() && repeats > 1)
      s.spread_s = range->second.second - range->second.first;
    for (const report::RunRecord& r : report->runs)
      if (r.threads == t && !r.failed() && repeats > 1) s.repeat_times_s.push_back(r.wall_s);
    *side = s;
  }
  judge(out.program);

  // Regions: the same line first, then a moved line in the same function, nearest first.
  std::vector<const RegionReport*> left, right;
  for (const RegionReport& r : a.regions)
    if (r.time_s.count(t)) left.push_back(&r);
  for (const RegionReport& r : b.regions)
    if (r.time_s.count(t)) right.push_back(&r);
  std::vector<bool> right_used(right.size(), false);
  std::vector<std::pair<const RegionReport*, const RegionReport*>> pairs;
  std::vector<DiffMatch> how;
  std::vector<const RegionReport*> unmatched;
  for (const RegionReport* l : left) {
    size_t found = right.size();
    for (size_t i = 0; i < right.size() && found == right.size(); ++i)
      if (!right_used[i] && right[i]->kind == l->kind && base_name(right[i]->file) == base_name(l->file) &&
          right[i]->line == l->line && right[i]->nested == l->nested)
        found = i;
    if (found == right.size()) {
      unmatched.push_back(l);
      continue;
    }
    right_used[found] = true;
    pairs.emplace_back(l, right[found]);
    how.push_back(DiffMatch::SameLine);
  }
  for (const RegionReport* l : unmatched) {
    size_t found = right.size();
    int nearest = kMaxLineShift + 1;
    for (size_t i = 0; i < right.size(); ++i) {
      const RegionReport* r = right[i];
      if (right_used[i] || r->kind != l->kind || base_name(r->file) != base_name(l->file) || r->function != l->function ||
          r->nested != l->nested)
        continue;
      if (const int shift = std::abs(r->line - l->line); shift < nearest) nearest = shift, found = i;
    }
    if (found == right.size()) {
      pairs.emplace_back(l, nullptr);
      how.push_back(DiffMatch::OnlyInA);
      continue;
    }
    right_used[found] = true;
    pairs.emplace_back(l, right[found]);
    how.push_back(DiffMatch::Moved);
  }
  for (size_t i = 0; i < right.size(); ++i)
    if (!right_used[i]) pairs.emplace_back(nullptr, right[i]), how.push_back(DiffMatch::OnlyInB);

  for (size_t i = 0; i < pairs.size(); ++i) {
    const auto [l, r] = pairs[i];
    RegionDiff d;
    d.kind = std::string(to_string((r ? r : l)->kind));
    d.function = (r ? r : l)->function;
    d.match = how[i];
    if (l) d.a = side_of(*l, t);
    if (r) d.b = side_of(*r, t);
    judge(d);
    if (l && r) compare_insides(d, *l, *r, t);
    out.regions.push_back(std::move(d));
  }
  std::stable_sort(out.regions.begin(), out.regions.end(), [](const RegionDiff& x, const RegionDiff& y) {
    return std::abs(x.change_s) > std::abs(y.change_s);
  });

  if (!out.program.spread_s || std::any_of(out.regions.begin(), out.regions.end(), [](const RegionDiff& d) { return !d.spread_s; }))
    out.notes.push_back(fmt::format("a side measured once at {} threads has no spread of repeats: no change there is "
                                    "called significant (measure each with `ompscope scale -r 3` or more)",
                                    t));
  if (a.runtime != b.runtime)
    out.notes.push_back(fmt::format("the two were measured on different runtimes: {} and {}", a.runtime, b.runtime));
  return out;
}

}  // namespace ompscope::analysis
