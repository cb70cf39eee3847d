#include "output/html_report_charts.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string_view>

#include "common/thread_count_phrase.h"
#include "output/display_format.h"
#include "output/report_fields.h"
#include "output/scaling_model.h"
#include "output/svg_chart.h"

namespace ompscope::output {

using nlohmann::json;

namespace {

// Beyond this many lines or bar groups a legend stops being readable; the tables list them all.
constexpr std::size_t kPlottedRegions = 8;

// Okabe–Ito: a palette designed to be told apart by readers with colour-vision deficiencies.
constexpr std::array<const char*, 8> kRegionColors{"#0072b2", "#e69f00", "#009e73", "#cc79a7",
                                                   "#56b4e9", "#d55e00", "#7f7f7f", "#b8a000"};
constexpr const char* kProgramColor = "#000";
constexpr const char* kIdealColor = "#888";
constexpr const char* kOversubscribedNote = "* oversubscribed: more threads than cores";
// The lost-time bars take a full row: as wide as the two line charts above them.
constexpr double kFullRowChartWidth = 1136;

const char* region_color(std::size_t index) { return kRegionColors[index % kRegionColors.size()]; }

svg::LineSeries empty_series(std::string label, std::string color, bool dashed = false) {
  svg::LineSeries series;
  series.label = std::move(label);
  series.color = std::move(color);
  series.dashed = dashed;
  return series;
}

// Speedup relative to the smallest count at which the time was measured: T(t0)/T(t).
svg::LineSeries speedup_series(const json& owner, std::string label, std::string color,
                               const std::vector<int>& threads) {
  svg::LineSeries series = empty_series(std::move(label), std::move(color));
  std::optional<double> base_time;
  for (int t : threads) {
    const auto time = at_threads(owner, "time_s", t);
    if (!time || *time <= 0) continue;
    if (!base_time) base_time = time;
    const double speedup = *base_time / *time;
    series.x.push_back(t);
    series.y.push_back(speedup);
    series.tooltips.push_back(fmt::format("{}: {}, speedup {} ({})", series.label, threads_phrase(t),
                                          format_speedup(speedup), format_seconds(*time)));
  }
  return series;
}

// The speedup the owner's fitted model predicts, T(t0)/T_model(t) with the measured T(t0), drawn
// dashed in the measured line's colour and sampled between the counts so its curvature shows.
// Nothing when there is no model, or when between the counts it predicts no time or a speedup
// far above the measured ones: such a curve would rescale the chart and hide the measurements.
std::optional<svg::LineSeries> model_speedup_series(const json& owner, const svg::LineSeries& measured) {
  constexpr int kSamples = 48;
  const auto model = scaling_model(owner);
  if (!model || measured.x.size() < 2) return std::nullopt;
  const auto base_time = at_threads(owner, "time_s", static_cast<int>(measured.x.front()));
  if (!base_time || *base_time <= 0) return std::nullopt;
  const double low = measured.x.front(), high = measured.x.back();
  double ceiling = high / low;  // the ideal line's top
  for (double y : measured.y) ceiling = std::max(ceiling, y);
  svg::LineSeries series = empty_series(measured.label + " (model)", measured.color, true);
  for (int k = 0; k <= kSamples; ++k) {
    const double t = low * std::pow(high / low, static_cast<double>(k) / kSamples);
    const double time = model->at(t);
    if (!(time > 0) || !std::isfinite(time) || *base_time / time > 1.5 * ceiling) return std::nullopt;
    series.x.push_back(t);
    series.y.push_back(*base_time / time);
  }
  return series;
}

svg::LineSeries efficiency_series(const json& owner, std::string label, std::string color,
                                  const std::vector<int>& threads) {
  svg::LineSeries series = empty_series(std::move(label), std::move(color));
  for (int t : threads) {
    const auto efficiency = at_threads(owner, "efficiency", t);
    if (!efficiency) continue;
    series.x.push_back(t);
    series.y.push_back(*efficiency);
    series.tooltips.push_back(
        fmt::format("{}: {}, efficiency {}", series.label, threads_phrase(t), format_percent(*efficiency)));
  }
  return series;
}

svg::LineSeries ideal_series(std::string label, const std::vector<int>& threads, auto ideal_at) {
  svg::LineSeries series = empty_series(std::move(label), kIdealColor, true);
  for (int t : threads) {
    series.x.push_back(t);
    series.y.push_back(ideal_at(t));
  }
  return series;
}

std::string needs_two_counts(const std::string& title, const std::string& css_class) {
  return svg::render_placeholder_chart(title, css_class, "needs ≥2 thread counts");
}

std::string region_function(const json& region) {
  std::string name = string_field(region, "function");
  if (name.empty()) name = region_location(region);
  if (name.empty()) name = string_field(region, "id");
  return name;
}

svg::LineChart thread_line_chart(std::string title, std::string css_class, std::string y_label,
                                 const ChartScope& scope) {
  svg::LineChart chart;
  chart.title = std::move(title);
  chart.css_class = std::move(css_class);
  chart.x_label = "threads";
  chart.y_label = std::move(y_label);
  chart.x_ticks = scope.threads;
  chart.marked_x_ticks = scope.oversubscribed;
  chart.mark_note = kOversubscribedNote;
  return chart;
}

std::string scope_note(const ChartScope& scope) {
  if (scope.plotted_regions.size() < scope.region_count)
    return fmt::format("top {} of {} regions shown", scope.plotted_regions.size(), scope.region_count);
  return {};
}

}  // namespace

ChartScope chart_scope(const json& report) {
  ChartScope scope;
  scope.threads = thread_counts(report);
  scope.oversubscribed = oversubscribed_threads(report);
  if (const json* regions = field(report, "regions"); regions != nullptr && regions->is_array()) {
    scope.region_count = regions->size();
    for (const json& region : *regions) {
      if (scope.plotted_regions.size() == kPlottedRegions) break;
      scope.plotted_regions.push_back(&region);
    }
  }
  return scope;
}

std::string region_chart_label(const json& region, std::size_t rank) {
  return fmt::format("#{} {}", rank, region_function(region));
}

std::string speedup_chart(const json& report, const ChartScope& scope) {
  const std::string title = "Speedup per region";
  if (scope.threads.size() < 2) return needs_two_counts(title, "speedup");
  svg::LineChart chart = thread_line_chart(title, "speedup", fmt::format("speedup over {}", threads_phrase(scope.threads[0])), scope);
  const double base_threads = scope.threads.front();
  chart.series.push_back(ideal_series("ideal", scope.threads, [&](int t) { return t / base_threads; }));
  const auto add_measured_and_model = [&](const json& owner, std::string label, std::string color) {
    chart.series.push_back(speedup_series(owner, std::move(label), std::move(color), scope.threads));
    if (auto model = model_speedup_series(owner, chart.series.back())) chart.series.push_back(std::move(*model));
  };
  if (const json* program = field(report, "program"); program != nullptr && field(*program, "time_s"))
    add_measured_and_model(*program, "whole program", kProgramColor);
  for (std::size_t i = 0; i < scope.plotted_regions.size(); ++i)
    add_measured_and_model(*scope.plotted_regions[i], region_chart_label(*scope.plotted_regions[i], i + 1),
                           region_color(i));
  return svg::render_line_chart(chart);
}

std::string efficiency_chart(const json& report, const ChartScope& scope) {
  const std::string title = "Parallel efficiency per region";
  if (scope.threads.size() < 2) return needs_two_counts(title, "efficiency");
  svg::LineChart chart = thread_line_chart(title, "efficiency", "efficiency (1 = ideal)", scope);
  chart.y_axis_at_least = 1.0;
  chart.series.push_back(ideal_series("ideal", scope.threads, [](int) { return 1.0; }));
  if (const json* program = field(report, "program"); program != nullptr && field(*program, "efficiency"))
    chart.series.push_back(efficiency_series(*program, "whole program", kProgramColor, scope.threads));
  for (std::size_t i = 0; i < scope.plotted_regions.size(); ++i)
    chart.series.push_back(efficiency_series(*scope.plotted_regions[i],
                                             region_chart_label(*scope.plotted_regions[i], i + 1), region_color(i),
                                             scope.threads));
  return svg::render_line_chart(chart);
}

std::string lost_time_chart(const ChartScope& scope) {
  const std::string title = "Lost time by cause";
  double largest = 0;
  std::set<std::string> kinds_present;
  for (const json* region : scope.plotted_regions) {
    for (int t : scope.threads) largest = std::max(largest, at_threads(*region, "time_lost_s", t).value_or(0.0));
    if (const json* problems = field(*region, "problems"); problems != nullptr && problems->is_array()) {
      for (const json& problem : *problems) {
        largest = std::max(largest, number_field(problem, "time_s").value_or(0.0));
        kinds_present.insert(string_field(problem, "kind"));
      }
    }
  }
  if (!(largest > 0))
    return svg::render_placeholder_chart(title, "lost-time", "no lost time was measured");
  const TimeUnit unit = time_unit_for(largest);

  // Stack in one fixed kind order, so a colour sits at the same height in every bar.
  std::vector<std::string> stack_order;
  for (const report::Cause& cause : report::kCauses) stack_order.emplace_back(cause.kind);
  for (const std::string& kind : kinds_present)
    if (std::find(stack_order.begin(), stack_order.end(), kind) == stack_order.end()) stack_order.push_back(kind);

  svg::StackedBarChart chart;
  chart.title = title;
  chart.css_class = "lost-time";
  chart.y_label = fmt::format("lost time ({})", unit.name);
  chart.marker_legend = "time lost (all causes)";
  chart.min_width = kFullRowChartWidth;
  for (std::size_t i = 0; i < scope.plotted_regions.size(); ++i) {
    const json& region = *scope.plotted_regions[i];
    svg::BarGroup group{region_chart_label(region, i + 1), {}};
    const json* problems = field(region, "problems");
    for (int t : scope.threads) {
      svg::StackedBar bar;
      bar.label = fmt::format("{}{}", t, scope.oversubscribed.count(t) ? "*" : "");
      for (const std::string& kind : stack_order) {
        if (problems == nullptr || !problems->is_array()) break;
        for (const json& problem : *problems) {
          if (string_field(problem, "kind") != kind || number_field(problem, "threads") != t) continue;
          const double seconds = number_field(problem, "time_s").value_or(0.0);
          const report::Cause style = cause_style(kind);
          std::string tip = fmt::format("{} at {}: {}", style.label, threads_phrase(t), format_seconds(seconds));
          if (const auto gain = number_field(problem, "gain_s")) tip += fmt::format(", gain {}", format_seconds(*gain));
          bar.segments.push_back({seconds * unit.per_second, std::string(style.color), std::move(tip)});
        }
      }
      if (const auto lost = at_threads(region, "time_lost_s", t)) {
        bar.marker = *lost * unit.per_second;
        bar.marker_tooltip = fmt::format("time lost at {}: {}", threads_phrase(t), format_seconds(*lost));
      }
      group.bars.push_back(std::move(bar));
    }
    chart.groups.push_back(std::move(group));
  }
  for (const report::Cause& cause : report::kCauses)
    if (kinds_present.count(std::string(cause.kind))) chart.legend.push_back({std::string(cause.label), std::string(cause.color)});
  for (const std::string& kind : kinds_present)
    if (report::find_cause(kind) == nullptr) chart.legend.push_back({kind, std::string(report::kUnexplainedColor)});
  std::vector<std::string> notes;
  if (std::any_of(scope.threads.begin(), scope.threads.end(), [&](int t) { return scope.oversubscribed.count(t) > 0; }))
    notes.push_back(kOversubscribedNote);
  if (const std::string note = scope_note(scope); !note.empty()) notes.push_back(note);
  chart.note = fmt::format("{}", fmt::join(notes, "; "));
  return svg::render_stacked_bar_chart(chart);
}

std::string per_thread_chart(const json& region, int threads, bool oversubscribed) {
  struct Part {
    const char* key;
    const char* label;
    const char* color;
  };
  // work_s includes the explicit tasks (task_s): the bar shows them apart, not twice.
  static constexpr std::array<Part, 5> kParts{{{"work_s", "work", "#8cd17d"},
                                               {"task_s", "tasks", "#4e79a7"},
                                               {"barrier_wait_s", "barrier wait", "#e15759"},
                                               {"lock_wait_s", "lock wait", "#b07aa1"},
                                               {"outside_s", "outside", "#d4d4d4"}}};
  const auto seconds_of = [](const json& row, const Part& part) -> std::optional<double> {
    const auto seconds = number_field(row, part.key);
    if (!seconds || std::string_view(part.key) != "work_s") return seconds;
    return std::max(0.0, *seconds - number_field(row, "task_s").value_or(0.0));
  };
  const json* per_thread = field(region, "per_thread");
  const json* rows = per_thread ? field(*per_thread, std::to_string(threads)) : nullptr;
  if (rows == nullptr || !rows->is_array() || rows->empty()) return {};

  double largest = 0;
  for (const json& row : *rows) {
    double total = 0;
    for (const Part& part : kParts) total += seconds_of(row, part).value_or(0.0);
    largest = std::max(largest, total);
  }
  const TimeUnit unit = time_unit_for(largest);
  svg::HorizontalBarChart chart;
  chart.title = fmt::format("Per-thread time at {}{}", threads_phrase(threads), oversubscribed ? " (oversubscribed)" : "");
  chart.css_class = "per-thread";
  chart.x_label = fmt::format("time ({})", unit.name);
  std::set<std::string> parts_present;
  std::size_t position = 0;
  for (const json& row : *rows) {
    const auto thread = number_field(row, "thread");
    svg::StackedBar bar;
    bar.label = fmt::format("thread {}", thread ? static_cast<long long>(*thread) : static_cast<long long>(position));
    const auto tasks_run = number_field(row, "tasks");
    for (const Part& part : kParts) {
      const auto seconds = seconds_of(row, part);
      if (!seconds) continue;
      parts_present.insert(part.key);
      const bool counted = std::string_view(part.key) == "task_s" && tasks_run && *tasks_run > 0;
      bar.segments.push_back({*seconds * unit.per_second, part.color,
                              fmt::format("{}: {} {}{}", bar.label, part.label, format_seconds(*seconds),
                                          counted ? fmt::format(" ({:.0f} tasks)", *tasks_run) : "")});
    }
    chart.rows.push_back(std::move(bar));
    ++position;
  }
  for (const Part& part : kParts)
    if (parts_present.count(part.key)) chart.legend.push_back({part.label, part.color});
  return svg::render_horizontal_bar_chart(chart);
}

}  // namespace ompscope::output
