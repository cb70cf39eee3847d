#include "analysis/sampled_findings.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "analysis/duration_text.h"
#include "common/thread_count_phrase.h"

namespace ompscope::analysis {
namespace {

// Work each thread repeats repeats every line of it, each line's time growing with the team. A
// line that held a fifth or more of the base's sampled time (and enough samples to tell:
// kUnrepeatedLineMin) and grew by less than a quarter of what repeating it would add says the
// work was not repeated: its growth is some lines getting slower (work_inflation). gcc's
// `omp for` schedule(static) calls no runtime entry point, so such a loop's time counts as
// outside worksharing; a loop of one function that stayed as fast and another whose atomics
// slowed x3 grew x2.4 together, within the band, and was called replicated work
// (tests/programs/two_functions.c, gcc). Empty: the samples do not contradict it (or none).
constexpr double kUnrepeatedLineShare = 0.2, kUnrepeatedGrowth = 0.25, kUnrepeatedLineMin = 0.03;

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


// A grown line is named in a hint where it holds at least this share of the team's growth: below
// it the growth is spread over the code, and one line would mislead.
constexpr double kGrownLineShare = 0.2;

// The lines whose CPU time grew from the smallest sampled count to the largest, the stacks of the
// largest, and, in the hint of each cause that says the work got slower (work_inflation,
// replicated_work, task_inflation), the line where the time grew most at that count.
void name_grown_lines(report::RegionReport& region, const std::map<int, std::vector<const RunSamples*>>& samples_at) {
  if (samples_at.empty()) return;
  region.stacks = top_stacks(samples_at.rbegin()->second, kStacksKept);
  if (samples_at.size() < 2) return;
  const auto& [t0, base] = *samples_at.begin();
  region.grown_lines = grown_lines(base, samples_at.rbegin()->second, kSampledLinesShown);
  for (report::Problem& p : region.problems) {
    if (!(p.kind == "work_inflation" || p.kind == "replicated_work" || p.kind == "task_inflation")) continue;
    const auto now = samples_at.find(p.threads);
    if (p.threads == t0 || now == samples_at.end()) continue;
    // The program's line that grew most: time that grew in the runtime (threads spinning in a
    // barrier while a peer was descheduled: Rodinia kmeans on a busy VM) or in a library has no
    // line the user can change, and the cause's time is outside waits anyway.
    const std::vector<report::SampledLine> all = grown_lines(base, now->second, SIZE_MAX);
    double growth = 0;
    for (const report::SampledLine& l : all) growth += l.cpu_s;
    const auto top = std::find_if(all.begin(), all.end(), [](const report::SampledLine& l) { return !l.file.empty(); });
    if (top == all.end() || !(growth > 0) || top->cpu_s < kGrownLineShare * growth) continue;
    const report::SampledLine& l = *top;
    const std::string where =
        fmt::format("{}:{}{}", l.file, l.line, l.function.empty() ? "" : fmt::format(" ({})", l.function));
    p.hint += fmt::format(". CPU-time samples place the growth: {} of the team's CPU time more at {} than at {} "
                          "({:.0f}% of the growth the samples saw)",
                          duration_text(l.cpu_s), where, threads_phrase(t0), 100 * l.cpu_s / growth);
    p.details.emplace_back("grown_line_s", l.cpu_s);
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
    p.hint += fmt::format(". CPU-time samples put {:.0f}% of its CPU time at {}:{}{}", 100 * l.cpu_s / at->second.cpu_s,
                          l.file, l.line, l.function.empty() ? "" : fmt::format(" ({})", l.function));
  }
}

}  // namespace ompscope::analysis
