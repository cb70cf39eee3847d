#include "analysis/sampled_findings.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "analysis/duration_text.h"
#include "common/thread_count_phrase.h"

namespace ompscope::analysis {
namespace {

// Work each thread repeats repeats every line of it, each line's time growing with the team. A
// line that held a tenth or more of the base's sampled time (and enough samples to tell:
// kUnrepeatedLineMin, the mean over the repeats) and grew by less than a quarter of what
// repeating it would add says the work was not repeated: its growth is some lines getting slower
// (work_inflation). gcc's `omp for` schedule(static) calls no runtime entry point, so such a
// loop's time counts as outside worksharing; a loop of one function that stayed as fast and
// another whose atomics slowed x3 grew x2.4 together, within the band, and was called replicated
// work (tests/programs/two_functions.c, gcc). Beside another 2-thread program the atomics slowed
// x2 only, the team's CPU time grew x1.8, and the function that stayed as fast held 16% of the
// base: below a fifth, it was not asked, and replicated work was named again. Empty: the samples
// do not contradict it (or none).
constexpr double kUnrepeatedLineShare = 0.1, kUnrepeatedGrowth = 0.25, kUnrepeatedLineMin = 0.03;

}  // namespace

std::string unrepeated_line(const LineTimes& now, const LineTimes& base, double expected) {
  double base_total = 0;
  for (const auto& [key, s] : base) base_total += s;
  if (!(base_total > 0) || now.empty()) return {};
  for (const auto& [key, s] : base) {
    if (s < kUnrepeatedLineShare * base_total || s < kUnrepeatedLineMin) continue;
    const auto at = now.find(key);
    const double grown = (at == now.end() ? 0.0 : at->second) - s;
    if (grown < kUnrepeatedGrowth * (expected - 1) * s)
      return fmt::format("{}:{}", key.first, key.second);
  }
  return {};
}


// A grown line is named in a hint where its growth beyond the rest's holds at least this share of
// the team's growth: below it the growth is spread over the code, and one line would mislead.
constexpr double kGrownLineShare = 0.2;

namespace {

// The program's line whose time grew out of proportion to the rest of the program's lines in the
// region: a host, a clock or a memory bus that slows every line slows each in proportion to its
// time, and the line that took most time then grows most without being the cause (Rodinia kmeans
// on a busy VM: its distance loop, 72% of the time, x1.2, named while the per-thread counters
// that share a cache line grew x15). Each line is measured against the ratio of the others
// (at least 1: lines that got faster excuse none), or against its own time where the others hold
// too little to tell (a loop that is all one line).
struct GrownLine {
  const report::SampledLine* line = nullptr;  // nullptr: none stands out
  double growth_s = 0, ratio = 0, rest_ratio = 1;
};

GrownLine grown_out_of_proportion(const std::map<std::pair<std::string, int>, report::SampledLine>& base,
                                  const std::map<std::pair<std::string, int>, report::SampledLine>& now,
                                  double team_growth) {
  double base_total = 0, now_total = 0;
  for (const auto& [key, l] : base) base_total += l.file.empty() ? 0 : l.cpu_s;
  for (const auto& [key, l] : now) now_total += l.file.empty() ? 0 : l.cpu_s;
  GrownLine best;
  double best_excess = kGrownLineShare * team_growth;
  for (const auto& [key, l] : now) {
    if (l.file.empty()) continue;
    const auto at = base.find(key);
    const double b = at == base.end() ? 0.0 : at->second.cpu_s;
    const double rest_base = base_total - b, rest_now = now_total - l.cpu_s;
    const bool rest_tells = rest_base >= kGrownLineShare * base_total && rest_base >= kUnrepeatedLineMin;
    const double rest_ratio = rest_tells ? std::max(1.0, rest_now / rest_base) : 1.0;
    const double excess = l.cpu_s - b * rest_ratio;
    if (excess < best_excess) continue;
    best_excess = excess;
    best = {&l, l.cpu_s - b, b > 0 ? l.cpu_s / b : 0.0, rest_ratio};
  }
  return best;
}

}  // namespace

// The lines whose CPU time grew from the smallest sampled count to the largest, the stacks of the
// largest, and, in the hint of each cause that says the work got slower (work_inflation,
// replicated_work, task_inflation), the line where the time grew out of proportion at that count.
void name_grown_lines(report::RegionReport& region, const std::map<int, std::vector<const RunSamples*>>& samples_at) {
  if (samples_at.empty()) return;
  region.stacks = top_stacks(samples_at.rbegin()->second, kStacksKept);
  if (samples_at.size() < 2) return;
  const auto& [t0, base] = *samples_at.begin();
  region.grown_lines = grown_lines(base, samples_at.rbegin()->second, kSampledLinesShown);
  const auto base_lines = mean_lines(base);
  for (report::Problem& p : region.problems) {
    if (!p.kind.cause().names_grown_line) continue;
    const auto now = samples_at.find(p.threads);
    if (p.threads == t0 || now == samples_at.end()) continue;
    // Time that grew in the runtime (threads spinning in a barrier while a peer was descheduled)
    // or in a library has no line the user can change, and the cause's time is outside waits
    // anyway: only the program's lines are named, but all growth counts in the share.
    double growth = 0;
    for (const report::SampledLine& l : grown_lines(base, now->second, SIZE_MAX)) growth += l.cpu_s;
    if (!(growth > 0)) continue;
    const auto now_lines = mean_lines(now->second);  // outlives `top`, which points into it
    const GrownLine top = grown_out_of_proportion(base_lines, now_lines, growth);
    if (!top.line) continue;
    const report::SampledLine& l = *top.line;
    const std::string where =
        fmt::format("{}:{}{}", l.file, l.line, l.function.empty() ? "" : fmt::format(" ({})", l.function));
    const std::string ratio = top.ratio > 0 ? fmt::format("x{:.1f}", top.ratio) : "from no sample";
    p.hint += fmt::format(". CPU-time samples place the growth: {} of the team's CPU time more at {} than at {} "
                          "({:.0f}% of the growth the samples saw; {} where the region's other lines grew x{:.2f})",
                          duration_text(top.growth_s), where, threads_phrase(t0), 100 * top.growth_s / growth, ratio,
                          top.rest_ratio);
    p.details.emplace_back("grown_line_s", top.growth_s);
    p.details.emplace_back("sampled_growth_s", growth);
  }
}

// Where serial code spends its CPU time, in its hint, where one line holds a fair share of it.
void name_serial_lines(report::RegionReport& serial) {
  for (report::Problem& p : serial.problems) {
    const auto at = serial.sampled.find(p.threads);
    if (p.kind != "serial_code" || at == serial.sampled.end() || at->second.lines.empty()) continue;
    const report::SampledLine& l = at->second.lines.front();
    if (l.file.empty() || !(l.cpu_s >= kGrownLineShare * at->second.cpu_s)) continue;
    // Where part of it ran before the runtime started (diagnose_serial), the samples saw the rest.
    const bool seen_in_part = report::detail_of(p, report::detail_key::kBeforeRuntimeS) > 0;
    p.hint += fmt::format(". CPU-time samples put {:.0f}% of {} at {}:{}{}", 100 * l.cpu_s / at->second.cpu_s,
                          seen_in_part ? "the CPU time they saw" : "its CPU time", l.file, l.line,
                          l.function.empty() ? "" : fmt::format(" ({})", l.function));
  }
}

}  // namespace ompscope::analysis
