#include "output/diff_reporters.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <cmath>

#include "output/display_format.h"
#include "output/reporters.h"
#include "output/html_escape.h"

namespace ompscope::output {
namespace {

using report::CauseChange;
using report::DiffMatch;
using report::RegionDiff;
using report::ReportDiff;

// "-33%" of A's time; "" where A did not run it.
std::string relative(const RegionDiff& d) {
  if (!d.a || !(d.a->time_s > 0)) return "";
  return fmt::format("{:+.0f}%", 100 * d.change_s / d.a->time_s);
}

std::string where(const RegionDiff& d) {
  if (d.kind == "serial") return "(outside parallel regions)";
  const report::DiffSide& s = d.b ? *d.b : *d.a;
  std::string out = fmt::format("{}:{}", s.file, s.line);
  if (d.match == DiffMatch::Moved) out += fmt::format(" (line {} in A)", d.a->line);
  if (!d.function.empty()) out += " in " + d.function;
  return out;
}

std::string verdict(const RegionDiff& d) {
  if (d.p_value)
    return fmt::format("{} (p = {:.3f}, U test over {} and {} repeats; repeats spread {})",
                       d.significant ? "significant" : "not significant", *d.p_value, d.a->repeat_times_s.size(),
                       d.b->repeat_times_s.size(), d.spread_s ? format_seconds(*d.spread_s) : "-");
  if (!d.spread_s) return "no spread (one repeat): not judged";
  return fmt::format("{} (repeats spread {})", d.significant ? "significant" : "within the spread",
                     format_seconds(*d.spread_s));
}

std::string side_time(const std::optional<report::DiffSide>& s) { return s ? format_seconds(s->time_s) : "-"; }

std::string gain_text(const std::optional<double>& g) { return g ? format_seconds(*g) : "-"; }

// Constructs and sampled lines shown under a region in text and HTML (diff.json keeps kDiffPartsShown).
constexpr size_t kPartsInText = 3;

// "loop x.c:25", or a sampled line as the report names it.
std::string part_place(const report::PartChange& p) {
  if (p.kind == "line") return sampled_line_place({p.file, p.line, p.function, "", 0});
  if (p.file.empty()) return p.kind;
  return fmt::format("{} {}:{}", p.kind, p.file.substr(p.file.rfind('/') + 1), p.line);
}

std::string part_time(const std::optional<double>& s) { return s ? format_seconds(*s) : "-"; }

// The parts with a change, largest first, at most `n`.
std::vector<const report::PartChange*> changed(const std::vector<report::PartChange>& parts, size_t n) {
  std::vector<const report::PartChange*> out;
  for (const report::PartChange& p : parts)
    if (p.change_s != 0 && out.size() < n) out.push_back(&p);
  return out;
}

std::string text(const ReportDiff& diff) {
  std::string out = fmt::format("ompscope diff at {} threads\n  A: {}  ({})\n  B: {}  ({})\n", diff.threads,
                                diff.a.name, fmt::join(diff.a.command, " "), diff.b.name, fmt::join(diff.b.command, " "));
  out += fmt::format("change: B's time minus A's; {}\n", kSignificanceRule);
  out += fmt::format("\nprogram: {} -> {}  {} {}  {}\n", side_time(diff.program.a), side_time(diff.program.b),
                     format_signed_seconds(diff.program.change_s), relative(diff.program), verdict(diff.program));
  out += "\nregions by the size of their change:\n";
  for (const RegionDiff& d : diff.regions) {
    const char* only = d.match == DiffMatch::OnlyInA ? "  [only in A]" : d.match == DiffMatch::OnlyInB ? "  [only in B]" : "";
    out += fmt::format("  {}{}\n    {} -> {}  {} {}  {}\n", where(d), only, side_time(d.a), side_time(d.b),
                       format_signed_seconds(d.change_s), relative(d), verdict(d));
    for (const CauseChange& c : d.causes)
      out += fmt::format("      {:<26} gain {} -> {}\n", c.kind.cause().label, gain_text(c.a_gain_s), gain_text(c.b_gain_s));
    for (const auto& [title, parts] : {std::pair{"constructs", &d.constructs}, std::pair{"lines (CPU time, samples)", &d.lines}}) {
      const auto shown = changed(*parts, kPartsInText);
      if (shown.empty()) continue;
      out += fmt::format("      {}:\n", title);
      for (const report::PartChange* p : shown)
        out += fmt::format("        {:<40} {} -> {}  {}\n", part_place(*p), part_time(p->a_s), part_time(p->b_s),
                           format_signed_seconds(p->change_s));
    }
  }
  for (const std::string& n : diff.notes) out += "note: " + n + "\n";
  return out;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csv_number(const std::optional<double>& v) { return v ? fmt::format("{:.9g}", *v) : ""; }

// One row per region, then one per region and cause (the cause column set).
std::string csv(const ReportDiff& diff) {
  std::string out = "threads,kind,file,line,line_a,function,match,cause,a_s,b_s,change_s,spread_s,significant,p_value\n";
  for (const RegionDiff& d : diff.regions) {
    const report::DiffSide& s = d.b ? *d.b : *d.a;
    const std::string head = fmt::format("{},{},{},{},{},{},{}", diff.threads, d.kind, csv_field(s.file), s.line,
                                         d.a ? std::to_string(d.a->line) : "", csv_field(d.function),
                                         report::diff_match_name(d.match));
    out += fmt::format("{},,{},{},{:.9g},{},{},{}\n", head, csv_number(d.a ? std::optional(d.a->time_s) : std::nullopt),
                       csv_number(d.b ? std::optional(d.b->time_s) : std::nullopt), d.change_s, csv_number(d.spread_s),
                       d.significant ? "true" : "false", csv_number(d.p_value));
    for (const CauseChange& c : d.causes)
      out += fmt::format("{},{},{},{},{:.9g},,,\n", head, c.kind.name(), csv_number(c.a_gain_s), csv_number(c.b_gain_s),
                         c.b_gain_s.value_or(0) - c.a_gain_s.value_or(0));
    // Where inside it: the cause column names the construct or the sampled line.
    for (const auto* parts : {&d.constructs, &d.lines})
      for (const report::PartChange& p : *parts)
        out += fmt::format("{},{},{},{},{:.9g},,,\n", head, csv_field((p.kind == "line" ? "" : "construct ") + part_place(p)),
                           csv_number(p.a_s), csv_number(p.b_s), p.change_s);
  }
  return out;
}

std::string html(const ReportDiff& diff) {
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>ompscope diff: {} vs {}</title>\n"
      "<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}"
      "td,th{{border:1px solid #ccc;padding:4px 8px;text-align:left}}td.n{{text-align:right}}"
      ".better{{color:#2a7d2a}}.worse{{color:#b22222}}.causes td{{color:#555;font-size:90%}}</style>\n</head>\n<body>\n"
      "<h1>ompscope diff at {} threads</h1>\n<p>A: <code>{}</code> ({})<br>B: <code>{}</code> ({})</p>\n"
      "<p>change: B's time minus A's; {}.</p>\n",
      html_escape(diff.a.name), html_escape(diff.b.name), diff.threads, html_escape(diff.a.name),
      html_escape(fmt::format("{}", fmt::join(diff.a.command, " "))), html_escape(diff.b.name),
      html_escape(fmt::format("{}", fmt::join(diff.b.command, " "))), html_escape(kSignificanceRule));
  const auto row = [](const std::string& name, const RegionDiff& d) {
    const char* cls = !d.significant ? "" : d.change_s < 0 ? " class=\"better\"" : " class=\"worse\"";
    std::string r = fmt::format("<tr{}><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
                                "<td class=\"n\">{} {}</td><td>{}</td></tr>\n",
                                cls, html_escape(name), report::diff_match_name(d.match), side_time(d.a), side_time(d.b),
                                html_escape(format_signed_seconds(d.change_s)), html_escape(relative(d)), html_escape(verdict(d)));
    for (const CauseChange& c : d.causes)
      r += fmt::format("<tr class=\"causes\"><td colspan=\"2\">&nbsp;&nbsp;{}</td><td class=\"n\">gain {}</td>"
                       "<td class=\"n\">gain {}</td><td></td><td></td></tr>\n",
                       html_escape(std::string(c.kind.cause().label)), html_escape(gain_text(c.a_gain_s)),
                       html_escape(gain_text(c.b_gain_s)));
    for (const auto* parts : {&d.constructs, &d.lines})
      for (const report::PartChange* p : changed(*parts, kPartsInText))
        r += fmt::format("<tr class=\"parts\"><td colspan=\"2\">&nbsp;&nbsp;<code>{}</code></td><td class=\"n\">{}</td>"
                         "<td class=\"n\">{}</td><td class=\"n\">{}</td><td></td></tr>\n",
                         html_escape(part_place(*p)), part_time(p->a_s), part_time(p->b_s),
                         html_escape(format_signed_seconds(p->change_s)));
    return r;
  };
  out += "<table id=\"regions\">\n<tr><th>where</th><th>match</th><th>A</th><th>B</th><th>change</th><th>verdict</th></tr>\n";
  out += row("the whole program", diff.program);
  for (const RegionDiff& d : diff.regions) out += row(where(d), d);
  out += "</table>\n";
  for (const std::string& n : diff.notes) out += "<p class=\"note\">note: " + html_escape(n) + "</p>\n";
  return out + "</body>\n</html>\n";
}

std::string json(const ReportDiff& diff) { return report::to_json(diff).dump(2) + "\n"; }

constexpr std::array<DiffReporter, 4> kDiffReporters{{
    {"json", "diff.json", json},
    {"text", "diff.txt", text},
    {"csv", "diff.csv", csv},
    {"html", "diff.html", html},
}};

}  // namespace

std::span<const DiffReporter> diff_reporters() { return kDiffReporters; }

const DiffReporter* find_diff_reporter(std::string_view name) { return find_by_name(diff_reporters(), name); }

}  // namespace ompscope::output
