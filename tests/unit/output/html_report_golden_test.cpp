// The visible text of a small report, compared with a reviewed copy. Markup, styles and chart
// coordinates are left out so the check is about what a reader sees, not how it is drawn.
// OMPSCOPE_UPDATE_GOLDEN=1 rewrites the copy after an intended change; review its diff.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "fixture_report.h"
#include "output/html_report.h"
#include "output/text_report.h"
#include "json_rendering.h"

namespace ompscope::output {
namespace {

// Block ends become line breaks, other tags spaces; entities decoded; blank lines dropped.
std::string visible_text(std::string html) {
  html = std::regex_replace(html, std::regex("<style>[\\s\\S]*?</style>"), "");
  html = std::regex_replace(html, std::regex("</(tr|h1|h2|h3|p|li|dt|dd|title|text|caption)>|<br>"), "\n");
  html = std::regex_replace(html, std::regex("<[^>]*>"), " ");
  for (const auto& [entity, character] : {std::pair{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"},
                                          {"&amp;", "&"}})
    html = std::regex_replace(html, std::regex(entity), character);
  std::istringstream lines(html);
  std::string text;
  for (std::string line; std::getline(lines, line);) {
    line = std::regex_replace(line, std::regex("\\s+"), " ");
    line = std::regex_replace(line, std::regex("^ | $"), "");
    if (!line.empty()) text += line + "\n";
  }
  return text;
}

std::string read_file(const std::string& path) {
  std::ifstream input(path);
  std::stringstream content;
  content << input.rdbuf();
  return content.str();
}

TEST(HtmlReportGolden, VisibleTextOfTheSingleThreadProfileIsUnchanged) {
  const std::string text = visible_text(render_html_report(load_fixture("single_thread_profile.json")));
  const std::string golden_path = std::string(OMPSCOPE_OUTPUT_GOLDEN_DIR) + "/single_thread_profile.txt";
  if (std::getenv("OMPSCOPE_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(golden_path) << text;
    GTEST_SKIP() << "rewrote " << golden_path;
  }
  EXPECT_EQ(text, read_file(golden_path)) << "if the change is intended, rerun with OMPSCOPE_UPDATE_GOLDEN=1";
}

// The demo's report (scripts/demo.sh, report.json kept as a fixture): the findings first, each with
// the lines it names, then the runs; the visible text is the reviewed copy.
TEST(HtmlReportGolden, VisibleTextOfTheDemoReportOpensWithItsFindings) {
  const std::string text = visible_text(render_html_report(load_fixture("imbalanced_loop_demo.json")));
  const std::string golden_path = std::string(OMPSCOPE_OUTPUT_GOLDEN_DIR) + "/imbalanced_loop_demo.txt";
  if (std::getenv("OMPSCOPE_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(golden_path) << text;
    GTEST_SKIP() << "rewrote " << golden_path;
  }
  EXPECT_EQ(text, read_file(golden_path)) << "if the change is intended, rerun with OMPSCOPE_UPDATE_GOLDEN=1";
  const auto findings = text.find("Findings\n"), runs = text.find("Runs\n6 runs, all ok");
  ASSERT_NE(findings, std::string::npos);
  ASSERT_NE(runs, std::string::npos);
  EXPECT_LT(findings, runs);
  const auto first = text.find("load imbalance at imbalanced_loop.c:24 in main", findings);
  EXPECT_LT(first, runs);
  EXPECT_LT(text.find("> 24 | #pragma omp parallel for schedule(static)", first), runs);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// report.txt opens with the first finding's action (within its first 8 lines), and says what
// report.html says about the findings, in the same order.
TEST(FindingsText, TheFirstActionIsInTheFirst8LinesAndTheFindingsReadAsInTheHtml) {
  const nlohmann::json doc = load_fixture("imbalanced_loop_demo.json");
  const std::vector<std::string> text = lines_of(render_text_report(doc));
  ASSERT_GE(text.size(), 8u);
  std::string opening;
  for (std::size_t i = 0; i < 8; ++i) opening += text[i] + "\n";
  EXPECT_NE(opening.find("→ try schedule(dynamic, 1) on it"), std::string::npos) << opening;

  std::vector<std::string> in_text, in_html;
  const std::regex numbered("^  [0-9]+\\. (.*)$");
  for (const std::string& line : text)
    if (std::smatch m; std::regex_match(line, m, numbered)) in_text.push_back(m[1]);
  for (std::string line : lines_of(visible_text(render_html_report(doc)))) {
    line = std::regex_replace(line, std::regex(" :"), ":");
    if (line.find(": gain ") != std::string::npos && line.find(" → ") != std::string::npos) in_html.push_back(line);
  }
  ASSERT_EQ(in_text.size(), 4u);
  EXPECT_EQ(in_text, in_html);
}

}  // namespace
}  // namespace ompscope::output
