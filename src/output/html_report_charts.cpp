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
#include "output/report_view.h"
#include "output/scaling_model.h"
#include "output/svg_chart.h"

namespace ompscope::output {

using report::RegionReport;
using report::Report;

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

// The speedup the analysis computed, S(t) = T(t0)·t0 / T(t), at the counts where it is known.
svg::LineSeries speedup_series(const std::map<int, double>& speedup, const std::map<int, double>& time_s,
                               std::string label, std::string color) {
  svg::LineSeries series = empty_series(std::move(label), std::move(color));
  for (const auto& [t, s] : speedup) {
    series.x.push_back(t);
    series.y.push_back(s);
    const auto time = time_s.find(t);
    series.tooltips.push_back(fmt::format("{}: {}, speedup {}{}", series.label, threads_phrase(t), format_speedup(s),
                                          time != time_s.end() ? " (" + format_seconds(time->second) + ")" : ""));
  }
  return series;
}

// The speedup the owner's fitted model predicts, drawn dashed in the measured line's colour.
std::optional<svg::LineSeries> model_speedup_series(const std::optional<report::ScalingModel>& model,
                                                    const svg::LineSeries& measured) {
  if (!model || model->speedup_curve.empty()) return std::nullopt;
  svg::LineSeries series = empty_series(measured.label + " (model)", measured.color, true);
  for (const auto& [t, s] : model->speedup_curve) {
    series.x.push_back(t);
    series.y.push_back(s);
  }
  return series;
}

svg::LineSeries efficiency_series(const std::map<int, double>& efficiency, std::string label, std::string color,
                                  const std::vector<int>& threads) {
  svg::LineSeries series = empty_series(std::move(label), std::move(color));
  for (int t : threads) {
    const auto e = efficiency.find(t);
    if (e == efficiency.end()) continue;
    series.x.push_back(t);
    series.y.push_back(e->second);
    series.tooltips.push_back(
        fmt::format("{}: {}, efficiency {}", series.label, threads_phrase(t), format_percent(e->second)));
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

ChartScope chart_scope(const Report& report) {
  ChartScope scope;
  scope.threads = report.threads;
  for (int t : report.threads)
    if (report.oversubscribed(t)) scope.oversubscribed.insert(t);
  scope.region_count = report.regions.size();
  for (const RegionReport& region : report.regions) {
    if (scope.plotted_regions.size() == kPlottedRegions) break;
    scope.plotted_regions.push_back(&region);
  }
  return scope;
}

std::string region_chart_label(const RegionReport& region, std::size_t rank) {
  return fmt::format("#{} {}", rank, region_short_name(region));
}

std::string speedup_chart(const Report& report, const ChartScope& scope) {
  const std::string title = "Speedup per region";
  if (scope.threads.size() < 2) return needs_two_counts(title, "speedup");
  svg::LineChart chart = thread_line_chart(title, "speedup", "speedup T(t0)·t0 / T(t)", scope);
  chart.series.push_back(ideal_series("ideal", scope.threads, [](int t) { return static_cast<double>(t); }));
  const auto add_measured_and_model = [&](const std::map<int, double>& speedup, const std::map<int, double>& time_s,
                                          const std::optional<report::ScalingModel>& model, std::string label,
                                          std::string color) {
    chart.series.push_back(speedup_series(speedup, time_s, std::move(label), std::move(color)));
    if (auto curve = model_speedup_series(model, chart.series.back())) chart.series.push_back(std::move(*curve));
  };
  if (!report.program_speedup.empty())
    add_measured_and_model(report.program_speedup, report.program_time_s, report.program_model, "whole program",
                           kProgramColor);
  for (std::size_t i = 0; i < scope.plotted_regions.size(); ++i) {
    const RegionReport& region = *scope.plotted_regions[i];
    add_measured_and_model(region.speedup, region.time_s, region.model, region_chart_label(region, i + 1),
                           region_color(i));
  }
  return svg::render_line_chart(chart);
}

std::string efficiency_chart(const Report& report, const ChartScope& scope) {
  const std::string title = "Parallel efficiency per region";
  if (scope.threads.size() < 2) return needs_two_counts(title, "efficiency");
  svg::LineChart chart = thread_line_chart(title, "efficiency", "efficiency (1 = ideal)", scope);
  chart.y_axis_at_least = 1.0;
  chart.series.push_back(ideal_series("ideal", scope.threads, [](int) { return 1.0; }));
  if (!report.program_efficiency.empty())
    chart.series.push_back(efficiency_series(report.program_efficiency, "whole program", kProgramColor, scope.threads));
  for (std::size_t i = 0; i < scope.plotted_regions.size(); ++i)
    chart.series.push_back(efficiency_series(scope.plotted_regions[i]->efficiency,
                                             region_chart_label(*scope.plotted_regions[i], i + 1), region_color(i),
                                             scope.threads));
  return svg::render_line_chart(chart);
}

std::string lost_time_chart(const ChartScope& scope) {
  const std::string title = "Lost time by cause";
  double largest = 0;
  std::set<std::string_view> kinds_present;
  for (const RegionReport* region : scope.plotted_regions) {
    for (int t : scope.threads)
      if (const auto lost = region->time_lost_s.find(t); lost != region->time_lost_s.end())
        largest = std::max(largest, lost->second);
    for (const report::Problem& problem : region->problems) {
      largest = std::max(largest, problem.gain_s);
      kinds_present.insert(problem.kind.name());
    }
  }
  if (!(largest > 0))
    return svg::render_placeholder_chart(title, "lost-time", "no lost time was measured");
  const TimeUnit unit = time_unit_for(largest);

  svg::StackedBarChart chart;
  chart.title = title;
  chart.css_class = "lost-time";
  chart.y_label = fmt::format("lost time ({})", unit.name);
  chart.marker_legend = "time lost (all causes)";
  chart.min_width = kFullRowChartWidth;
  bool unexplained_present = false;
  for (std::size_t i = 0; i < scope.plotted_regions.size(); ++i) {
    const RegionReport& region = *scope.plotted_regions[i];
    svg::BarGroup group{region_chart_label(region, i + 1), {}};
    for (int t : scope.threads) {
      svg::StackedBar bar;
      bar.label = fmt::format("{}{}", t, scope.oversubscribed.count(t) ? "*" : "");
      // Stacked in the table's order, so a colour sits at the same height in every bar.
      for (const report::Cause& cause : report::kCauses) {
        for (const report::Problem& problem : region.problems) {
          if (problem.kind != cause.kind || problem.threads != t) continue;
          // Each cause's share of the loss (its gain, as capped), so that the bar with the
          // unexplained rest stacks up to the time lost.
          const std::string tip = fmt::format("{} at {}: gain {} (costs {})", cause.label, threads_phrase(t),
                                              format_seconds(problem.gain_s), format_seconds(problem.time_s));
          bar.segments.push_back({problem.gain_s * unit.per_second, std::string(cause.color), tip});
        }
      }
      if (const auto rest = region.unexplained_s.find(t); rest != region.unexplained_s.end() && rest->second > 0) {
        unexplained_present = true;
        bar.segments.push_back({rest->second * unit.per_second, std::string(report::kUnexplainedColor),
                                fmt::format("unexplained at {}: {} (no cause measured covers it)", threads_phrase(t),
                                            format_seconds(rest->second))});
      }
      if (const auto lost = region.time_lost_s.find(t); lost != region.time_lost_s.end()) {
        bar.marker = lost->second * unit.per_second;
        bar.marker_tooltip = fmt::format("time lost at {}: {}", threads_phrase(t), format_seconds(lost->second));
      }
      group.bars.push_back(std::move(bar));
    }
    chart.groups.push_back(std::move(group));
  }
  for (const report::Cause& cause : report::kCauses)
    if (kinds_present.count(cause.kind)) chart.legend.push_back({std::string(cause.label), std::string(cause.color)});
  if (unexplained_present) chart.legend.push_back({"unexplained", std::string(report::kUnexplainedColor)});
  std::vector<std::string> notes;
  if (std::any_of(scope.threads.begin(), scope.threads.end(), [&](int t) { return scope.oversubscribed.count(t) > 0; }))
    notes.push_back(kOversubscribedNote);
  if (const std::string note = scope_note(scope); !note.empty()) notes.push_back(note);
  chart.note = fmt::format("{}", fmt::join(notes, "; "));
  return svg::render_stacked_bar_chart(chart);
}

std::string per_thread_chart(const RegionReport& region, int threads, bool oversubscribed) {
  struct Part {
    const char* label;
    const char* color;
    double (*seconds)(const report::ThreadSplit&);
  };
  // work_s includes the explicit tasks (task_s): the bar shows them apart, not twice.
  static constexpr std::array<Part, 6> kParts{{
      {"work", "#8cd17d", [](const report::ThreadSplit& s) { return std::max(0.0, s.work_s - s.task_s); }},
      {"tasks", "#4e79a7", [](const report::ThreadSplit& s) { return s.task_s; }},
      {"barrier wait", "#e15759", [](const report::ThreadSplit& s) { return s.barrier_wait_s; }},
      {"lock wait", "#b07aa1", [](const report::ThreadSplit& s) { return s.lock_wait_s; }},
      {"MPI", "#f28e2b", [](const report::ThreadSplit& s) { return s.mpi_s; }},  // where a thread called MPI
      {"outside", "#d4d4d4", [](const report::ThreadSplit& s) { return s.outside_s; }},
  }};
  const auto rows = region.per_thread.find(threads);
  if (rows == region.per_thread.end() || rows->second.empty()) return {};

  double largest = 0;
  std::set<std::string_view> parts_present;
  for (const report::ThreadSplit& row : rows->second) {
    double total = 0;
    for (const Part& part : kParts) {
      const double seconds = part.seconds(row);
      total += seconds;
      if (seconds > 0) parts_present.insert(part.label);
    }
    largest = std::max(largest, total);
  }
  const TimeUnit unit = time_unit_for(largest);
  svg::HorizontalBarChart chart;
  chart.title = fmt::format("Per-thread time at {}{}", threads_phrase(threads), oversubscribed ? " (oversubscribed)" : "");
  chart.css_class = "per-thread";
  chart.x_label = fmt::format("time ({})", unit.name);
  for (const report::ThreadSplit& row : rows->second) {
    svg::StackedBar bar;
    bar.label = fmt::format("thread {}", row.thread);
    for (const Part& part : kParts) {
      if (!parts_present.count(part.label)) continue;
      const double seconds = part.seconds(row);
      const bool counted = std::string_view(part.label) == "tasks" && row.tasks > 0;
      bar.segments.push_back({seconds * unit.per_second, part.color,
                              fmt::format("{}: {} {}{}", bar.label, part.label, format_seconds(seconds),
                                          counted ? fmt::format(" ({:.0f} tasks)", row.tasks) : "")});
    }
    chart.rows.push_back(std::move(bar));
  }
  for (const Part& part : kParts)
    if (parts_present.count(part.label)) chart.legend.push_back({part.label, part.color});
  return svg::render_horizontal_bar_chart(chart);
}

}  // namespace ompscope::output
