#include "model/pmnf_function.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "model/hypothesis_space.h"

namespace ompscope::model {
namespace {

TEST(TermShape, PrintsExponentsAsExactFractions) {
  EXPECT_EQ((TermShape{Fraction::of(3, 2), 1}).to_string(), "t^(3/2) * log2(t)");
  EXPECT_EQ((TermShape{Fraction::of(1), 0}).to_string(), "t");
  EXPECT_EQ((TermShape{Fraction::of(2), 2}).to_string(), "t^2 * log2(t)^2");
  EXPECT_EQ((TermShape{Fraction::of(0), 1}).to_string(), "log2(t)");
  EXPECT_EQ((TermShape{Fraction::of(-1, 2), 0}).to_string(), "t^(-1/2)");
}

TEST(TermShape, EvaluatesPowerTimesLogarithm) {
  EXPECT_DOUBLE_EQ((TermShape{Fraction::of(3, 2), 1}).at(4), 8.0 * 2.0);
  EXPECT_DOUBLE_EQ((TermShape{Fraction::of(0), 2}).at(8), 9.0);
  EXPECT_DOUBLE_EQ((TermShape{Fraction::of(1), 1}).at(1), 0.0);
}

TEST(PmnfFunction, PrintsConstantThenTermsWithSigns) {
  PmnfFunction f{1.2e-06, {{3.4e-08, {Fraction::of(3, 2), 1}}}};
  EXPECT_EQ(f.to_string(), "1.2e-06 + 3.4e-08 * t^(3/2) * log2(t)");
  PmnfFunction g{0.05, {{0.95, {Fraction::of(-1), 0}}, {-2, {Fraction::of(1), 0}}}};
  EXPECT_EQ(g.to_string(), "0.05 + 0.95 / t - 2 * t");
}

TEST(PmnfFunction, EvaluatesEveryTerm) {
  PmnfFunction f{1, {{2, {Fraction::of(1), 0}}, {3, {Fraction::of(0), 1}}}};
  EXPECT_DOUBLE_EQ(f(8), 1 + 16 + 9);
}

TEST(HypothesisSpace, DefaultHas38TermShapesOrderedByGrowth) {
  const std::vector<TermShape> shapes = HypothesisSpace{}.term_shapes();
  ASSERT_EQ(shapes.size(), 38u);
  EXPECT_EQ(shapes.front(), (TermShape{Fraction::of(0), 1}));
  EXPECT_EQ(shapes.back(), (TermShape{Fraction::of(2), 2}));
}

TEST(HypothesisSpace, ExponentListsParse) {
  EXPECT_EQ(parse_exponent_list("0, 1/2,1"),
            (std::vector<Fraction>{Fraction::of(0), Fraction::of(1, 2), Fraction::of(1)}));
  EXPECT_EQ(parse_log_exponent_list("0,1"), (std::vector<int>{0, 1}));
}

TEST(HypothesisSpace, ExponentListsRefuseNegativeEmptyAndLargeItems) {
  EXPECT_THROW(parse_exponent_list("0,-1/2"), Error);
  EXPECT_THROW(parse_exponent_list("0,,1"), Error);
  EXPECT_THROW(parse_log_exponent_list("5"), Error);
  EXPECT_THROW(parse_log_exponent_list("x"), Error);
}

}  // namespace
}  // namespace ompscope::model
