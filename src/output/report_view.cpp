#include "output/report_view.h"

#include <fmt/format.h>

#include <array>

#include "common/thread_count_phrase.h"
#include "output/display_format.h"
#include "report/findings.h"

namespace ompscope::output {

std::string region_location(const report::RegionReport& region) {
  if (region.file.empty()) return {};
  return region.line > 0 ? fmt::format("{}:{}", region.file, region.line) : region.file;
}

std::string hottest_other_line(const report::ConstructReport& construct, int threads) {
  const auto code = construct.sampled.find(threads);
  if (code == construct.sampled.end() || code->second.lines.empty() || !(code->second.cpu_s > 0)) return {};
  const report::SampledLine& l = code->second.lines.front();
  if (l.line == construct.line && l.file == construct.file) return {};
  return sampled_line_place(l) + " (" + format_percent(l.cpu_s / code->second.cpu_s) + ")";
}

std::string construct_location(const report::ConstructReport& construct) {
  if (construct.kind == report::ConstructKind::kJoinBarrier) return "the region's end";
  if (construct.file.empty()) return short_function(construct.function);
  const auto slash = construct.file.rfind('/');
  const std::string file = slash == std::string::npos ? construct.file : construct.file.substr(slash + 1);
  return construct.line > 0 ? fmt::format("{}:{}", file, construct.line) : file;
}

std::string short_function(std::string_view signature) {
  std::string_view name = signature;
  // Qualifiers after the parameter list belong to the signature, not the name.
  static constexpr std::array<std::string_view, 5> kQualifiers{" const", " volatile", " &&", " &", " noexcept"};
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (std::string_view q : kQualifiers)
      if (name.ends_with(q)) {
        name.remove_suffix(q.size());
        stripped = true;
      }
  }
  if (!name.ends_with(')')) return std::string(signature);
  int depth = 0;
  for (std::size_t i = name.size(); i-- > 0;) {
    if (name[i] == ')') ++depth;
    else if (name[i] == '(' && --depth == 0) {
      if (i == 0) return std::string(signature);  // all of it in parentheses: not a signature
      return std::string(name.substr(0, i));
    }
  }
  return std::string(signature);
}

std::string region_short_name(const report::RegionReport& region) {
  if (!region.function.empty()) return short_function(region.function);
  if (std::string where = region_location(region); !where.empty()) return where;
  return region.id;
}

std::string run_outcome(const report::RunRecord& run) {
  if (run.signal != 0) {
    // A program killed before its first record reached the disk (docs/safety.md, "Processes and signals").
    const auto nothing = run.status.find("nothing captured");
    return fmt::format("killed by signal {}{}", run.signal,
                       nothing == std::string::npos ? std::string() : "; " + run.status.substr(nothing));
  }
  if (run.exit_code != 0) return fmt::format("exit code {}", run.exit_code);
  if (!run.status.empty() && run.status != "ok") return run.status;
  return "ok";
}

std::string note_sentence(const report::Note& note, std::size_t max_items) {
  if (note.items.empty()) return note.text;
  const std::size_t shown = max_items == 0 ? note.items.size() : std::min(max_items, note.items.size());
  std::string text = note.text + ": ";
  for (std::size_t i = 0; i < shown; ++i) text += (i ? "; " : "") + note.items[i];
  if (shown < note.items.size()) text += fmt::format("; and {} more (report.json)", note.items.size() - shown);
  return text;
}

std::string finding_place(const report::Finding& finding) {
  const std::string fn = short_function(finding.function);
  if (finding.file.empty()) return fn.empty() ? "in " + finding.region : fn;
  const auto slash = finding.file.rfind('/');
  std::string where = slash == std::string::npos ? finding.file : finding.file.substr(slash + 1);
  if (finding.line > 0) where += fmt::format(":{}", finding.line);
  return fn.empty() ? "at " + where : fmt::format("at {} in {}", where, fn);
}

std::string certainty_text(const report::Finding& finding) {
  const std::string repeats = fmt::format("{} repeats", finding.repeats);
  const std::string spread = format_seconds(finding.spread_s);
  if (finding.certainty == "firm") return fmt::format("firm: gain over 3× the spread of {} ({})", repeats, spread);
  if (finding.certainty == "likely") return fmt::format("likely: gain above the spread of {} ({})", repeats, spread);
  if (finding.certainty == "within_noise")
    return fmt::format("unsure: gain within the spread of {} ({}); measure more repeats (-r 5)", repeats, spread);
  return "one run: no spread to compare with (ompscope scale -r 3 repeats each count)";
}

std::string findings_heading(const report::Report& report) {
  const int t = report.findings.empty() ? 0 : report.findings.front().threads;
  const auto run = report.program_time_s.find(t);
  return fmt::format("findings at {}{}{}, by the wall time each would save", threads_phrase(t),
                     report.oversubscribed(t) ? " (oversubscribed)" : "",
                     run == report.program_time_s.end() ? std::string()
                                                        : " (the run took " + format_seconds(run->second) + " there)");
}

std::string no_findings_text(const report::Report& report) {
  const int t = report::ranked_count(report);
  if (t == 0) return "findings: none (the report names no thread count)";
  return fmt::format("findings: no cause costs 1% of the run at {}", threads_phrase(t));
}

std::string_view cost_unit(const report::Cause& cause) { return cause.time_in_thread_seconds ? "thread time" : "wall time"; }

std::string rank_legend() {
  return "rank: the region's time lost at that count, T(t) minus perfect scaling from the smallest count, what its "
         "causes explain and what none does together (a region of one count: its largest gain)";
}

std::string gain_legend() {
  return "gain X of Y: X is the wall time the run would save at that thread count if the cause vanished (the "
         "prediction); Y is what the cause cost in the runs, in wall time of the region, or in thread time summed "
         "over the team's threads (marked so), which can exceed the region's time";
}

std::vector<std::string> excerpt_lines(const report::SourceExcerpt& excerpt) {
  if (!excerpt.found()) return {excerpt.missing.empty() ? "source not found: " + excerpt.file : excerpt.missing};
  std::vector<std::string> out;
  const int last = excerpt.first_line + static_cast<int>(excerpt.lines.size()) - 1;
  const std::size_t width = std::to_string(last).size();
  for (std::size_t i = 0; i < excerpt.lines.size(); ++i) {
    const int n = excerpt.first_line + static_cast<int>(i);
    out.push_back(fmt::format("{} {:>{}} | {}", n == excerpt.line ? ">" : " ", n, width, excerpt.lines[i]));
  }
  return out;
}

std::string named_line(const report::SourceExcerpt& excerpt) {
  const int i = excerpt.line - excerpt.first_line;
  if (!excerpt.found() || i < 0 || i >= static_cast<int>(excerpt.lines.size())) return {};
  const std::string& text = excerpt.lines[static_cast<std::size_t>(i)];
  const auto start = text.find_first_not_of(" \t");
  return start == std::string::npos ? std::string() : text.substr(start);
}

}  // namespace ompscope::output
