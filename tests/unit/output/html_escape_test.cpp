#include "output/html_escape.h"

#include <gtest/gtest.h>

namespace ompscope::output {
namespace {

TEST(HtmlEscape, TurnsEachMarkupCharacterIntoItsEntity) {
  EXPECT_EQ(html_escape("&"), "&amp;");
  EXPECT_EQ(html_escape("<"), "&lt;");
  EXPECT_EQ(html_escape(">"), "&gt;");
  EXPECT_EQ(html_escape("\""), "&quot;");
  EXPECT_EQ(html_escape("'"), "&#39;");
}

TEST(HtmlEscape, ShowsACppTemplateNameAsText) {
  EXPECT_EQ(html_escape("void solve<std::vector<int>>(int)"), "void solve&lt;std::vector&lt;int&gt;&gt;(int)");
}

TEST(HtmlEscape, EscapesAnAmpersandThatAlreadyLooksLikeAnEntity) {
  // The program's text is literal: "&lt;" in a file name must read "&lt;", not "<".
  EXPECT_EQ(html_escape("a&lt;b"), "a&amp;lt;b");
}

TEST(HtmlEscape, NeutralisesMarkupAndAttributeBreakouts) {
  EXPECT_EQ(html_escape("<script>alert('x')</script>"), "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
  EXPECT_EQ(html_escape("\" onload=\"x"), "&quot; onload=&quot;x");
}

TEST(HtmlEscape, LeavesOtherTextAndUtf8Untouched) {
  EXPECT_EQ(html_escape(""), "");
  EXPECT_EQ(html_escape("solve (src/a.c:42) 3.2 µs — ok"), "solve (src/a.c:42) 3.2 µs — ok");
}

TEST(HtmlEscape, NoByteValueSurvivesAsAMarkupCharacter) {
  std::string every_byte;
  for (int byte = 0; byte < 256; ++byte) every_byte += static_cast<char>(byte);
  const std::string escaped = html_escape(every_byte);
  EXPECT_EQ(escaped.find_first_of("<>\"'"), std::string::npos);
  EXPECT_EQ(escaped.size(), every_byte.size() - 5 + std::string("&amp;&lt;&gt;&quot;&#39;").size());
}

}  // namespace
}  // namespace ompscope::output
