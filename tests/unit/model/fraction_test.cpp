#include "model/fraction.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace ompscope::model {
namespace {

TEST(Fraction, IsKeptInLowestTermsWithAPositiveDenominator) {
  EXPECT_EQ(Fraction::of(6, 4), Fraction::of(3, 2));
  EXPECT_EQ(Fraction::of(1, -4), (Fraction{-1, 4}));
  EXPECT_EQ(Fraction::of(0, 7), (Fraction{0, 1}));
}

TEST(Fraction, PrintsAsNumeratorSlashDenominatorOrAsAnInteger) {
  EXPECT_EQ(Fraction::of(3, 2).to_string(), "3/2");
  EXPECT_EQ(Fraction::of(2).to_string(), "2");
  EXPECT_EQ(Fraction::of(-1, 3).to_string(), "-1/3");
}

TEST(Fraction, SubtractsExactly) { EXPECT_EQ(Fraction::of(5, 4) - Fraction::of(1), Fraction::of(1, 4)); }

TEST(Fraction, ParsesFractionsIntegersAndExactDecimals) {
  EXPECT_EQ(parse_fraction("3/2"), Fraction::of(3, 2));
  EXPECT_EQ(parse_fraction("2"), Fraction::of(2));
  EXPECT_EQ(parse_fraction("0.75"), Fraction::of(3, 4));
  EXPECT_EQ(parse_fraction("-1/4"), Fraction::of(-1, 4));
}

TEST(Fraction, RefusesTextThatIsNoSmallFraction) {
  EXPECT_THROW(parse_fraction("0.33"), Error);
  EXPECT_THROW(parse_fraction("1/0"), Error);
  EXPECT_THROW(parse_fraction("x"), Error);
  EXPECT_THROW(parse_fraction(""), Error);
}

}  // namespace
}  // namespace ompscope::model
