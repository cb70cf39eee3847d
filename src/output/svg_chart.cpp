#include "output/svg_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "output/display_format.h"
#include "output/html_escape.h"

namespace ompscope::output::svg {
namespace {

// Two charts side by side fit a 1280-pixel window beside the page's margins.
constexpr double kChartWidth = 560;
constexpr double kTitleBaseline = 20;
constexpr double kPlotTop = 36;
// Rough advance of one 12px sans-serif character: enough to lay out legends without a font.
constexpr double kCharWidth = 6.6;
constexpr double kLegendRowHeight = 18;
constexpr std::size_t kLegendLabelChars = 56;
constexpr const char* kAxisColor = "#444";
constexpr const char* kGridColor = "#e4e4e4";

// An axis from 0 to a round maximum with round steps (1, 2 or 5 times a power of ten), so tick
// labels read "0 0.5 1 1.5" rather than "0 0.37 0.74".
struct Axis {
  double max = 1.0;
  double step = 0.2;
};

Axis round_axis(double largest_value) {
  if (!(largest_value > 0.0) || !std::isfinite(largest_value)) return {};
  const double raw_step = largest_value / 5.0;
  const double power = std::pow(10.0, std::floor(std::log10(raw_step)));
  const double fraction = raw_step / power;
  const double nice = fraction <= 1.0 ? 1.0 : fraction <= 2.0 ? 2.0 : fraction <= 5.0 ? 5.0 : 10.0;
  const double step = nice * power;
  return {std::ceil(largest_value / step - 1e-9) * step, step};
}

// Multiplying (not adding) steps keeps 0.1 + 0.1 + 0.1 from drifting past the axis end.
std::vector<double> tick_values(const Axis& axis) {
  std::vector<double> ticks;
  for (int i = 0; i * axis.step <= axis.max + axis.step / 2; ++i) ticks.push_back(i * axis.step);
  return ticks;
}

std::string tick_text(double value) { return fmt::format("{:g}", value); }

std::string svg_open(const std::string& css_class, const std::string& title, double width, double height) {
  return fmt::format(
      "<svg class=\"chart {}\" width=\"{:.0f}\" height=\"{:.0f}\" viewBox=\"0 0 {:.0f} {:.0f}\" role=\"img\" "
      "aria-label=\"{}\">\n<rect class=\"chart-background\" x=\"0\" y=\"0\" width=\"{:.0f}\" height=\"{:.0f}\" "
      "fill=\"#fff\"/>\n<text class=\"chart-title\" x=\"8\" y=\"{}\" font-size=\"14\" font-weight=\"600\">{}</text>\n",
      html_escape(css_class), width, height, width, height, html_escape(title), width, height, kTitleBaseline,
      html_escape(title));
}

std::string tooltip(const std::string& text) {
  return text.empty() ? std::string() : fmt::format("<title>{}</title>", html_escape(text));
}

struct LegendBlock {
  std::string markup;
  double height = 0;
};

// Lays legend entries out left to right, wrapping into rows that fit the width.
LegendBlock legend_block(const std::vector<LegendEntry>& entries, double left, double top, double width) {
  LegendBlock block;
  if (entries.empty()) return block;
  double x = left;
  double row_top = top;
  block.markup += "<g class=\"legend\">\n";
  for (const LegendEntry& entry : entries) {
    const std::string shown = truncate_label(entry.label, kLegendLabelChars);
    const double entry_width = 26 + kCharWidth * static_cast<double>(shown.size()) + 14;
    if (x > left && x + entry_width > left + width) {
      x = left;
      row_top += kLegendRowHeight;
    }
    const double middle = row_top + kLegendRowHeight / 2;
    block.markup += "<g class=\"legend-entry\">";
    if (entry.dashed) {
      block.markup += fmt::format(
          "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"2\" "
          "stroke-dasharray=\"5 3\"/>",
          x, middle, x + 20, middle, html_escape(entry.color));
    } else {
      block.markup += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"20\" height=\"10\" fill=\"{}\"/>", x,
                                  middle - 5, html_escape(entry.color));
    }
    block.markup += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"12\">{}{}</text></g>\n", x + 26,
                                middle + 4, html_escape(shown), shown == entry.label ? "" : tooltip(entry.label));
    x += entry_width;
  }
  block.markup += "</g>\n";
  block.height = row_top + kLegendRowHeight - top;
  return block;
}

std::string y_axis(const Axis& axis, double left, double right, double top, double bottom, const std::string& label) {
  std::string markup = "<g class=\"y-axis\">\n";
  const double height = bottom - top;
  for (double value : tick_values(axis)) {
    const double y = bottom - value / axis.max * height;
    markup += fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\"/>"
        "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"end\">{}</text>\n",
        left, y, right, y, kGridColor, left - 6, y + 4, tick_text(value));
  }
  markup += fmt::format(
      "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"{3}\"/>"
      "<line x1=\"{0:.1f}\" y1=\"{2:.1f}\" x2=\"{4:.1f}\" y2=\"{2:.1f}\" stroke=\"{3}\"/>\n",
      left, top, bottom, kAxisColor, right);
  markup += fmt::format(
      "<text class=\"axis-label\" transform=\"translate(14 {:.1f}) rotate(-90)\" font-size=\"12\" "
      "text-anchor=\"middle\">{}</text>\n</g>\n",
      (top + bottom) / 2, html_escape(label));
  return markup;
}

// Where each thread count sits on the x axis of a line chart.
class ThreadAxis {
 public:
  ThreadAxis(const std::vector<int>& ticks, double left, double right) : left_(left + 16), right_(right - 16) {
    if (ticks.empty()) return;
    low_ = *std::min_element(ticks.begin(), ticks.end());
    high_ = *std::max_element(ticks.begin(), ticks.end());
    logarithmic_ = low_ > 0 && high_ >= 4.0 * low_;
  }

  double position(double threads) const {
    if (high_ <= low_) return (left_ + right_) / 2;
    const double fraction = logarithmic_ ? (std::log2(threads) - std::log2(low_)) / (std::log2(high_) - std::log2(low_))
                                         : (threads - low_) / (high_ - low_);
    return left_ + fraction * (right_ - left_);
  }

 private:
  double left_;
  double right_;
  double low_ = 1;
  double high_ = 1;
  bool logarithmic_ = false;
};

}  // namespace

std::string render_line_chart(const LineChart& chart) {
  constexpr double left = 60, right = kChartWidth - 16, plot_bottom = kPlotTop + 230;
  std::vector<LegendEntry> legend;
  double largest = chart.y_axis_at_least;
  for (const LineSeries& series : chart.series) {
    legend.push_back({series.label, series.color, series.dashed});
    for (double value : series.y) largest = std::max(largest, value);
  }
  const Axis axis = round_axis(largest * 1.05);
  const LegendBlock legend_markup = legend_block(legend, left - 40, plot_bottom + 44, right - left + 40);
  const bool has_marked_tick = std::any_of(chart.x_ticks.begin(), chart.x_ticks.end(),
                                           [&](int tick) { return chart.marked_x_ticks.count(tick) > 0; });
  const double note_top = plot_bottom + 44 + legend_markup.height;
  const double height = note_top + (has_marked_tick && !chart.mark_note.empty() ? 20 : 6);

  std::string markup = svg_open(chart.css_class, chart.title, kChartWidth, height);
  markup += y_axis(axis, left, right, kPlotTop, plot_bottom, chart.y_label);
  const ThreadAxis x_axis(chart.x_ticks, left, right);
  markup += "<g class=\"x-axis\">\n";
  for (int tick : chart.x_ticks) {
    const double x = x_axis.position(tick);
    const bool marked = chart.marked_x_ticks.count(tick) > 0;
    markup += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"{3}\"/>"
        "<text x=\"{0:.1f}\" y=\"{4:.1f}\" font-size=\"11\" text-anchor=\"middle\">{5}{6}</text>\n",
        x, plot_bottom, plot_bottom + 4, kAxisColor, plot_bottom + 17, tick, marked ? "*" : "");
  }
  markup += fmt::format(
      "<text class=\"axis-label\" x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"12\" text-anchor=\"middle\">{}</text>\n</g>\n",
      (left + right) / 2, plot_bottom + 34, html_escape(chart.x_label));

  const auto y_position = [&](double value) { return plot_bottom - value / axis.max * (plot_bottom - kPlotTop); };
  for (const LineSeries& series : chart.series) {
    const std::size_t count = std::min(series.x.size(), series.y.size());
    std::string points;
    for (std::size_t i = 0; i < count; ++i)
      points += fmt::format("{}{:.1f},{:.1f}", i ? " " : "", x_axis.position(series.x[i]), y_position(series.y[i]));
    markup += fmt::format("<g class=\"series\" data-label=\"{}\">", html_escape(series.label));
    markup += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"{}/>", points,
                          html_escape(series.color), series.dashed ? "1.5" : "2.5",
                          series.dashed ? " stroke-dasharray=\"6 4\"" : "");
    if (!series.dashed) {
      for (std::size_t i = 0; i < count; ++i) {
        markup += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"{}\">{}</circle>",
                              x_axis.position(series.x[i]), y_position(series.y[i]), html_escape(series.color),
                              i < series.tooltips.size() ? tooltip(series.tooltips[i]) : std::string());
      }
    }
    markup += "</g>\n";
  }
  markup += legend_markup.markup;
  if (has_marked_tick && !chart.mark_note.empty())
    markup += fmt::format("<text class=\"chart-note\" x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\">{}</text>\n",
                          left - 40, note_top + 14, html_escape(chart.mark_note));
  return markup + "</svg>\n";
}

std::string render_stacked_bar_chart(const StackedBarChart& chart) {
  constexpr double left = 64, margin_right = 16, bar_gap = 4, plot_height = 220;
  constexpr double plot_bottom = kPlotTop + plot_height;
  std::size_t bar_count = 0;
  double largest = 0;
  bool has_marker = false;
  for (const BarGroup& group : chart.groups) {
    bar_count += group.bars.size();
    for (const StackedBar& bar : group.bars) {
      double stacked = 0;
      for (const BarSegment& segment : bar.segments) stacked += std::max(0.0, segment.value);
      largest = std::max(largest, stacked);
      if (bar.marker) {
        largest = std::max(largest, *bar.marker);
        has_marker = true;
      }
    }
  }
  // Few bars get wide, many bars get narrow; past the minimum width the chart grows instead.
  const double min_width = std::max(chart.min_width, 200.0);
  const double available = min_width - left - margin_right;
  const double bar_width =
      std::clamp(available * 0.55 / static_cast<double>(std::max<std::size_t>(bar_count, 1)) - bar_gap, 12.0, 40.0);
  double bars_width = 0;
  for (const BarGroup& group : chart.groups)
    bars_width += static_cast<double>(group.bars.size()) * (bar_width + bar_gap) - bar_gap;
  const double group_count = static_cast<double>(std::max<std::size_t>(chart.groups.size(), 1));
  const double group_gap = std::max(24.0, (available - bars_width) / (group_count + 1));
  const double width = std::max(min_width, left + bars_width + group_gap * (group_count + 1) + margin_right);
  const double right = width - margin_right;

  std::vector<LegendEntry> legend = chart.legend;
  if (has_marker && !chart.marker_legend.empty()) legend.push_back({chart.marker_legend, "#000", true});
  const LegendBlock legend_markup = legend_block(legend, left - 40, plot_bottom + 42, right - left + 40);
  const double note_top = plot_bottom + 42 + legend_markup.height;
  const double height = note_top + (chart.note.empty() ? 6 : 20);

  const Axis axis = round_axis(largest * 1.05);
  const auto y_position = [&](double value) { return plot_bottom - value / axis.max * plot_height; };
  std::string markup = svg_open(chart.css_class, chart.title, width, height);
  markup += y_axis(axis, left, right, kPlotTop, plot_bottom, chart.y_label);

  double x = left + group_gap;
  for (const BarGroup& group : chart.groups) {
    const double group_width = static_cast<double>(group.bars.size()) * (bar_width + bar_gap) - bar_gap;
    markup += fmt::format("<g class=\"bar-group\" data-label=\"{}\">\n", html_escape(group.label));
    for (std::size_t b = 0; b < group.bars.size(); ++b) {
      const StackedBar& bar = group.bars[b];
      const double bar_left = x + static_cast<double>(b) * (bar_width + bar_gap);
      double stacked = 0;
      for (const BarSegment& segment : bar.segments) {
        if (!(segment.value > 0)) continue;
        const double top = y_position(stacked + segment.value);
        markup += fmt::format(
            "<rect class=\"bar-segment\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
            "fill=\"{}\">{}</rect>\n",
            bar_left, top, bar_width, y_position(stacked) - top, html_escape(segment.color), tooltip(segment.tooltip));
        stacked += segment.value;
      }
      if (bar.marker) {
        markup += fmt::format(
            "<line class=\"bar-marker\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#000\" "
            "stroke-width=\"2.5\">{}</line>\n",
            bar_left - 3, y_position(*bar.marker), bar_left + bar_width + 3, y_position(*bar.marker),
            tooltip(bar.marker_tooltip));
      }
      markup += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"middle\">{}</text>\n",
                            bar_left + bar_width / 2, plot_bottom + 14, html_escape(bar.label));
    }
    const auto room = static_cast<std::size_t>(std::max(4.0, (group_width + group_gap - 4) / kCharWidth));
    const std::string shown = truncate_label(group.label, room);
    markup += fmt::format(
        "<text class=\"group-label\" x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"12\" text-anchor=\"middle\">{}{}</text>\n"
        "</g>\n",
        x + group_width / 2, plot_bottom + 30, html_escape(shown), shown == group.label ? "" : tooltip(group.label));
    x += group_width + group_gap;
  }
  markup += legend_markup.markup;
  if (!chart.note.empty())
    markup += fmt::format("<text class=\"chart-note\" x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\">{}</text>\n",
                          left - 40, note_top + 14, html_escape(chart.note));
  return markup + "</svg>\n";
}

std::string render_horizontal_bar_chart(const HorizontalBarChart& chart) {
  constexpr double left = 90, right = kChartWidth - 20, row_height = 14, row_gap = 4;
  const LegendBlock legend_markup = legend_block(chart.legend, 8, kPlotTop - 8, kChartWidth - 16);
  const double rows_top = kPlotTop + legend_markup.height + 4;
  const double rows_bottom = rows_top + static_cast<double>(chart.rows.size()) * (row_height + row_gap);
  const double height = rows_bottom + 44;

  double largest = 0;
  for (const StackedBar& row : chart.rows) {
    double stacked = 0;
    for (const BarSegment& segment : row.segments) stacked += std::max(0.0, segment.value);
    largest = std::max(largest, stacked);
  }
  const Axis axis = round_axis(largest * 1.02);
  const auto x_position = [&](double value) { return left + value / axis.max * (right - left); };

  std::string markup = svg_open(chart.css_class, chart.title, kChartWidth, height);
  markup += legend_markup.markup;
  markup += "<g class=\"x-axis\">\n";
  for (double value : tick_values(axis)) {
    markup += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"{3}\"/>"
        "<text x=\"{0:.1f}\" y=\"{4:.1f}\" font-size=\"11\" text-anchor=\"middle\">{5}</text>\n",
        x_position(value), rows_top - 2, rows_bottom, kGridColor, rows_bottom + 14, tick_text(value));
  }
  markup += fmt::format(
      "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"{3}\"/>"
      "<text class=\"axis-label\" x=\"{4:.1f}\" y=\"{5:.1f}\" font-size=\"12\" text-anchor=\"middle\">{6}</text>\n</g>\n",
      left, rows_top - 2, rows_bottom, kAxisColor, (left + right) / 2, rows_bottom + 32, html_escape(chart.x_label));

  double y = rows_top;
  for (const StackedBar& row : chart.rows) {
    markup += fmt::format(
        "<g class=\"bar-row\"><text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"end\">{}</text>\n",
        left - 6, y + row_height - 3, html_escape(row.label));
    double stacked = 0;
    for (const BarSegment& segment : row.segments) {
      if (!(segment.value > 0)) continue;
      markup += fmt::format(
          "<rect class=\"bar-segment\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\">{}</rect>\n",
          x_position(stacked), y, x_position(stacked + segment.value) - x_position(stacked), row_height,
          html_escape(segment.color), tooltip(segment.tooltip));
      stacked += segment.value;
    }
    markup += "</g>\n";
    y += row_height + row_gap;
  }
  return markup + "</svg>\n";
}

std::string render_placeholder_chart(const std::string& title, const std::string& css_class,
                                     const std::string& message) {
  constexpr double height = 120;
  std::string markup = svg_open(css_class + " placeholder", title, kChartWidth, height);
  markup += fmt::format(
      "<rect x=\"8\" y=\"32\" width=\"{:.0f}\" height=\"{:.0f}\" fill=\"#f7f7f7\" stroke=\"#bbb\" "
      "stroke-dasharray=\"4 3\"/>\n<text class=\"placeholder-message\" x=\"{:.0f}\" y=\"{:.0f}\" font-size=\"14\" "
      "text-anchor=\"middle\" fill=\"#555\">{}</text>\n",
      kChartWidth - 16, height - 40, kChartWidth / 2, 32 + (height - 40) / 2 + 5, html_escape(message));
  return markup + "</svg>\n";
}

}  // namespace ompscope::output::svg
