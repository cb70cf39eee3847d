#include "output/html_report_sections.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "common/thread_count_phrase.h"
#include "output/display_format.h"
#include "output/flame_graph.h"
#include "output/html_escape.h"
#include "output/html_report_charts.h"
#include "output/report_view.h"
#include "output/scaling_model.h"

namespace ompscope::output {

using report::RegionReport;
using report::Report;

namespace {

constexpr const char* kMissing = "—";
constexpr const char* kOversubscribedBadge = "<span class=\"badge oversubscribed\">oversubscribed</span>";

template <typename T>
std::optional<double> at(const std::map<int, T>& values, int t) {
  const auto it = values.find(t);
  if (it == values.end()) return std::nullopt;
  return static_cast<double>(it->second);
}

std::string seconds_or_missing(std::optional<double> seconds) {
  return seconds ? format_seconds(*seconds) : kMissing;
}

// Shown the way a shell would take it back, so a reader can copy it: arguments with spaces or
// shell characters are single-quoted.
std::string shell_quoted(const std::string& argument) {
  if (!argument.empty() && argument.find_first_of(" \t\n'\"\\$`*?;&|<>()[]{}~#!") == std::string::npos)
    return argument;
  std::string quoted = "'";
  for (char c : argument) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string command_text(const Report& report) {
  std::vector<std::string> words;
  for (const std::string& argument : report.command) words.push_back(shell_quoted(argument));
  return fmt::format("{}", fmt::join(words, " "));
}

std::string thread_heading(int threads, bool oversubscribed) {
  return threads_phrase(threads) + (oversubscribed ? kOversubscribedBadge : "");
}

std::string efficiency_cell(std::optional<double> efficiency) {
  if (!efficiency) return fmt::format("<td class=\"num\">{}</td>", kMissing);
  // Tinted so the eye finds the poorly scaling cells first.
  const char* grade = *efficiency >= 0.8 ? "good" : *efficiency >= 0.5 ? "fair" : "poor";
  return fmt::format("<td class=\"num efficiency {}\">{}</td>", grade, format_percent(*efficiency));
}

std::string details_text(const std::vector<std::pair<std::string, double>>& details) {
  std::vector<std::string> parts;
  for (const auto& [key, value] : details) {
    const std::string shown = key.ends_with("_s") ? format_seconds(value) : fmt::format("{:g}", value);
    parts.push_back(fmt::format("<span class=\"detail\">{}: {}</span>", html_escape(key), html_escape(shown)));
  }
  return parts.empty() ? std::string(kMissing) : fmt::format("{}", fmt::join(parts, ", "));
}

// Parallel regions are the rule; any other kind (the "serial" pseudo-region) is tagged.
std::string region_kind_tag(const RegionReport& region) {
  if (region.kind == report::RegionKind::kParallel) return {};
  return fmt::format(" <span class=\"badge kind\">{}</span>", to_string(region.kind));
}

std::string region_anchor(const RegionReport& region, std::size_t rank) {
  return region.id.empty() ? fmt::format("region-rank-{}", rank) : "region-" + region.id;
}

// The short name, with the full signature on hover where they differ.
std::string function_html(const RegionReport& region, const char* css_class) {
  const std::string name = short_function(region.function);
  if (name == region.function)
    return fmt::format("<code class=\"{}\">{}</code>", css_class, html_escape(name));
  return fmt::format("<code class=\"{}\" title=\"{}\">{}</code>", css_class, html_escape(region.function),
                     html_escape(name));
}

// An excerpt as a <pre>, its named line marked; "source not found" where it has none.
std::string source_html(const report::SourceExcerpt& excerpt) {
  if (!excerpt.found())
    return fmt::format("<div class=\"source-missing\">{}</div>\n", html_escape(excerpt_lines(excerpt).front()));
  const std::vector<std::string> lines = excerpt_lines(excerpt);
  std::string html = fmt::format("<pre class=\"source\" title=\"{}\">", html_escape(excerpt.file));
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const bool named = excerpt.first_line + static_cast<int>(i) == excerpt.line;
    html += named ? "<span class=\"named\">" + html_escape(lines[i]) + "</span>" : html_escape(lines[i]);
    html += "\n";
  }
  return html + "</pre>\n";
}

std::string hints_table(const std::vector<report::Problem>& problems, const Report& report) {
  std::string html =
      "<table class=\"hints\"><thead><tr><th>Cause</th><th>Threads</th>"
      "<th title=\"what the cause costs as measured (Y of gain X of Y)\">Cost (Y)</th>"
      "<th title=\"wall time saved if the cause vanished (X of gain X of Y)\">Gain (X)</th>"
      "<th>Hint</th><th>Details</th></tr></thead><tbody>\n";
  for (const report::Problem& problem : problems) {
    const report::Cause& cause = problem.kind.cause();
    html += fmt::format(
        "<tr class=\"hint\" data-kind=\"{}\"><td><span class=\"swatch\" style=\"background:{}\"></span>{}</td>"
        "<td class=\"num\">{}{}</td><td class=\"num\">{} <small>{}</small></td><td class=\"num gain\">{}</td>"
        "<td>{}</td><td>{}</td></tr>\n",
        html_escape(cause.kind), html_escape(cause.color), html_escape(cause.label), problem.threads,
        report.oversubscribed(problem.threads) ? std::string(" ") + kOversubscribedBadge : "",
        format_seconds(problem.time_s), cost_unit(cause), format_seconds(problem.gain_s), html_escape(problem.hint),
        details_text(problem.details));
  }
  return html + "</tbody></table>\n";
}

// The task graph of a tasking region beside its measured speedup, one row per thread count.
std::string tasks_table(const std::map<int, report::TaskSummary>& tasks) {
  std::string html =
      "<table class=\"tasks\"><thead><tr><th>Threads</th><th>Tasks</th><th>Mean body</th>"
      "<th title=\"runtime's cost to hand out a task that was ready\">Dispatch</th>"
      "<th title=\"estimated: OMPT marks a creation by one event, so this is the creator's fastest interval "
      "between two creations, an upper bound\">Creation (est.)</th>"
      "<th title=\"the runtime's cost per task, measured in this run under capture (the tool's own event records "
      "included)\">Per task (this run)</th>"
      "<th title=\"create, run and wait for an empty task: ompscope bench on this machine, without capture "
      "(its cache)\">Per task (ompscope bench)</th><th>Work</th><th>Span</th>"
      "<th title=\"work ÷ span\">Parallelism</th><th title=\"min(threads, parallelism)\">Speedup bound</th>"
      "<th title=\"T(t0)·t0 / T(t)\">Measured speedup</th></tr></thead><tbody>\n";
  for (const auto& [t, s] : tasks) {
    html += fmt::format(
        "<tr class=\"task-row\" data-threads=\"{}\"><td class=\"num\">{}</td><td class=\"num\">{:.0f}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{:.2f}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
        t, t, s.tasks, format_seconds(s.mean_body_s),
        s.dispatch_s > 0 ? format_seconds(s.dispatch_s) : kMissing,
        s.creation_s > 0 ? format_seconds(s.creation_s) : kMissing,
        s.per_task_cost_s > 0 ? format_seconds(s.per_task_cost_s) : kMissing,
        s.bench_task_s > 0 ? format_seconds(s.bench_task_s) : kMissing, format_seconds(s.work_s), format_seconds(s.span_s),
        s.parallelism, format_speedup(s.speedup_bound),
        s.measured_speedup > 0 ? format_speedup(s.measured_speedup) : kMissing);
  }
  return html + "</tbody></table>\n";
}

// The runtime's cost per task at each creation site (docs/tasks.md), one row per count and site,
// at the counts where a site's cost was measured; empty where none was.
std::string task_sites_table(const std::map<int, report::TaskSummary>& tasks) {
  std::string rows;
  for (const auto& [t, s] : tasks)
    for (const report::TaskSiteCost& c : s.sites) {
      if (c.creation_s <= 0 && c.dispatch_s <= 0 && c.release_s <= 0) continue;
      rows += fmt::format(
          "<tr class=\"task-site\" data-threads=\"{}\"><td class=\"num\">{}</td><td><code>{}</code></td>"
          "<td class=\"num\">{:.0f}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
          "<td class=\"num\">{:.1f}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
          t, t, html_escape(c.site), c.tasks, format_seconds(c.mean_body_s),
          c.creation_s > 0 ? format_seconds(c.creation_s) : kMissing, c.depend_items,
          c.dispatch_s > 0 ? format_seconds(c.dispatch_s) : kMissing,
          c.release_s > 0 ? format_seconds(c.release_s) : kMissing);
    }
  if (rows.empty()) return rows;
  return "<table class=\"task-sites\"><thead><tr><th>Threads</th><th>Creation site</th><th>Tasks</th>"
         "<th>Mean body</th><th title=\"upper bound: the creator's code between two constructs and the "
         "registration of the depend items included\">Creation (est.)</th><th>Depend items</th>"
         "<th title=\"a ready task's start on an idle thread\">Dispatch</th>"
         "<th title=\"from the last predecessor's completion to the start, on a thread waiting for it: the "
         "dependence's release and hand-off\">Release</th></tr></thead><tbody>\n" +
         rows + "</tbody></table>\n";
}

// The fitted T(t), then in small print what it means and how well it fits.
std::string model_html(const report::ScalingModel& model) {
  return fmt::format("<code class=\"model-formula\">T(t) ≈ {} s</code><br><span class=\"model-about\">{}</span>",
                     html_escape(model_formula(model)), html_escape(model_about(model)));
}

bool any_region_modelled(const std::vector<RegionReport>& regions) {
  return std::any_of(regions.begin(), regions.end(), [](const RegionReport& region) { return region.model.has_value(); });
}

}  // namespace

std::string header_section(const Report& report) {
  std::string html = "<header id=\"report-header\">\n<h1>ompscope report</h1>\n";
  html += fmt::format("<p class=\"tool\">ompscope {}</p>\n", html_escape(report.version));
  html += "<dl class=\"facts\">\n";
  if (!report.command.empty())
    html += fmt::format("<dt>Command</dt><dd><code class=\"command\">{}</code></dd>\n", html_escape(command_text(report)));
  std::vector<std::string> counts;
  for (int t : report.threads)
    counts.push_back(fmt::format("<span class=\"thread-count{}\">{}{}</span>", report.oversubscribed(t) ? " oversubscribed" : "",
                                 t, report.oversubscribed(t) ? kOversubscribedBadge : ""));
  html += fmt::format("<dt>Thread counts</dt><dd>{}</dd>\n", fmt::join(counts, " "));
  if (report.cores > 0) html += fmt::format("<dt>Cores</dt><dd>{}</dd>\n", report.cores);
  if (!report.runs.empty()) {
    const auto failed =
        std::count_if(report.runs.begin(), report.runs.end(), [](const report::RunRecord& run) { return run.failed(); });
    html += fmt::format("<dt>Runs</dt><dd>{} run{}{}</dd>\n", report.runs.size(), report.runs.size() == 1 ? "" : "s",
                        failed ? fmt::format(", <strong class=\"failed-count\">{} failed</strong>", failed) : "");
  }
  return html + "</dl>\n</header>\n";
}

std::string findings_section(const Report& report) {
  if (report.regions.empty() && report.findings.empty()) return {};
  if (report.findings.empty())
    return fmt::format("<section id=\"findings\">\n<h2>Findings</h2>\n<p class=\"empty\">{}</p>\n</section>\n",
                       html_escape(no_findings_text(report)));
  std::string html = fmt::format("<section id=\"findings\">\n<h2>Findings</h2>\n<p class=\"findings-heading\">{}</p>\n"
                                 "<ol class=\"findings\">\n",
                                 html_escape(findings_heading(report)));
  for (const report::Finding& f : report.findings) {
    const report::Cause& cause = f.kind.cause();
    html += fmt::format(
        "<li class=\"finding\" data-kind=\"{}\" data-region=\"{}\"><div class=\"finding-line\"><span class=\"swatch\" "
        "style=\"background:{}\"></span><strong class=\"cause\">{}</strong> <code class=\"where\" title=\"{}\">{}</code>: "
        "gain <strong class=\"gain\">{}</strong>{} → <span class=\"action\">{}</span> "
        "<span class=\"certainty {}\">[{}]</span></div>\n",
        html_escape(cause.kind), html_escape(f.region), html_escape(cause.color), html_escape(cause.label),
        html_escape(f.file.empty() ? f.function : fmt::format("{}:{}", f.file, f.line)), html_escape(finding_place(f)),
        format_seconds(f.gain_s),
        f.run_share > 0 ? fmt::format(" ({} of the run)", format_percent(f.run_share)) : "", html_escape(f.action),
        html_escape(f.certainty), html_escape(certainty_text(f)));
    if (f.source) html += source_html(*f.source);
    html += "</li>\n";
  }
  return html + fmt::format("</ol>\n<p class=\"legend-note\">{}. The figures below are the evidence.</p>\n</section>\n",
                            html_escape(gain_legend()));
}

std::string runs_section(const Report& report) {
  if (report.runs.empty()) return {};
  // Folded when every run went well: the findings and their evidence come first.
  const auto failed =
      std::count_if(report.runs.begin(), report.runs.end(), [](const report::RunRecord& run) { return run.failed(); });
  std::string html = fmt::format(
      "<section id=\"runs\">\n<details class=\"runs\"{}><summary><h2>Runs</h2> {} run{}{}</summary>\n"
      "<table class=\"runs\"><thead><tr><th>Threads</th><th>Repeat</th>"
      "<th>Wall time</th><th>Status</th><th>Events</th><th>Dropped events</th><th>Log</th></tr></thead><tbody>\n",
      failed ? " open" : "", report.runs.size(), report.runs.size() == 1 ? "" : "s",
      failed ? fmt::format(", {} failed", failed) : std::string(", all ok"));
  for (const report::RunRecord& run : report.runs) {
    const std::string outcome = run_outcome(run);
    html += fmt::format(
        "<tr class=\"run{}\"><td class=\"num\">{}{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"status\">{}</td><td class=\"num\">{}</td><td class=\"num{}\">{}</td><td><code>{}</code></td></tr>\n",
        run.failed() ? " failed" : "", run.threads, report.oversubscribed(run.threads) ? kOversubscribedBadge : "",
        run.repeat, format_seconds(run.wall_s),
        run.failed() ? fmt::format("<strong>failed: {}</strong>", html_escape(outcome)) : html_escape(outcome),
        run.events, run.dropped_events > 0 ? " dropped" : "", run.dropped_events, html_escape(run.log));
  }
  return html + "</tbody></table>\n</details>\n</section>\n";
}

std::string ranks_section(const Report& report) {
  if (report.ranks.empty()) return {};
  if (report.ranks_are_processes) {
    // A program whose processes ran OpenMP code (docs/safety.md, "Processes and signals"): its own first.
    std::string html = fmt::format(
        "<section id=\"processes\">\n<h2>Processes</h2>\n<p>{} processes ran OpenMP code; the other sections show "
        "process 0, the program's own.</p>\n<table class=\"ranks\"><thead><tr><th>Process</th><th>Pid</th>"
        "<th>Command</th><th>Threads</th><th>Time</th><th>OpenMP parallel</th><th>OpenMP serial</th></tr></thead><tbody>\n",
        report.ranks.size());
    for (const report::RankSplit& k : report.ranks)
      for (const auto& [t, time] : k.time_s)
        html += fmt::format("<tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td><code>{}</code></td>"
                            "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
                            "<td class=\"num\">{}</td></tr>\n",
                            k.rank, k.pid, html_escape(k.command), t, format_seconds(time),
                            format_seconds(k.parallel_s.at(t)), format_seconds(k.serial_s.at(t)));
    return html + "</tbody></table>\n</section>\n";
  }
  std::string html = fmt::format(
      "<section id=\"ranks\">\n<h2>MPI ranks</h2>\n<p>{} ranks; the other sections show rank {}, the slowest. "
      "Rank imbalance: max − mean over ranks.</p>\n<table class=\"ranks\"><thead><tr><th>Rank</th><th>Threads</th>"
      "<th>Time</th><th>OpenMP parallel</th><th>OpenMP serial</th><th>MPI</th></tr></thead><tbody>\n",
      report.ranks.size(), report.merged_from_rank);
  for (const report::RankSplit& k : report.ranks)
    for (const auto& [t, time] : k.time_s)
      html += fmt::format("<tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
                          "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
                          k.rank, t, format_seconds(time), format_seconds(k.parallel_s.at(t)),
                          format_seconds(k.serial_s.at(t)), format_seconds(k.mpi_s.at(t)));
  for (const auto& [t, imbalance] : report.rank_imbalance_s)
    html += fmt::format("<tr class=\"imbalance\"><td>imbalance</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
                        "<td colspan=\"3\">of the time outside MPI</td></tr>\n",
                        t, format_seconds(imbalance));
  html += "</tbody></table>\n<table class=\"rank-regions\"><thead><tr><th>Region</th><th>Threads</th>"
          "<th>Rank imbalance</th>";
  for (const report::RankSplit& k : report.ranks) html += fmt::format("<th>Rank {}</th>", k.rank);
  html += "</tr></thead><tbody>\n";
  for (const report::RegionReport& region : report.regions)
    for (const auto& [t, imbalance] : region.rank_imbalance_s) {
      html += fmt::format("<tr><td>{} <code>{}:{}</code></td><td class=\"num\">{}</td><td class=\"num\">{}</td>",
                          html_escape(region.id), html_escape(region.file), region.line, t, format_seconds(imbalance));
      for (const report::RankTime& k : region.ranks) {
        const auto time = k.time_s.find(t);
        const report::Problem* top = nullptr;
        for (const report::Problem& p : k.problems)
          if (p.threads == t && (!top || p.gain_s > top->gain_s)) top = &p;
        const auto mpi = k.mpi_s.find(t);
        html += fmt::format("<td class=\"num\">{}{}{}</td>", time == k.time_s.end() ? "–" : format_seconds(time->second),
                            mpi == k.mpi_s.end() ? "" : fmt::format(" (MPI {})", format_seconds(mpi->second)),
                            top ? fmt::format("<br><small>{} {}</small>", top->kind.name(), format_seconds(top->gain_s))
                                : "");
      }
      html += "</tr>\n";
    }
  return html + "</tbody></table>\n</section>\n";
}

std::string notes_section(const Report& report) {
  if (report.notes.empty()) return {};
  std::string html = "<section id=\"notes\">\n<h2>Notes</h2>\n<ul class=\"notes\">\n";
  for (const report::Note& note : report.notes) {
    if (note.items.empty()) {
      html += fmt::format("<li>{}</li>\n", html_escape(note.text));
      continue;
    }
    html += fmt::format("<li data-kind=\"{}\">{}:<ul>\n", html_escape(note.kind), html_escape(note.text));
    for (const std::string& item : note.items) html += fmt::format("<li>{}</li>\n", html_escape(item));
    html += "</ul></li>\n";
  }
  return html + "</ul>\n</section>\n";
}

std::string program_section(const Report& report) {
  if (report.program_time_s.empty()) return {};
  const bool has_serial = !report.serial_s.empty();
  std::string html = "<section id=\"program-summary\">\n<h2>Whole program</h2>\n";
  html += fmt::format("<table class=\"program\"><thead><tr><th>Threads</th><th>Time</th><th>Efficiency</th>{}</tr></thead><tbody>\n",
                      has_serial ? "<th>Serial code</th>" : "");
  for (int t : report.threads) {
    const auto time = at(report.program_time_s, t);
    std::string serial_cell;
    if (has_serial) {
      const auto serial = at(report.serial_s, t);
      std::string share;
      if (serial && time && *time > 0) share = fmt::format(" ({} of the time)", format_percent(*serial / *time));
      serial_cell = fmt::format("<td class=\"num\">{}{}</td>", seconds_or_missing(serial), share);
    }
    html += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td>{}{}</tr>\n", thread_heading(t, report.oversubscribed(t)),
                        seconds_or_missing(time), efficiency_cell(at(report.program_efficiency, t)), serial_cell);
  }
  html += "</tbody></table>\n";
  if (report.amdahl_speedup_bound > 0)
    html += fmt::format(
        "<p class=\"amdahl\">Serial code{} bounds the program's speedup at <strong>{}</strong> (Amdahl's law).</p>\n",
        report.mpi_s.empty() ? "" : " with the MPI calls outside parallel regions", format_speedup(report.amdahl_speedup_bound));
  if (report.program_model)
    html += fmt::format("<p class=\"model\">Fitted model of the program's time: {}</p>\n", model_html(*report.program_model));
  return html + "</section>\n";
}

std::string regions_section(const Report& report) {
  const std::vector<int>& threads = report.threads;
  std::string html = threads.size() > 1
                         ? "<section id=\"regions\">\n<h2>Regions, ranked by time lost</h2>\n<p class=\"legend-note\">" +
                               html_escape(rank_legend()) + ".</p>\n"
                         : std::string("<section id=\"regions\">\n<h2>Regions, ranked by potential gain</h2>\n");
  if (report.regions.empty()) return html + "<p class=\"empty\">No parallel region was observed.</p>\n</section>\n";
  html +=
      "<div class=\"table-scroll\"><table class=\"regions\"><thead>\n<tr><th rowspan=\"2\">Rank</th>"
      "<th rowspan=\"2\">Location</th><th rowspan=\"2\">Function</th><th rowspan=\"2\">Instances</th>";
  for (int t : threads)
    html += fmt::format("<th colspan=\"3\" class=\"threads-group\">{}</th>", thread_heading(t, report.oversubscribed(t)));
  // The model sums up the measured columns to its left, so it comes last.
  const bool modelled = any_region_modelled(report.regions);
  if (modelled) html += "<th rowspan=\"2\" title=\"fitted over the measured thread counts\">Model of T(t)</th>";
  html += "</tr>\n<tr>";
  for (std::size_t i = 0; i < threads.size(); ++i)
    html += "<th>Time</th><th title=\"parallel efficiency\">Eff.</th><th title=\"time lost\">Lost</th>";
  html += "</tr>\n</thead><tbody>\n";
  std::size_t rank = 0;
  for (const RegionReport& region : report.regions) {
    ++rank;
    html += fmt::format(
        "<tr class=\"region\" data-region=\"{}\"><td class=\"num\"><a href=\"#{}\">#{}</a></td>"
        "<td class=\"location\"><code>{}</code></td><td class=\"function\">{}{}</td><td class=\"num\">{}</td>",
        html_escape(region.id), html_escape(region_anchor(region, rank)), rank, html_escape(region_location(region)),
        function_html(region, "function-name"), region_kind_tag(region), region.instances);
    for (int t : threads)
      html += fmt::format("<td class=\"num\">{}</td>{}<td class=\"num\">{}</td>", seconds_or_missing(at(region.time_s, t)),
                          efficiency_cell(at(region.efficiency, t)), seconds_or_missing(at(region.time_lost_s, t)));
    if (modelled) html += fmt::format("<td class=\"model\">{}</td>", region.model ? model_html(*region.model) : kMissing);
    html += "</tr>\n";
  }
  return html + "</tbody></table></div>\n</section>\n";
}

namespace {

// The construct tree at one count, collapsible: constructs that carry at least 1% of the
// region's time there, or a cause.
std::string construct_items(const std::vector<report::ConstructReport>& constructs, int t, double floor) {
  std::string html;
  for (const report::ConstructReport& c : constructs) {
    const std::optional<double> time = at(c.time_s, t);
    std::string causes;
    for (const report::Problem& p : c.problems)
      if (p.threads == t)
        causes += fmt::format(" <span class=\"badge cause\" title=\"{}\">{} {}</span>", html_escape(p.hint),
                              html_escape(std::string(p.kind.name())), format_seconds(p.gain_s));
    if ((!time || *time < floor) && causes.empty()) continue;
    std::string code;
    if (c.source) {
      const std::string text = c.source->found() ? named_line(*c.source) : excerpt_lines(*c.source).front();
      // The named line beside the construct; on hover, its file and the lines around it.
      std::string around = c.source->file;
      for (const std::string& l : excerpt_lines(*c.source)) around += "\n" + l;
      if (!text.empty())
        code = fmt::format(" <code class=\"source-line\" title=\"{}\">{}</code>", html_escape(around), html_escape(text));
    }
    const std::string hottest = hottest_other_line(c, t);
    const std::string hot =
        hottest.empty() ? "" : " <span class=\"hot-line\">most CPU time at " + html_escape(hottest) + "</span>";
    const std::string line =
        fmt::format("<span class=\"construct-kind\">{}</span> <code>{}</code> {} · {}×{}{}{}", to_string(c.kind),
                    html_escape(construct_location(c)), seconds_or_missing(time), c.instances, causes, code, hot);
    const std::string inner = construct_items(c.constructs, t, floor);
    if (inner.empty())
      html += "<li>" + line + "</li>\n";
    else
      html += "<li><details open><summary>" + line + "</summary>\n<ul>\n" + inner + "</ul></details></li>\n";
  }
  return html;
}

std::string constructs_tree(const RegionReport& region, const Report& report) {
  if (region.constructs.empty() || report.summary_threads.empty()) return {};
  const int t = report.summary_threads.front();
  const std::optional<double> time = at(region.time_s, t);
  if (!time) return {};
  std::string html = fmt::format("<details class=\"constructs\" open><summary>Constructs at {}</summary>\n<ul>\n",
                                 html_escape(threads_phrase(t)));
  html += construct_items(region.constructs, t, 0.01 * *time);
  if (const std::optional<double> rest = at(region.outside_constructs_s, t))
    html += fmt::format("<li class=\"outside\">outside them (own code, fork/join) {}</li>\n", format_seconds(*rest));
  return html + "</ul></details>\n";
}

}  // namespace

namespace {

// Where the region's CPU time went (docs/sampling.md, "Sampled lines"): its top lines at the
// largest count sampled, the lines that grew most, and the flame graph of its stacks.
std::string sampled_code_html(const RegionReport& region) {
  if (region.sampled.empty()) return {};
  const auto& [t, code] = *region.sampled.rbegin();
  if (!(code.cpu_s > 0)) return {};
  std::string html = fmt::format(
      "<h4>Where the CPU time went at {} (CPU-time samples: {} of CPU time)</h4>\n<table class=\"sampled-lines\">"
      "<thead><tr><th>Line</th><th>CPU time</th><th>Share</th>{}</tr></thead><tbody>\n",
      threads_phrase(t), format_seconds(code.cpu_s), region.grown_lines.empty() ? "" : "<th>Growth</th>");
  const auto growth_of = [&](const report::SampledLine& l) -> std::string {
    for (const report::SampledLine& g : region.grown_lines)
      if (g.file == l.file && g.line == l.line && g.function == l.function) return "+" + format_seconds(g.cpu_s);
    return region.grown_lines.empty() ? std::string() : std::string("—");
  };
  for (const report::SampledLine& l : code.lines) {
    const std::string growth = growth_of(l);
    html += fmt::format("<tr><td><code>{}</code></td><td class=\"num\">{}</td><td class=\"num\">{}</td>{}</tr>\n",
                        html_escape(sampled_line_place(l)), format_seconds(l.cpu_s), format_percent(l.cpu_s / code.cpu_s),
                        region.grown_lines.empty() ? "" : fmt::format("<td class=\"num\">{}</td>", growth));
  }
  html += "</tbody></table>\n";
  if (!region.grown_lines.empty()) {
    const int t0 = region.sampled.begin()->first;
    html += fmt::format("<p class=\"legend-note\">Grew most from {} to {}: ", threads_phrase(t0),
                        threads_phrase(t));
    for (size_t i = 0; i < region.grown_lines.size() && i < 3; ++i)
      html += fmt::format("{}<code>{}</code> +{}", i ? ", " : "", html_escape(sampled_line_place(region.grown_lines[i])),
                          format_seconds(region.grown_lines[i].cpu_s));
    html += ".</p>\n";
  }
  if (!region.stacks.empty())
    html += "<div class=\"flame\">" + flame_graph_svg(region.stacks, region.kind == report::RegionKind::kSerial ? "serial code" : region.id) +
            "</div>\n";
  return html;
}

}  // namespace

std::string diagnosis_section(const Report& report) {
  std::string articles;
  std::size_t rank = 0;
  for (const RegionReport& region : report.regions) {
    ++rank;
    if (region.problems.empty() && region.per_thread.empty() && region.tasks.empty() && region.sampled.empty()) continue;
    const std::string location = region_location(region);
    articles += fmt::format("<article class=\"region-detail\" id=\"{}\">\n<h3>#{} {}{}{}</h3>\n",
                            html_escape(region_anchor(region, rank)), rank, function_html(region, "function"),
                            region_kind_tag(region),
                            location.empty() ? "" : fmt::format(" <span class=\"location\">{}</span>", html_escape(location)));
    if (!region.problems.empty()) articles += hints_table(region.problems, report);
    articles += constructs_tree(region, report);
    articles += sampled_code_html(region);
    if (!region.tasks.empty()) {
      articles += "<h4>Explicit tasks: work, span and the speedup they allow</h4>\n" + tasks_table(region.tasks);
      if (const std::string sites = task_sites_table(region.tasks); !sites.empty())
        articles += "<h4>The runtime's cost per task at each creation site</h4>\n" + sites;
    }
    if (!region.per_thread.empty()) {
      articles += "<div class=\"chart-grid\">\n";
      for (const auto& [t, rows] : region.per_thread) articles += per_thread_chart(region, t, report.oversubscribed(t));
      articles += "</div>\n";
    }
    articles += "</article>\n";
  }
  if (articles.empty()) return {};
  return "<section id=\"diagnosis\">\n<h2>Diagnosis and hints per region</h2>\n<p class=\"legend-note\">" +
         html_escape(gain_legend()) + ".</p>\n" + articles + "</section>\n";
}

}  // namespace ompscope::output
