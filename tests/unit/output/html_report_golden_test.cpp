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

}  // namespace
}  // namespace ompscope::output
