#include "output/svg_chart.h"

#include <gtest/gtest.h>

namespace ompscope::output::svg {
namespace {

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

LineChart two_series_chart() {
  LineChart chart;
  chart.title = "Speedup";
  chart.css_class = "speedup";
  chart.x_label = "threads";
  chart.y_label = "speedup";
  chart.x_ticks = {1, 2, 4};
  chart.marked_x_ticks = {4};
  chart.mark_note = "* oversubscribed";
  chart.series.push_back({"ideal", "#888", true, {1, 2, 4}, {1, 2, 4}, {}});
  chart.series.push_back({"#1 solve<std::vector<int>>", "#0072b2", false, {1, 2, 4}, {1, 1.6, 2.0}, {"a", "b", "c"}});
  return chart;
}

TEST(LineChart, IsOneSvgWithItsClassAndAMarkerPerMeasuredPoint) {
  const std::string svg = render_line_chart(two_series_chart());
  EXPECT_EQ(svg.rfind("<svg class=\"chart speedup\"", 0), 0u);
  EXPECT_EQ(count_of(svg, "<svg"), 1u);
  EXPECT_EQ(count_of(svg, "</svg>"), 1u);
  EXPECT_EQ(count_of(svg, "<polyline"), 2u);
  EXPECT_EQ(count_of(svg, "<circle"), 3u) << "reference lines carry no point markers";
  EXPECT_NE(svg.find("stroke-dasharray=\"6 4\""), std::string::npos) << "the ideal line is dashed";
}

TEST(LineChart, LabelsOversubscribedTicksAndExplainsTheMark) {
  const std::string svg = render_line_chart(two_series_chart());
  EXPECT_NE(svg.find(">4*</text>"), std::string::npos);
  EXPECT_NE(svg.find("* oversubscribed"), std::string::npos);
}

TEST(LineChart, EscapesLegendLabels) {
  const std::string svg = render_line_chart(two_series_chart());
  EXPECT_NE(svg.find("#1 solve&lt;std::vector&lt;int&gt;&gt;"), std::string::npos);
  EXPECT_EQ(svg.find("<std::"), std::string::npos);
}

TEST(LineChart, AxisReachesTheRequestedFloor) {
  LineChart chart = two_series_chart();
  chart.series = {{"eff", "#000", false, {1, 2}, {0.2, 0.1}, {}}};
  chart.y_axis_at_least = 1.0;
  EXPECT_NE(render_line_chart(chart).find(">1</text>"), std::string::npos);
}

TEST(StackedBarChart, DrawsOneRectPerNonZeroSegmentAndAMarkerPerBar) {
  StackedBarChart chart;
  chart.title = "Lost time";
  chart.css_class = "lost-time";
  chart.y_label = "lost time (s)";
  chart.groups.push_back({"#1 solve", {{"1", {}, 0.0, ""}, {"2", {{0.1, "#e15759", "li"}, {0.0, "#f28e2b", ""}}, 0.2, ""}}});
  chart.legend = {{"load imbalance", "#e15759"}};
  chart.marker_legend = "time lost";
  const std::string svg = render_stacked_bar_chart(chart);
  EXPECT_EQ(count_of(svg, "class=\"bar-segment\""), 1u);
  EXPECT_EQ(count_of(svg, "class=\"bar-marker\""), 2u);
  EXPECT_NE(svg.find("time lost"), std::string::npos);
  EXPECT_NE(svg.find("<title>li</title>"), std::string::npos);
}

TEST(StackedBarChart, AllZeroDataDrawsAnAxisWithoutNan) {
  StackedBarChart chart;
  chart.groups.push_back({"g", {{"1", {{0.0, "#000", ""}}, std::nullopt, ""}}});
  const std::string svg = render_stacked_bar_chart(chart);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
}

TEST(HorizontalBarChart, DrawsOneRowPerEntry) {
  HorizontalBarChart chart;
  chart.css_class = "per-thread";
  chart.rows = {{"thread 0", {{0.7, "#59a14f", ""}, {0.1, "#e15759", ""}}, std::nullopt, ""},
                {"thread 1", {{0.5, "#59a14f", ""}}, std::nullopt, ""}};
  const std::string svg = render_horizontal_bar_chart(chart);
  EXPECT_EQ(count_of(svg, "class=\"bar-row\""), 2u);
  EXPECT_EQ(count_of(svg, "class=\"bar-segment\""), 3u);
}

TEST(PlaceholderChart, ShowsItsMessage) {
  const std::string svg = render_placeholder_chart("Speedup", "speedup", "needs ≥2 thread counts");
  EXPECT_NE(svg.find("class=\"chart speedup placeholder\""), std::string::npos);
  EXPECT_NE(svg.find("needs ≥2 thread counts"), std::string::npos);
}

}  // namespace
}  // namespace ompscope::output::svg
