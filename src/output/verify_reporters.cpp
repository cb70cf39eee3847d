#include "output/verify_reporters.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <cmath>

#include "output/display_format.h"
#include "output/reporters.h"

namespace ompscope::output {
namespace {

std::string where(const report::VerifyFinding& f) {
  if (f.file.empty()) return f.function.empty() ? f.region_id : f.function;
  return fmt::format("{}:{}{}", f.file, f.line, f.function.empty() ? "" : " in " + f.function);
}

std::string text(const report::VerifyResult& r) {
  std::string out = fmt::format("ompscope verify {} at {} threads: {} (on {})\n", r.dir, r.threads,
                                fmt::join(r.command, " "), r.runtime);
  if (!r.settings.empty())
    out += fmt::format("each setting run {} times without the tool, interleaved with the program as it was ({}); "
                       "gain: the median time without the setting less with it, {}\n",
                       r.repeats, r.baseline_wall_s.empty() ? "not run" : format_seconds(r.baseline_wall_s.front()) + " the first time",
                       kSignificanceRule);
  for (size_t i = 0; i < r.settings.size(); ++i) {
    const report::RuntimeSetting& s = r.settings[i];
    out += fmt::format("\n{}: {}\n", s.name, s.why);
    if (i < r.gains.size()) {
      const report::SettingGain& g = r.gains[i];
      const std::string test = g.p_value ? fmt::format("p = {:.3f}, ", *g.p_value) : "";
      out += fmt::format("  measured gain {} (repeats spread {}, {}{}), predicted {}\n", format_signed_seconds(g.measured_gain_s),
                         format_seconds(g.spread_s), test,
                         g.significant ? "significant" : g.p_value ? "not significant" : "within the spread",
                         format_seconds(g.predicted_gain_s));
    }
    for (const report::VerifyFinding& f : r.findings)
      if (f.setting == static_cast<int>(i)) {
        out += fmt::format("    for {} at {}: predicted {}\n", f.kind.cause().label, where(f), format_seconds(f.predicted_gain_s));
        if (i < r.gains.size() && !(r.gains[i].significant && r.gains[i].measured_gain_s > 0))
          out += fmt::format("      not confirmed by the setting: its code change remains: {}\n", f.hint);
      }
  }
  bool header = false;
  for (const report::VerifyFinding& f : r.findings) {
    if (f.setting >= 0) continue;
    if (!header) out += "\nfindings whose fix is a code change (apply it, then compare with `ompscope diff`):\n";
    header = true;
    out += fmt::format("  {} at {}: predicted {}\n    {}\n", f.kind.cause().label, where(f), format_seconds(f.predicted_gain_s),
                       f.hint);
  }
  if (r.findings.empty()) out += "no finding with a gain at this count: nothing to verify\n";
  return out;
}

std::string json(const report::VerifyResult& r) { return report::to_json(r).dump(2) + "\n"; }

constexpr std::array<VerifyReporter, 2> kVerifyReporters{{
    {"json", "verify.json", json},
    {"text", "verify.txt", text},
}};

}  // namespace

std::span<const VerifyReporter> verify_reporters() { return kVerifyReporters; }

const VerifyReporter* find_verify_reporter(std::string_view name) { return find_by_name(verify_reporters(), name); }

}  // namespace ompscope::output
