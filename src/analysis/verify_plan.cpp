#include "analysis/verify_plan.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "analysis/statistics.h"
#include "common/error.h"

namespace ompscope::analysis {
namespace {

using report::Problem;
using report::RuntimeSetting;

// glibc maps each block above its mmap threshold (at most 32 MiB on 64-bit) fresh from the kernel
// and unmaps it when freed, and returns heap memory above the trim threshold: with no mmap at all
// and no trimming, a buffer allocated and freed per iteration, of any size, is reused in the heap
// instead of being mapped, faulted in page by page and unmapped each time (alloc_touch_free's
// 36 MiB buffers: 0.12 s -> 0.01 s at 2 threads on the 2-vCPU VM; raising the mmap threshold to
// its 32 MiB limit did nothing for them). The process keeps the memory it freed.
constexpr const char* kMallocTunables = "glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=4294967295";
// Page faults are worth a malloc setting where their time is at least this share of the cause's.
constexpr double kFaultShare = 0.05;

// The setting that addresses a cause on the runtime, if one does.
std::optional<RuntimeSetting> setting_for(const Problem& p, bool gnu) {
  const std::string kind(p.kind.name());
  if (p.kind.cause().family == report::CauseFamily::kLock && !gnu)
    return RuntimeSetting{"KMP_LOCK_KIND=tas",
                          {{"KMP_LOCK_KIND", "tas"}},
                          "libomp's test-and-set lock: the fewest instructions per uncontended acquire and release",
                          {}};
  if (kind == "fork_join_overhead" || kind == "barrier_overhead") {
    if (gnu)
      return RuntimeSetting{"OMP_WAIT_POLICY=active",
                            {{"OMP_WAIT_POLICY", "active"}},
                            "libgomp's threads spin between regions and at barriers instead of sleeping in the kernel",
                            {}};
    return RuntimeSetting{"KMP_BLOCKTIME=infinite",
                          {{"KMP_BLOCKTIME", "infinite"}},
                          "libomp's threads spin between regions and at barriers instead of sleeping in the kernel",
                          {}};
  }
  // Page faults that cost at every count, or whose growth is a share of the team's inflation.
  if (kind == "page_faults" ||
      (kind == "work_inflation" && report::detail_of(p, report::detail_key::kPageFaults) > 0 &&
       report::detail_of(p, report::detail_key::kPageFaultS) >= kFaultShare * p.time_s)) {
    const char* old = getenv("GLIBC_TUNABLES");
    return RuntimeSetting{std::string("GLIBC_TUNABLES=") + kMallocTunables,
                          {{"GLIBC_TUNABLES", old && *old ? std::string(old) + ":" + kMallocTunables : kMallocTunables}},
                          "glibc's malloc keeps freed buffers in its heap and reuses them, instead of mapping fresh pages that "
                          "fault in (the process keeps the memory it freed)",
                          {}};
  }
  return std::nullopt;
}

std::pair<double, double> range_of(const std::vector<double>& v) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return {*lo, *hi};
}

}  // namespace

report::VerifyResult plan_verify(const report::Report& report, const std::string& dir, std::optional<int> threads) {
  report::VerifyResult out;
  out.dir = dir;
  out.command = report.command;
  out.runtime = report.runtime;
  if (report.program_time_s.empty()) throw Error(fmt::format("{}: the report measured no run", dir));
  out.threads = threads ? *threads : report.program_time_s.rbegin()->first;
  if (!report.program_time_s.count(out.threads))
    throw Error(fmt::format("--threads {}: not a count {} measured", out.threads, dir));
  const bool gnu = report.runtime.find("GNU") != std::string::npos;
  for (const report::RegionReport& r : report.regions)
    for (const Problem& p : r.problems) {
      if (p.threads != out.threads || !(p.gain_s > 0)) continue;
      report::VerifyFinding f{p.kind, r.id, r.file, r.function, r.line, p.gain_s, p.hint, -1};
      if (std::optional<RuntimeSetting> s = setting_for(p, gnu)) {
        auto known = std::find_if(out.settings.begin(), out.settings.end(),
                                  [&](const RuntimeSetting& x) { return x.name == s->name; });
        if (known == out.settings.end()) {
          out.settings.push_back(*s);
          known = out.settings.end() - 1;
        }
        f.setting = static_cast<int>(known - out.settings.begin());
      }
      out.findings.push_back(std::move(f));
    }
  std::stable_sort(out.findings.begin(), out.findings.end(), [](const report::VerifyFinding& a, const report::VerifyFinding& b) {
    return a.predicted_gain_s > b.predicted_gain_s;
  });
  return out;
}

void judge_verify(report::VerifyResult& result) {
  result.gains.assign(result.settings.size(), {});
  if (result.baseline_wall_s.empty()) return;
  const double base = median(result.baseline_wall_s);
  const auto [base_lo, base_hi] = range_of(result.baseline_wall_s);
  for (size_t i = 0; i < result.settings.size(); ++i) {
    const std::vector<double>& w = result.settings[i].wall_s;
    if (w.empty()) continue;
    report::SettingGain& g = result.gains[i];
    const auto [lo, hi] = range_of(w);
    g.measured_gain_s = base - median(w);
    g.spread_s = (base_hi - base_lo) + (hi - lo);
    // As diff judges a change (docs/diff.md): the U test where the repeats can reach its level
    // (4 a side; -r 5 by default), else the ranges' rule. lock_per_item's lock kind, +532 ms
    // over 5 interleaved pairs, read "not significant" beside ranges of 565 ms together.
    const bool ranged = result.baseline_wall_s.size() > 1 && w.size() > 1;  // else no spread to judge by
    const Significance s = judge_change(result.baseline_wall_s, w, g.measured_gain_s,
                                        ranged ? std::optional(g.spread_s) : std::nullopt);
    g.p_value = s.p_value;
    g.significant = s.significant;
    for (const report::VerifyFinding& f : result.findings)
      if (f.setting == static_cast<int>(i)) g.predicted_gain_s += f.predicted_gain_s;
  }
}

}  // namespace ompscope::analysis
