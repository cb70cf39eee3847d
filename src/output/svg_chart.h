// Inline SVG charts for the HTML report, drawn without any plotting library so the report stays
// one offline file. These know nothing of report.json: callers hand in plain numbers, colours
// and raw (unescaped) labels; every label is escaped here, where the markup is written.
#pragma once
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ompscope::output::svg {

struct LegendEntry {
  std::string label;
  std::string color;
  bool dashed = false;  // drawn as a dashed line sample, for reference lines such as "ideal"
};

struct LineSeries {
  std::string label;
  std::string color;
  bool dashed = false;
  std::vector<double> x;  // thread counts
  std::vector<double> y;
  std::vector<std::string> tooltips;  // one per point, or empty
};

// A chart of values over thread counts: one x tick per measured count; a log2 x axis when the
// counts span a factor of 4 or more, so 1,2,4,...,64 are spread evenly.
struct LineChart {
  std::string title;
  std::string css_class;  // e.g. "speedup": lets tests and styles find the chart
  std::string x_label;
  std::string y_label;
  std::vector<int> x_ticks;
  std::set<int> marked_x_ticks;  // labelled with a trailing '*' (oversubscribed counts)
  std::string mark_note;         // explains the '*', shown when a marked tick exists
  std::vector<LineSeries> series;
  double y_axis_at_least = 0.0;  // the y axis reaches at least this value (e.g. 1.0 for efficiency)
};
std::string render_line_chart(const LineChart& chart);

struct BarSegment {
  double value = 0.0;
  std::string color;
  std::string tooltip;
};

struct StackedBar {
  std::string label;
  std::vector<BarSegment> segments;  // stacked from the axis outwards, in order
  std::optional<double> marker;      // a reference value drawn as a black tick across the bar
  std::string marker_tooltip;
};

struct BarGroup {
  std::string label;
  std::vector<StackedBar> bars;
};

// Vertical stacked bars in labelled groups (one group per region, one bar per thread count).
struct StackedBarChart {
  std::string title;
  std::string css_class;
  std::string y_label;
  std::vector<BarGroup> groups;
  std::vector<LegendEntry> legend;
  std::string marker_legend;  // legend text for the marker tick; empty when no bar has one
  std::string note;           // one line under the chart (e.g. what '*' means)
  double min_width = 560;     // the chart widens beyond this when its bars need the room
};
std::string render_stacked_bar_chart(const StackedBarChart& chart);

// Horizontal stacked bars, one row each (one row per thread).
struct HorizontalBarChart {
  std::string title;
  std::string css_class;
  std::string x_label;
  std::vector<StackedBar> rows;
  std::vector<LegendEntry> legend;
};
std::string render_horizontal_bar_chart(const HorizontalBarChart& chart);

// A framed box with a message, in place of a chart that cannot be drawn from the data.
std::string render_placeholder_chart(const std::string& title, const std::string& css_class,
                                     const std::string& message);

}  // namespace ompscope::output::svg
