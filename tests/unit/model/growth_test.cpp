#include "model/growth.h"

#include <gtest/gtest.h>

namespace ompscope::model {
namespace {

PmnfFunction law(double c0, double c1, Fraction i, int j) { return {c0, {{c1, {i, j}}}}; }

TEST(Growth, ClassOfTheTermThatMatters) {
  EXPECT_EQ(classify_growth(law(1, 1, Fraction::of(0), 1), 1, 64), Growth::logarithmic);
  EXPECT_EQ(classify_growth(law(1, 1, Fraction::of(0), 2), 1, 64), Growth::logarithmic);
  EXPECT_EQ(classify_growth(law(1, 1, Fraction::of(1, 2), 0), 1, 64), Growth::sublinear);
  EXPECT_EQ(classify_growth(law(1, 1, Fraction::of(1), 0), 1, 64), Growth::linear);
  EXPECT_EQ(classify_growth(law(1, 1, Fraction::of(1), 1), 1, 64), Growth::superlinear);
  EXPECT_EQ(classify_growth(law(1, 1, Fraction::of(3, 2), 0), 1, 64), Growth::superlinear);
}

TEST(Growth, ATermThatChangesTheValueByLessThanTenPercentIsConstant) {
  // 1e-4 * 64 = 0.0064 on top of 1: fast-growing in form, negligible in fact.
  EXPECT_EQ(classify_growth(law(1, 1e-4, Fraction::of(1), 0), 1, 64), Growth::constant);
  EXPECT_EQ(classify_growth(PmnfFunction{5, {}}, 1, 64), Growth::constant);
}

TEST(Growth, AFallingFunctionIsDecreasing) {
  EXPECT_EQ(classify_growth(law(10, -1, Fraction::of(0), 1), 1, 64), Growth::decreasing);
}

TEST(Growth, OnlyGrowthBeyondLogarithmicIsAScalabilityProblem) {
  EXPECT_FALSE(is_scalability_problem(Growth::constant));
  EXPECT_FALSE(is_scalability_problem(Growth::logarithmic));
  EXPECT_TRUE(is_scalability_problem(Growth::sublinear));
  EXPECT_TRUE(is_scalability_problem(Growth::linear));
  EXPECT_TRUE(is_scalability_problem(Growth::superlinear));
}

TEST(StopsPayingOff, AmdahlsLawStopsWhereDoublingSavesLessThanTenPercent) {
  // T(t) = 0.12 + 0.88 / t: doubling t saves 0.44/t, under 10% of T(t) once t > 29.3.
  const PmnfFunction amdahl{0.12, {{0.88, {Fraction::of(-1), 0}}}};
  EXPECT_EQ(stops_paying_off_at(amdahl, 1, 8), 30.0);
}

TEST(StopsPayingOff, ATimeThatGrowsAgainStopsPayingOffBeforeItsMinimum) {
  // T(t) = 1/t + 0.01 t has its minimum at t = 10.
  const PmnfFunction u_shaped{0, {{1, {Fraction::of(-1), 0}}, {0.01, {Fraction::of(1), 0}}}};
  const auto t = stops_paying_off_at(u_shaped, 1, 64);
  ASSERT_TRUE(t.has_value());
  EXPECT_LE(*t, 10.0);
  EXPECT_GE(*t, 2.0);
}

TEST(StopsPayingOff, PerfectScalingNeverStops) {
  const PmnfFunction perfect{0, {{1, {Fraction::of(-1), 0}}}};
  EXPECT_FALSE(stops_paying_off_at(perfect, 1, 64).has_value());
}

}  // namespace
}  // namespace ompscope::model
