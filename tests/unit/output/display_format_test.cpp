#include "output/display_format.h"

#include <gtest/gtest.h>

namespace ompscope::output {
namespace {

TEST(FormatSeconds, ShowsThreeSignificantDigitsInTheFittingUnit) {
  EXPECT_EQ(format_seconds(0.0), "0 s");
  EXPECT_EQ(format_seconds(1.234), "1.23 s");
  EXPECT_EQ(format_seconds(125.0), "125 s");
  EXPECT_EQ(format_seconds(0.95), "950 ms");
  EXPECT_EQ(format_seconds(0.0125), "12.5 ms");
  EXPECT_EQ(format_seconds(0.0012), "1.20 ms");
  EXPECT_EQ(format_seconds(3.4e-6), "3.40 µs");
  EXPECT_EQ(format_seconds(8.5e-7), "850 ns");
  EXPECT_EQ(format_seconds(8.5e-8), "85 ns");
}

TEST(FormatSeconds, RoundsUpIntoTheNextUnitRatherThanShowing1000) {
  EXPECT_EQ(format_seconds(0.9996), "1.00 s");
  EXPECT_EQ(format_seconds(99.96), "100 s");
}

TEST(FormatSeconds, KeepsTheSignOfANegativeLoss) {
  // Superlinear speedup makes time lost negative; the reader must see that.
  EXPECT_EQ(format_seconds(-0.02), "-20.0 ms");
}

TEST(FormatPercentAndSpeedup, RoundForReading) {
  EXPECT_EQ(format_percent(0.734), "73%");
  EXPECT_EQ(format_percent(1.0), "100%");
  EXPECT_EQ(format_speedup(3.2), "3.20×");
}

TEST(TimeUnitFor, ScalesAxesToTheLargestValue) {
  EXPECT_EQ(time_unit_for(2.0).name, "s");
  EXPECT_EQ(time_unit_for(0.0).name, "s");
  EXPECT_EQ(time_unit_for(0.4).name, "ms");
  EXPECT_DOUBLE_EQ(time_unit_for(0.4).per_second, 1e3);
  EXPECT_EQ(time_unit_for(4e-5).name, "µs");
  EXPECT_EQ(time_unit_for(4e-8).name, "ns");
}

TEST(TruncateLabel, KeepsShortTextWhole) {
  EXPECT_EQ(truncate_label("solve", 5), "solve");
  EXPECT_EQ(truncate_label("", 3), "");
}

TEST(TruncateLabel, CutsLongTextToTheLimitIncludingTheEllipsis) {
  EXPECT_EQ(truncate_label("accumulate", 5), "accu…");
  EXPECT_EQ(truncate_label("accumulate", 1), "…");
  EXPECT_EQ(truncate_label("accumulate", 0), "");
}

TEST(TruncateLabel, NeverSplitsAMultibyteCharacter) {
  EXPECT_EQ(truncate_label("µµµµµµ", 3), "µµ…");
  EXPECT_EQ(truncate_label("aµµ", 3), "aµµ");
}

}  // namespace
}  // namespace ompscope::output
