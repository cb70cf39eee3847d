// Round trips: values generated from a known law must give that law back.
#include "model/pmnf_fitter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "common/error.h"

namespace ompscope::model {
namespace {

const std::vector<double> kPowersOfTwo = {1, 2, 4, 8, 16, 32, 64};

std::vector<double> sample(const PmnfFunction& law, const std::vector<double>& threads) {
  std::vector<double> values;
  for (double t : threads) values.push_back(law(t));
  return values;
}

TEST(PmnfFitter, RecoversEveryOneOfThe38LawsExactlyFromNoiseFreeData) {
  PmnfFitter fitter;
  for (const TermShape& shape : HypothesisSpace{}.term_shapes()) {
    // Coefficients of different sizes so that neither part dominates.
    for (const auto& [c0, c1] : {std::pair{3.0, 0.7}, std::pair{0.2, 5.0}}) {
      const PmnfFunction law{c0, {{c1, shape}}};
      const Fit fit = fitter.fit(kPowersOfTwo, sample(law, kPowersOfTwo));
      ASSERT_EQ(fit.function.terms.size(), 1u) << shape.to_string();
      EXPECT_EQ(fit.function.terms[0].shape, shape) << "picked " << fit.function.to_string();
      EXPECT_NEAR(fit.function.terms[0].coefficient, c1, 1e-9 * c1) << shape.to_string();
      EXPECT_NEAR(fit.function.constant, c0, 1e-9 * (c0 + c1)) << shape.to_string();
      EXPECT_NEAR(fit.quality.adj_r2, 1.0, 1e-12);
      EXPECT_LT(fit.quality.cv_error, 1e-8);
    }
  }
}

TEST(PmnfFitter, ConstantDataGiveTheConstantModel) {
  PmnfFitter fitter;
  const Fit fit = fitter.fit(kPowersOfTwo, std::vector<double>(7, 2.5));
  EXPECT_TRUE(fit.function.terms.empty());
  EXPECT_DOUBLE_EQ(fit.function.constant, 2.5);
  EXPECT_DOUBLE_EQ(fit.quality.adj_r2, 1.0);
  EXPECT_NEAR(fit.quality.smape, 0.0, 1e-9);
}

TEST(PmnfFitter, TheConstantCompetesWithTheTermsOnEqualFooting) {
  // Alternating noise around a constant: no term predicts left-out points better.
  PmnfFitter fitter;
  const Fit fit = fitter.fit(kPowersOfTwo, std::vector<double>{10.1, 9.9, 10.1, 9.9, 10.1, 9.9, 10.1});
  EXPECT_TRUE(fit.function.terms.empty()) << fit.function.to_string();
}

TEST(PmnfFitter, ReportsInSampleQualityOfTheChosenModel) {
  PmnfFitter fitter;
  const std::vector<double> threads = {1, 2, 4, 8};
  const Fit fit = fitter.fit(threads, std::vector<double>{1.0, 2.1, 3.9, 8.2});  // nearly linear
  EXPECT_EQ(fit.quality.points, 4);
  EXPECT_GT(fit.quality.adj_r2, 0.99);
  EXPECT_LT(fit.quality.smape, 5.0);
  EXPECT_GT(fit.quality.cv_error, 0.0);
  EXPECT_GT(fit.quality.rss, 0.0);
}

TEST(PmnfFitter, WithTwoTermsRecoversATwoTermLaw) {
  HypothesisSpace space;
  space.max_terms = 2;
  PmnfFitter fitter(space);
  const PmnfFunction law{
      1.5, {{0.5, {Fraction::of(0), 1}}, {0.01, {Fraction::of(2), 0}}}};
  const std::vector<double> threads = {1, 2, 4, 8, 16, 32, 64, 128};
  const Fit fit = fitter.fit(threads, sample(law, threads));
  ASSERT_EQ(fit.function.terms.size(), 2u) << fit.function.to_string();
  EXPECT_EQ(fit.function.terms[0].shape, law.terms[0].shape);
  EXPECT_EQ(fit.function.terms[1].shape, law.terms[1].shape);
  EXPECT_NEAR(fit.function.terms[1].coefficient, 0.01, 1e-9);
}

TEST(PmnfFitter, WithTwoTermsStillPrefersOneTermWhenOneIsTheLaw) {
  HypothesisSpace space;
  space.max_terms = 2;
  PmnfFitter fitter(space);
  const PmnfFunction law{2, {{0.3, {Fraction::of(3, 2), 1}}}};
  const Fit fit = fitter.fit(kPowersOfTwo, sample(law, kPowersOfTwo));
  ASSERT_EQ(fit.function.terms.size(), 1u) << fit.function.to_string();
  EXPECT_EQ(fit.function.terms[0].shape, law.terms[0].shape);
}

TEST(PmnfFitter, ChoosesOnlyFromTheConfiguredExponents) {
  HypothesisSpace space;
  space.exponents = {Fraction::of(0), Fraction::of(1)};
  space.log_exponents = {0};
  PmnfFitter fitter(space);
  const PmnfFunction law{1, {{1, {Fraction::of(2), 0}}}};
  const Fit fit = fitter.fit(kPowersOfTwo, sample(law, kPowersOfTwo));
  ASSERT_EQ(fit.function.terms.size(), 1u);
  EXPECT_EQ(fit.function.terms[0].shape, (TermShape{Fraction::of(1), 0}));
}

TEST(PmnfFitter, AcceptsThreadCountsInAnyOrder) {
  PmnfFitter fitter;
  const PmnfFunction law{1, {{2, {Fraction::of(1, 2), 0}}}};
  const std::vector<double> threads = {16, 1, 4, 64, 2};
  const Fit fit = fitter.fit(threads, sample(law, threads));
  ASSERT_EQ(fit.function.terms.size(), 1u);
  EXPECT_EQ(fit.function.terms[0].shape, law.terms[0].shape);
}

TEST(PmnfFitter, RefusesMalformedInput) {
  PmnfFitter fitter;
  EXPECT_THROW(fitter.fit(std::vector<double>{1, 2}, std::vector<double>{1}), Error);
  EXPECT_THROW(fitter.fit(std::vector<double>{1}, std::vector<double>{1}), Error);
  EXPECT_THROW(fitter.fit(std::vector<double>{1, 2, 2}, std::vector<double>{1, 2, 3}), Error);
  EXPECT_THROW(fitter.fit(std::vector<double>{0, 1, 2}, std::vector<double>{1, 2, 3}), Error);
  EXPECT_THROW(fitter.fit(std::vector<double>{1, 2, 4}, std::vector<double>{1, NAN, 3}), Error);
  HypothesisSpace too_many_terms;
  too_many_terms.max_terms = 4;
  EXPECT_THROW(PmnfFitter{too_many_terms}, Error);
}

TEST(PmnfFitter, ValuesThatCrossZeroStillFit) {
  PmnfFitter fitter;
  const PmnfFunction law{-3, {{1, {Fraction::of(1), 0}}}};
  const Fit fit = fitter.fit(kPowersOfTwo, sample(law, kPowersOfTwo));
  ASSERT_EQ(fit.function.terms.size(), 1u) << fit.function.to_string();
  EXPECT_EQ(fit.function.terms[0].shape, law.terms[0].shape);
}

}  // namespace
}  // namespace ompscope::model
