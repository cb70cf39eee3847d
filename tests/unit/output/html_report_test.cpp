// What report.html must contain, checked on the fixtures the Chromium check also renders.
#include "output/html_report.h"
#include "json_rendering.h"
#include "common/error.h"
#include "output/html_report_charts.h"

#include <gtest/gtest.h>

#include <regex>

#include "fixture_report.h"

namespace ompscope::output {
namespace {

using nlohmann::json;

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

bool contains(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

class ScaleReport : public testing::Test {
 protected:
  const json report = load_fixture("scale_template_oversubscribed.json");
  const std::string html = render_html_report(report);
};

TEST_F(ScaleReport, IsOneCompleteHtmlDocument) {
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_TRUE(html.ends_with("</html>\n"));
  EXPECT_TRUE(contains(html, "<meta charset=\"utf-8\">"));
  EXPECT_EQ(count_of(html, "<body>"), 1u);
}

TEST_F(ScaleReport, FetchesNothingFromTheNetwork) {
  for (const char* fetch : {"http:", "https:", "//cdn", "<script", "<link", "<img", "<iframe", "url(", "@import",
                            "@font-face", "src="})
    EXPECT_FALSE(contains(html, fetch)) << fetch;
}

TEST_F(ScaleReport, HasTheThreePlotsAsInlineSvg) {
  EXPECT_TRUE(contains(html, "<svg class=\"chart speedup\""));
  EXPECT_TRUE(contains(html, "<svg class=\"chart efficiency\""));
  EXPECT_TRUE(contains(html, "<svg class=\"chart lost-time\""));
}

TEST_F(ScaleReport, ListsOneRowPerRegionInRankOrder) {
  const std::regex region_row("<tr class=\"region\" data-region=\"([^\"]*)\"");
  std::vector<std::string> ids;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), region_row); it != std::sregex_iterator(); ++it)
    ids.push_back((*it)[1]);
  EXPECT_EQ(ids, (std::vector<std::string>{"r3", "r7", "r9", "serial"}));
  EXPECT_TRUE(contains(html, "<code>src/solver.cpp:42</code>"));
  EXPECT_TRUE(contains(html, ">200000</td>")) << "instances";
}

TEST_F(ScaleReport, ShowsTimeEfficiencyAndLossPerThreadCount) {
  EXPECT_TRUE(contains(html, "<td class=\"num\">1.60 s</td><td class=\"num efficiency good\">100%</td>"));
  EXPECT_TRUE(contains(html, "<td class=\"num\">800 ms</td><td class=\"num efficiency fair\">50%</td>"
                             "<td class=\"num\">400 ms</td>"));
}

TEST_F(ScaleReport, HasOneHintRowPerProblemWithHintAndDetails) {
  EXPECT_EQ(count_of(html, "<tr class=\"hint\""), 9u);
  EXPECT_TRUE(contains(html, "iterations differ in cost: try schedule(dynamic) or schedule(guided)"));
  EXPECT_TRUE(contains(html, "walkthrough_s: 10.0 ms"));
  EXPECT_TRUE(contains(html, "acquisitions: 800000"));
}

TEST_F(ScaleReport, LabelsOnlyTheOversubscribedCount) {
  EXPECT_TRUE(contains(html, "<span class=\"thread-count oversubscribed\">4<span class=\"badge oversubscribed\">"
                             "oversubscribed</span></span>"));
  EXPECT_TRUE(contains(html, "<span class=\"thread-count\">1</span>"));
  EXPECT_TRUE(contains(html, "<span class=\"thread-count\">2</span>"));
  EXPECT_TRUE(contains(html, "Per-thread time at 4 threads (oversubscribed)"));
}

TEST_F(ScaleReport, HighlightsTheFailedRunAndSaysWhy) {
  EXPECT_EQ(count_of(html, "<tr class=\"run failed\">"), 1u);
  EXPECT_EQ(count_of(html, "<tr class=\"run\">"), 3u);
  EXPECT_TRUE(contains(html, "<strong>failed: killed by signal 11</strong>"));
  EXPECT_TRUE(contains(html, "<strong class=\"failed-count\">1 failed</strong>"));
  EXPECT_TRUE(contains(html, "<td class=\"num dropped\">1200</td>"));
}

TEST_F(ScaleReport, ShowsTemplateNamesAndArgumentsAsText) {
  // The name without its parameters in the tables, the signature on hover.
  EXPECT_TRUE(contains(html, "<code class=\"function-name\" title=\"void solve&lt;std::vector&lt;int&gt;&gt;(int)\">"
                             "void solve&lt;std::vector&lt;int&gt;&gt;</code>"));
  EXPECT_FALSE(contains(html, "<std::vector"));
  EXPECT_TRUE(contains(html, "./solver --size 4096 &#39;--mode=&lt;fast&gt;&#39;"));
}

TEST_F(ScaleReport, SummarisesTheProgramWithItsAmdahlBound) {
  EXPECT_TRUE(contains(html, "<section id=\"program-summary\">"));
  EXPECT_TRUE(contains(html, "200 ms (8% of the time)"));
  EXPECT_TRUE(contains(html, "<strong>12.00×</strong>"));
}

TEST_F(ScaleReport, ListsTheNotes) {
  EXPECT_EQ(count_of(html, "<li>"), 3u);
  EXPECT_TRUE(contains(html, "sampling was used for region r7"));
}

TEST_F(ScaleReport, DrawsPerThreadBarsWhereTheRegionHasThem) {
  EXPECT_EQ(count_of(html, "<svg class=\"chart per-thread\""), 2u);
  EXPECT_EQ(count_of(html, "class=\"bar-row\""), 6u);
}

TEST_F(ScaleReport, IsTheSameEveryTime) { EXPECT_EQ(render_html_report(report), html); }

TEST(SingleThreadCountReport, ShowsBarsAndSaysWhyLinePlotsAreMissing) {
  const std::string html = render_html_report(load_fixture("single_thread_profile.json"));
  EXPECT_EQ(count_of(html, "needs ≥2 thread counts"), 2u);
  EXPECT_TRUE(contains(html, "<svg class=\"chart speedup placeholder\""));
  EXPECT_TRUE(contains(html, "<svg class=\"chart lost-time\""));
  EXPECT_EQ(count_of(html, "class=\"bar-segment\""), 2u);
  EXPECT_TRUE(contains(html, "./heat &#39;input file.dat&#39;"));
}

TEST(MinimalReport, RendersWithOnlyTheRequiredFields) {
  const std::string html = render_html_report(load_fixture("minimal.json"));
  EXPECT_TRUE(contains(html, "No parallel region was observed."));
  EXPECT_FALSE(contains(html, "id=\"runs\""));
  EXPECT_FALSE(contains(html, "id=\"notes\""));
  EXPECT_FALSE(contains(html, "id=\"program-summary\""));
  EXPECT_TRUE(contains(html, "no lost time was measured"));
}

// A region's kind is no free string (parallel or serial; anything else is refused on reading: ReportJson).
TEST(HostileReport, NoStringFromTheProgramBecomesMarkup) {
  const std::string evil = "<script>alert(1)</script><img src=x onerror=alert(2)>\"'&";
  const json report = {
      {"tool", "ompscope"}, {"version", evil}, {"command", {evil, evil}}, {"threads", {1, 2}},
      {"runs", {{{"threads", 1}, {"status", evil}, {"log", evil}}}},
      {"notes", {evil}},
      {"regions",
       {{{"id", evil}, {"kind", "serial"}, {"file", evil}, {"line", 1}, {"function", evil},
         {"time_s", {{"1", 1.0}, {"2", 0.6}}},
         {"per_thread", {{"2", {{{"thread", 0}, {"work_s", 0.5}}}}}},
         {"problems", {{{"kind", "load_imbalance"}, {"threads", 2}, {"time_s", 0.1}, {"hint", evil}, {"details", {{evil, 1.0}}}}}}}}}};
  const std::string html = render_html_report(report);
  EXPECT_FALSE(contains(html, "<script"));
  EXPECT_FALSE(contains(html, "<img"));
  EXPECT_TRUE(contains(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
}

// A report.json whose fields have the wrong types is refused when read, with one line saying
// which field (report/report_json.h), before any renderer sees it.
TEST(MistypedReport, IsRefusedWithOneLineNamingTheField) {
  const json report = {{"tool", "ompscope"}, {"threads", {"1", 2}}, {"runs", "none"}, {"program", 3},
                       {"regions", {{{"time_s", {{"2", "slow"}}}, {"problems", {{{"threads", "two"}}}}}, 7}}};
  try {
    render_html_report(report);
    ADD_FAILURE() << "a mistyped report was rendered";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("\"threads\" has the wrong type"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ompscope::output

namespace ompscope::output {
namespace {

TEST(PerThreadChart, ShowsTaskTimeBesideTheOtherWorkNotOnTopOfIt) {
  // work_s includes task_s: 10 ms of work of which 4 ms in 100 tasks, 2 ms waiting. The bar
  // spans 12 ms (6 + 4 + 2), and the tooltip of the tasks gives their count.
  report::RegionReport region;
  region.per_thread[2] = {{.thread = 0, .work_s = 0.010, .task_s = 0.004, .barrier_wait_s = 0.002, .tasks = 100}};
  const std::string svg = per_thread_chart(region, 2, false);
  EXPECT_NE(svg.find("<title>thread 0: work 6.00 ms</title>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("<title>thread 0: tasks 4.00 ms (100 tasks)</title>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("<title>thread 0: barrier wait 2.00 ms</title>"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("work 10.0 ms"), std::string::npos) << svg;
}

}  // namespace
}  // namespace ompscope::output

namespace ompscope::output {
namespace {

// The program's own text beside the findings and the constructs is text, never markup; a file
// that is not there says so.
TEST(SourceLines, AreEscapedBesideTheFindingAndTheConstructAndMissingOnesSaySo) {
  json doc = load_fixture("imbalanced_loop_demo.json");
  json& finding = doc["findings"][0];
  finding["source"]["lines"][1] = "#pragma omp parallel for if(n < m && ok) // <script>";
  json& loop = doc["regions"][0]["constructs"][0];
  loop["source"]["lines"][1] = "#pragma omp parallel for if(n < m && ok) // <script>";
  doc["findings"][1]["source"] = {{"file", "/gone/x.c"}, {"line", 3}, {"missing", "source not found: /gone/x.c"}};
  const std::string html = render_html_report(doc);
  EXPECT_FALSE(contains(html, "<script>"));
  EXPECT_EQ(count_of(html, "#pragma omp parallel for if(n &lt; m &amp;&amp; ok) // &lt;script&gt;"), 3u)
      << "in the first finding's lines, beside the loop in the tree, and in the lines on hover there";
  EXPECT_TRUE(contains(html, "<span class=\"named\">&gt; 24 | #pragma omp parallel for if(n &lt; m"));
  EXPECT_TRUE(contains(html, "<div class=\"source-missing\">source not found: /gone/x.c</div>"));
  // The named line of the loop, with the lines around it on hover.
  EXPECT_TRUE(std::regex_search(html, std::regex("<code class=\"source-line\" title=\"[^\"]*imbalanced_loop.c\n"
                                                 "  23 \\|     \\} else \\{\n&gt; 24 \\| #pragma")))
      << html.substr(html.find("source-line"), 400);
}

}  // namespace
}  // namespace ompscope::output
