#include "output/html_report_sections.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "common/thread_count_phrase.h"
#include "output/display_format.h"
#include "output/html_escape.h"
#include "output/html_report_charts.h"
#include "output/report_fields.h"
#include "output/scaling_model.h"

namespace ompscope::output {

using nlohmann::json;

namespace {

constexpr const char* kMissing = "—";
constexpr const char* kOversubscribedBadge = "<span class=\"badge oversubscribed\">oversubscribed</span>";

const json& array_or_empty(const json& object, std::string_view key) {
  static const json empty = json::array();
  const json* value = field(object, key);
  return value != nullptr && value->is_array() ? *value : empty;
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

std::string command_text(const json& report) {
  std::vector<std::string> words;
  for (const json& argument : array_or_empty(report, "command"))
    words.push_back(shell_quoted(argument.is_string() ? argument.get<std::string>() : argument.dump()));
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

std::string details_text(const json& details) {
  if (!details.is_object()) return html_escape(details.is_string() ? details.get<std::string>() : details.dump());
  std::vector<std::string> parts;
  for (const auto& [key, value] : details.items()) {
    std::string shown;
    if (value.is_number() && key.ends_with("_s")) shown = format_seconds(value.get<double>());
    else if (value.is_number_float()) shown = fmt::format("{:g}", value.get<double>());
    else if (value.is_string()) shown = value.get<std::string>();
    else shown = value.dump();
    parts.push_back(fmt::format("<span class=\"detail\">{}: {}</span>", html_escape(key), html_escape(shown)));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

// Parallel regions are the rule; any other kind (the "serial" pseudo-region) is tagged.
std::string region_kind_tag(const json& region) {
  const std::string kind = string_field(region, "kind");
  if (kind.empty() || kind == "parallel") return {};
  return fmt::format(" <span class=\"badge kind\">{}</span>", html_escape(kind));
}

std::string region_anchor(const json& region, std::size_t rank) {
  const std::string id = string_field(region, "id");
  return id.empty() ? fmt::format("region-rank-{}", rank) : "region-" + id;
}

std::string hints_table(const json& problems, const std::set<int>& oversubscribed) {
  std::string html =
      "<table class=\"hints\"><thead><tr><th>Cause</th><th>Threads</th><th>Time</th><th>Gain</th>"
      "<th>Hint</th><th>Details</th></tr></thead><tbody>\n";
  for (const json& problem : problems) {
    const std::string kind = string_field(problem, "kind");
    const report::Cause style = cause_style(kind);
    const auto threads = number_field(problem, "threads");
    const json* details = field(problem, "details");
    html += fmt::format(
        "<tr class=\"hint\" data-kind=\"{}\"><td><span class=\"swatch\" style=\"background:{}\"></span>{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num gain\">{}</td><td>{}</td><td>{}</td></tr>\n",
        html_escape(kind), html_escape(style.color), html_escape(style.label),
        threads ? fmt::format("{}{}", static_cast<long long>(*threads),
                              oversubscribed.count(static_cast<int>(*threads)) ? std::string(" ") + kOversubscribedBadge : "")
                : kMissing,
        seconds_or_missing(number_field(problem, "time_s")), seconds_or_missing(number_field(problem, "gain_s")),
        html_escape(string_field(problem, "hint")), details ? details_text(*details) : "");
  }
  return html + "</tbody></table>\n";
}

// The task graph of a tasking region beside its measured speedup, one row per thread count.
std::string tasks_table(const json& tasks) {
  std::string html =
      "<table class=\"tasks\"><thead><tr><th>Threads</th><th>Tasks</th><th>Mean body</th>"
      "<th title=\"runtime's cost to hand out a task that was ready\">Dispatch</th>"
      "<th title=\"estimated: OMPT marks a creation by one event, so this is the creator's fastest interval "
      "between two creations, an upper bound\">Creation (est.)</th><th>Work</th><th>Span</th>"
      "<th title=\"work ÷ span\">Parallelism</th><th title=\"min(threads, parallelism)\">Speedup bound</th>"
      "<th>Measured speedup</th></tr></thead><tbody>\n";
  std::vector<int> counts;
  for (const auto& [key, value] : tasks.items()) {
    try {
      counts.push_back(std::stoi(key));
    } catch (const std::exception&) {
      // Not a thread count: nothing to show for it.
    }
  }
  std::sort(counts.begin(), counts.end());
  for (int t : counts) {
    const json& s = tasks.at(std::to_string(t));
    const auto count = number_field(s, "count");
    const auto parallelism = number_field(s, "parallelism");
    const auto bound = number_field(s, "speedup_bound");
    const auto measured = number_field(s, "measured_speedup");
    html += fmt::format(
        "<tr class=\"task-row\" data-threads=\"{}\"><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
        t, t, count ? fmt::format("{:.0f}", *count) : kMissing, seconds_or_missing(number_field(s, "mean_body_s")),
        seconds_or_missing(number_field(s, "dispatch_s")), seconds_or_missing(number_field(s, "creation_s")),
        seconds_or_missing(number_field(s, "work_s")), seconds_or_missing(number_field(s, "span_s")),
        parallelism ? fmt::format("{:.2f}", *parallelism) : kMissing, bound ? format_speedup(*bound) : kMissing,
        measured ? format_speedup(*measured) : kMissing);
  }
  return html + "</tbody></table>\n";
}

// The per-thread map's counts in ascending order (its keys are strings, "10" sorts before "2").
std::vector<int> per_thread_counts(const json& region) {
  std::set<int> counts;
  const json* per_thread = field(region, "per_thread");
  if (per_thread == nullptr || !per_thread->is_object()) return {};
  for (const auto& [key, value] : per_thread->items()) {
    try {
      counts.insert(std::stoi(key));
    } catch (const std::exception&) {
      // A key that is not a count has no place on a per-thread axis.
    }
  }
  return {counts.begin(), counts.end()};
}

// The fitted T(t), then in small print what it means and how well it fits.
std::string model_html(const ScalingModel& model) {
  return fmt::format("<code class=\"model-formula\">T(t) ≈ {} s</code><br><span class=\"model-about\">{}</span>",
                     html_escape(model_formula(model)), html_escape(model_about(model)));
}

bool any_region_modelled(const json& regions) {
  return std::any_of(regions.begin(), regions.end(), [](const json& region) { return scaling_model(region).has_value(); });
}

}  // namespace

std::string header_section(const json& report) {
  const std::set<int> oversubscribed = oversubscribed_threads(report);
  std::string html = "<header id=\"report-header\">\n<h1>ompscope report</h1>\n";
  const std::string tool = string_field(report, "tool");
  const std::string version = string_field(report, "version");
  if (!tool.empty() || !version.empty())
    html += fmt::format("<p class=\"tool\">{} {}</p>\n", html_escape(tool), html_escape(version));
  html += "<dl class=\"facts\">\n";
  if (field(report, "command"))
    html += fmt::format("<dt>Command</dt><dd><code class=\"command\">{}</code></dd>\n", html_escape(command_text(report)));
  std::vector<std::string> counts;
  for (int t : thread_counts(report))
    counts.push_back(fmt::format("<span class=\"thread-count{}\">{}{}</span>", oversubscribed.count(t) ? " oversubscribed" : "",
                                 t, oversubscribed.count(t) ? kOversubscribedBadge : ""));
  html += fmt::format("<dt>Thread counts</dt><dd>{}</dd>\n", fmt::join(counts, " "));
  if (const auto cores = number_field(report, "cores"))
    html += fmt::format("<dt>Cores</dt><dd>{}</dd>\n", static_cast<long long>(*cores));
  const json& runs = array_or_empty(report, "runs");
  if (!runs.empty()) {
    const auto failed = std::count_if(runs.begin(), runs.end(), [](const json& run) { return run_outcome(run).failed; });
    html += fmt::format("<dt>Runs</dt><dd>{} run{}{}</dd>\n", runs.size(), runs.size() == 1 ? "" : "s",
                        failed ? fmt::format(", <strong class=\"failed-count\">{} failed</strong>", failed) : "");
  }
  return html + "</dl>\n</header>\n";
}

std::string runs_section(const json& report) {
  const json& runs = array_or_empty(report, "runs");
  if (runs.empty()) return {};
  const std::set<int> oversubscribed = oversubscribed_threads(report);
  std::string html =
      "<section id=\"runs\">\n<h2>Runs</h2>\n<table class=\"runs\"><thead><tr><th>Threads</th><th>Repeat</th>"
      "<th>Wall time</th><th>Status</th><th>Events</th><th>Dropped events</th><th>Log</th></tr></thead><tbody>\n";
  for (const json& run : runs) {
    const RunOutcome outcome = run_outcome(run);
    const auto threads = number_field(run, "threads");
    const auto repeat = number_field(run, "repeat");
    const auto events = number_field(run, "events");
    const auto dropped = number_field(run, "dropped_events");
    const bool is_oversubscribed = threads && oversubscribed.count(static_cast<int>(*threads));
    html += fmt::format(
        "<tr class=\"run{}\"><td class=\"num\">{}{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"status\">{}</td><td class=\"num\">{}</td><td class=\"num{}\">{}</td><td><code>{}</code></td></tr>\n",
        outcome.failed ? " failed" : "", threads ? fmt::format("{}", static_cast<long long>(*threads)) : kMissing,
        is_oversubscribed ? kOversubscribedBadge : "",
        repeat ? fmt::format("{}", static_cast<long long>(*repeat)) : kMissing,
        seconds_or_missing(number_field(run, "wall_s")),
        outcome.failed ? fmt::format("<strong>failed: {}</strong>", html_escape(outcome.description))
                       : html_escape(outcome.description),
        events ? fmt::format("{}", static_cast<long long>(*events)) : kMissing,
        dropped && *dropped > 0 ? " dropped" : "",
        dropped ? fmt::format("{}", static_cast<long long>(*dropped)) : kMissing, html_escape(string_field(run, "log")));
  }
  return html + "</tbody></table>\n</section>\n";
}

std::string notes_section(const json& report) {
  const json& notes = array_or_empty(report, "notes");
  if (notes.empty()) return {};
  std::string html = "<section id=\"notes\">\n<h2>Notes</h2>\n<ul class=\"notes\">\n";
  for (const json& note : notes)
    html += fmt::format("<li>{}</li>\n", html_escape(note.is_string() ? note.get<std::string>() : note.dump()));
  return html + "</ul>\n</section>\n";
}

std::string program_section(const json& report) {
  const json* program = field(report, "program");
  if (program == nullptr) return {};
  const std::set<int> oversubscribed = oversubscribed_threads(report);
  const bool has_serial = field(*program, "serial_s") != nullptr;
  std::string html = "<section id=\"program-summary\">\n<h2>Whole program</h2>\n";
  html += fmt::format("<table class=\"program\"><thead><tr><th>Threads</th><th>Time</th><th>Efficiency</th>{}</tr></thead><tbody>\n",
                      has_serial ? "<th>Serial code</th>" : "");
  for (int t : thread_counts(report)) {
    const auto time = at_threads(*program, "time_s", t);
    std::string serial_cell;
    if (has_serial) {
      const auto serial = at_threads(*program, "serial_s", t);
      std::string share;
      if (serial && time && *time > 0) share = fmt::format(" ({} of the time)", format_percent(*serial / *time));
      serial_cell = fmt::format("<td class=\"num\">{}{}</td>", seconds_or_missing(serial), share);
    }
    html += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td>{}{}</tr>\n",
                        thread_heading(t, oversubscribed.count(t) > 0), seconds_or_missing(time),
                        efficiency_cell(at_threads(*program, "efficiency", t)), serial_cell);
  }
  html += "</tbody></table>\n";
  if (const auto bound = number_field(*program, "amdahl_speedup_bound"))
    html += fmt::format(
        "<p class=\"amdahl\">Serial code bounds the program's speedup at <strong>{}</strong> (Amdahl's law).</p>\n",
        format_speedup(*bound));
  if (const auto model = scaling_model(*program))
    html += fmt::format("<p class=\"model\">Fitted model of the program's time: {}</p>\n", model_html(*model));
  return html + "</section>\n";
}

std::string regions_section(const json& report) {
  const std::vector<int> threads = thread_counts(report);
  const std::set<int> oversubscribed = oversubscribed_threads(report);
  const json& regions = array_or_empty(report, "regions");
  std::string html = "<section id=\"regions\">\n<h2>Regions, ranked by potential gain</h2>\n";
  if (regions.empty()) return html + "<p class=\"empty\">No parallel region was observed.</p>\n</section>\n";
  html +=
      "<div class=\"table-scroll\"><table class=\"regions\"><thead>\n<tr><th rowspan=\"2\">Rank</th>"
      "<th rowspan=\"2\">Location</th><th rowspan=\"2\">Function</th><th rowspan=\"2\">Instances</th>";
  for (int t : threads)
    html += fmt::format("<th colspan=\"3\" class=\"threads-group\">{}</th>", thread_heading(t, oversubscribed.count(t) > 0));
  // The model sums up the measured columns to its left, so it comes last.
  const bool modelled = any_region_modelled(regions);
  if (modelled) html += "<th rowspan=\"2\" title=\"fitted over the measured thread counts\">Model of T(t)</th>";
  html += "</tr>\n<tr>";
  for (std::size_t i = 0; i < threads.size(); ++i) html += "<th>Time</th><th title=\"parallel efficiency\">Eff.</th><th title=\"time lost\">Lost</th>";
  html += "</tr>\n</thead><tbody>\n";
  std::size_t rank = 0;
  for (const json& region : regions) {
    ++rank;
    const auto instances = number_field(region, "instances");
    html += fmt::format(
        "<tr class=\"region\" data-region=\"{}\"><td class=\"num\"><a href=\"#{}\">#{}</a></td>"
        "<td class=\"location\"><code>{}</code></td><td class=\"function\"><code>{}</code>{}</td><td class=\"num\">{}</td>",
        html_escape(string_field(region, "id")), html_escape(region_anchor(region, rank)), rank,
        html_escape(region_location(region)), html_escape(string_field(region, "function")),
        region_kind_tag(region), instances ? fmt::format("{}", static_cast<long long>(*instances)) : kMissing);
    for (int t : threads) {
      html += fmt::format("<td class=\"num\">{}</td>{}<td class=\"num\">{}</td>",
                          seconds_or_missing(at_threads(region, "time_s", t)),
                          efficiency_cell(at_threads(region, "efficiency", t)),
                          seconds_or_missing(at_threads(region, "time_lost_s", t)));
    }
    if (modelled) {
      const auto model = scaling_model(region);
      html += fmt::format("<td class=\"model\">{}</td>", model ? model_html(*model) : kMissing);
    }
    html += "</tr>\n";
  }
  return html + "</tbody></table></div>\n</section>\n";
}

std::string diagnosis_section(const json& report) {
  const std::set<int> oversubscribed = oversubscribed_threads(report);
  std::string articles;
  std::size_t rank = 0;
  for (const json& region : array_or_empty(report, "regions")) {
    ++rank;
    const json& problems = array_or_empty(region, "problems");
    const std::vector<int> per_thread = per_thread_counts(region);
    if (problems.empty() && per_thread.empty() && field(region, "tasks") == nullptr) continue;
    const std::string location = region_location(region);
    articles += fmt::format(
        "<article class=\"region-detail\" id=\"{}\">\n<h3>#{} <code class=\"function\">{}</code>{}{}</h3>\n",
        html_escape(region_anchor(region, rank)), rank, html_escape(string_field(region, "function")),
        region_kind_tag(region),
        location.empty() ? "" : fmt::format(" <span class=\"location\">{}</span>", html_escape(location)));
    if (!problems.empty()) articles += hints_table(problems, oversubscribed);
    if (const json* tasks = field(region, "tasks"); tasks != nullptr && tasks->is_object() && !tasks->empty())
      articles += "<h4>Explicit tasks: work, span and the speedup they allow</h4>\n" + tasks_table(*tasks);
    if (!per_thread.empty()) {
      articles += "<div class=\"chart-grid\">\n";
      for (int t : per_thread) articles += per_thread_chart(region, t, oversubscribed.count(t) > 0);
      articles += "</div>\n";
    }
    articles += "</article>\n";
  }
  if (articles.empty()) return {};
  return "<section id=\"diagnosis\">\n<h2>Diagnosis and hints per region</h2>\n" + articles + "</section>\n";
}

}  // namespace ompscope::output
