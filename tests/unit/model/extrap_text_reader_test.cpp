#include "model/extrap_text_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "common/error.h"

namespace ompscope::model {
namespace {

using ::testing::HasSubstr;

std::vector<Series> read(const std::string& text) {
  std::istringstream in(text);
  return read_extrap_text(in, "input.txt");
}

// The message of the ompscope::Error that reading `text` throws.
std::string error_of(const std::string& text) {
  try {
    read(text);
  } catch (const Error& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(ExtrapTextReader, ReadsSeveralRegionsAndMetricsWithCommentsAndRepetitions) {
  const auto series = read(
      "# measured on node 7\n"
      "PARAMETER t\n"
      "POINTS ( 1 ) ( 2 ) ( 4 )\n"
      "\n"
      "METRIC time\n"
      "REGION main->solve\n"
      "DATA 1.0 1.1 0.9\n"
      "# a comment between DATA lines\n"
      "DATA 2.0 2.2\n"
      "DATA 4.0\n"
      "REGION barrier\n"
      "DATA 5e-7\n"
      "DATA 6e-7\n"
      "DATA 7e-7\n"
      "METRIC visits\n"
      "DATA 10\n"
      "DATA 20\n"
      "DATA 40\n");
  ASSERT_EQ(series.size(), 3u);
  EXPECT_EQ(series[0].region, "main->solve");
  EXPECT_EQ(series[0].metric, "time");
  ASSERT_EQ(series[0].points.size(), 3u);
  EXPECT_EQ(series[0].points[0].threads, 1);
  EXPECT_EQ(series[0].points[0].values, (std::vector<double>{1.0, 1.1, 0.9}));
  EXPECT_EQ(series[0].points[2].threads, 4);
  EXPECT_EQ(series[1].region, "barrier");
  EXPECT_EQ(series[1].points[1].values, (std::vector<double>{6e-7}));
  EXPECT_EQ(series[2].region, "barrier");
  EXPECT_EQ(series[2].metric, "visits");
  EXPECT_EQ(series[2].points[2].values, (std::vector<double>{40}));
}

TEST(ExtrapTextReader, AcceptsBareParenthesisedAndSplitPointLists) {
  const auto series = read(
      "PARAMETER p\n"
      "POINTS 1 (2) ((4))\n"
      "POINTS ( 8 )\n"
      "REGION r\n"
      "DATA 1\nDATA 2\nDATA 3\nDATA 4\n");
  ASSERT_EQ(series.size(), 1u);
  ASSERT_EQ(series[0].points.size(), 4u);
  EXPECT_EQ(series[0].points[3].threads, 8);
  EXPECT_EQ(series[0].metric, "time");  // no METRIC line
}

TEST(ExtrapTextReader, AMetricMayFollowTheRegion) {
  const auto series = read(
      "PARAMETER t\nPOINTS 1 2\n"
      "REGION r\nMETRIC a\nDATA 1\nDATA 2\nMETRIC b\nDATA 3\nDATA 4\n");
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series[1].metric, "b");
  EXPECT_EQ(series[1].region, "r");
}

TEST(ExtrapTextReader, WindowsLineEndingsAreFine) {
  const auto series = read("PARAMETER t\r\nPOINTS 1 2\r\nREGION r\r\nDATA 1\r\nDATA 2\r\n");
  EXPECT_EQ(series[0].region, "r");
}

TEST(ExtrapTextReader, RefusesMoreThanOneParameterNamingTheLine) {
  EXPECT_THAT(error_of("PARAMETER t\nPARAMETER n\n"),
              HasSubstr("input.txt:2: ompscope models one parameter (the thread count), but this "
                        "file declares 2: t, n"));
  EXPECT_THAT(error_of("PARAMETER t n\n"), HasSubstr("input.txt:1: ompscope models one parameter"));
  EXPECT_THAT(error_of("PARAMETER t\nPOINTS (1 2) (3 4)\n"),
              HasSubstr("input.txt:2: a point has 2 coordinates"));
}

TEST(ExtrapTextReader, RefusesAMissingOrExtraDataLineNamingTheLine) {
  const std::string head = "PARAMETER t\nPOINTS 1 2 4\nREGION r\n";
  EXPECT_THAT(error_of(head + "DATA 1\nDATA 2\nREGION s\n"),
              HasSubstr("input.txt:6: region 'r' metric 'time' has 2 DATA lines (from line 4) "
                        "before REGION, but POINTS lists 3 points"));
  EXPECT_THAT(error_of(head + "DATA 1\n"), HasSubstr("input.txt:4: region 'r' metric 'time' has 1 DATA lines"));
  EXPECT_THAT(error_of(head + "DATA 1\nDATA 2\nDATA 3\nDATA 4\n"),
              HasSubstr("input.txt:7: one DATA line too many"));
}

TEST(ExtrapTextReader, RefusesMalformedLinesNamingTheLine) {
  EXPECT_THAT(error_of("PARAMETER t\nPOINTS 1 2\nREGION r\nDATA 1\nDATA 2 abc\n"),
              HasSubstr("input.txt:5: 'abc' in DATA is not a finite number"));
  EXPECT_THAT(error_of("PARAMETER t\nPOINTS 1 two\n"),
              HasSubstr("input.txt:2: 'two' in POINTS is not a number"));
  EXPECT_THAT(error_of("PARAMETER t\nPOINTS 1 2\nDATA 1\n"),
              HasSubstr("input.txt:3: DATA before REGION"));
  EXPECT_THAT(error_of("PARAMETER t\nREGION r\nDATA 1\n"), HasSubstr("input.txt:3: DATA before POINTS"));
  EXPECT_THAT(error_of("POINTS 1 2\n"), HasSubstr("input.txt:1: POINTS before PARAMETER"));
  EXPECT_THAT(error_of("PARAMETER t\nPOINTS 0 1\n"), HasSubstr("input.txt:2: point 0.000000 is not a thread count"));
  EXPECT_THAT(error_of("PARAMETER t\nPOINTS (1\n"), HasSubstr("input.txt:2: '(' without ')'"));
  EXPECT_THAT(error_of("PARAMETER t\nPOINTS 1 2\nREGION\n"), HasSubstr("input.txt:3: REGION without a name"));
  EXPECT_THAT(error_of("PARAMETER t\nPOINTS 1 2\nEXPERIMENT x\n"),
              HasSubstr("input.txt:3: unknown line 'EXPERIMENT x'"));
  EXPECT_THAT(error_of("# only a comment\n"), HasSubstr("input.txt: no DATA lines"));
}

}  // namespace
}  // namespace ompscope::model
