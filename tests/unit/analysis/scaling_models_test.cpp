// `scale` records a fitted T(t) per region and for the program once four or more thread counts
// were measured, with the speedup curve it predicts; with fewer it fits nothing and says why, once.
#include "analysis/scaling_models.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

namespace ompscope::analysis {
namespace {

using testing::ElementsAre;
using testing::HasSubstr;

std::map<int, double> times(const std::vector<int>& threads, const std::function<double(double)>& law) {
  std::map<int, double> out;
  for (int t : threads) out[t] = law(t);
  return out;
}

// A machine of `cores` cores measured at `threads`: the program, and region r1 following `law`.
Report report_at(const std::vector<int>& threads, const std::function<double(double)>& law, int cores = 2) {
  Report report;
  report.command = {"./app"};
  report.cores = cores;
  report.threads = threads;
  report.program_time_s = times(threads, [&](double t) { return 0.1 + law(t); });
  RegionReport region;
  region.id = "r1";
  region.function = "solve";
  region.time_s = times(threads, law);
  report.regions.push_back(region);
  return report;
}

Report modelled(Report report) {
  add_scaling_models(report);
  return report;
}

TEST(ScalingModels, AmdahlRegionAtFourCountsGetsItsLawBack) {
  // 0.8 s that parallelise, 0.2 s that do not: T(t) = 0.2 + 0.8/t.
  const Report report = modelled(report_at({1, 2, 3, 4}, [](double t) { return 0.2 + 0.8 / t; }, 4));
  ASSERT_TRUE(report.regions[0].model.has_value());
  const ScalingModel& model = *report.regions[0].model;
  EXPECT_NEAR(model.constant, 0.2, 1e-9);
  ASSERT_EQ(model.terms.size(), 1u);
  EXPECT_NEAR(model.terms[0].coefficient, 0.8, 1e-9);
  EXPECT_EQ(model.terms[0].i, -1.0);
  EXPECT_EQ(model.terms[0].exponent, "-1");
  EXPECT_EQ(model.terms[0].j, 0);
  EXPECT_TRUE(model.growth_of_thread_seconds);
  EXPECT_EQ(model.growth, "linear");  // the serial 0.2 s costs 0.2·t thread-seconds
  EXPECT_TRUE(model.oversubscribed_threads.empty());
  EXPECT_EQ(model.verdict_withheld, "");
  EXPECT_FALSE(model.function.empty());
  EXPECT_GT(model.adj_r2, 0.99);
  EXPECT_TRUE(report.program_model.has_value());
  EXPECT_TRUE(report.notes.empty());
}

TEST(ScalingModels, TheSpeedupCurveIsTheModelsSpeedupOverOneThreadBetweenTheCounts) {
  Report report = report_at({1, 2, 3, 4}, [](double t) { return 0.2 + 0.8 / t; });
  report.regions[0].speedup = {{1, 1.0}, {2, 1.0 / 0.6}, {3, 1.0 / (0.2 + 0.8 / 3)}, {4, 2.5}};
  report = modelled(report);
  const auto& curve = report.regions[0].model->speedup_curve;
  ASSERT_EQ(curve.size(), 49u);
  EXPECT_DOUBLE_EQ(curve.front().first, 1);
  EXPECT_NEAR(curve.front().second, 1, 1e-9);
  EXPECT_NEAR(curve.back().first, 4, 1e-12);
  EXPECT_NEAR(curve.back().second, 2.5, 1e-9);  // T(1)·1 / T(4) = 1 / 0.4
}

TEST(ScalingModels, PerfectScalingCostsConstantThreadSecondsAndKeepsPayingOff) {
  const Report report = modelled(report_at({1, 2, 4, 8}, [](double t) { return 1.6 / t; }, 8));
  const ScalingModel& model = *report.regions[0].model;
  EXPECT_EQ(model.growth, "constant");
  EXPECT_FALSE(model.stops_paying_off_at.has_value());
  EXPECT_EQ(model.verdict_withheld, "");
}

TEST(ScalingModels, AFitWithOversubscribedCountsGivesNoVerdictAndSaysWhy) {
  // On 2 cores, counts 3 and 4 measure time-sharing; with only two other counts they stay in
  // the fit, which then gives no growth and no payoff verdict.
  const Report report = modelled(report_at({1, 2, 3, 4}, [](double t) { return 0.2 + 0.8 / t; }));
  const ScalingModel& model = *report.regions[0].model;
  EXPECT_THAT(model.oversubscribed_threads, ElementsAre(3, 4));
  EXPECT_EQ(model.growth, "");
  EXPECT_FALSE(model.stops_paying_off_at.has_value());
  EXPECT_THAT(model.verdict_withheld, HasSubstr("without a core per thread (3, 4 on 2 cores)"));
}

TEST(ScalingModels, OversubscribedCountsAreLeftOutWhereFourOthersRemain) {
  // 4 cores, counts 1-4 follow Amdahl's law; at 8 threads time-sharing doubles the time.
  Report report = report_at({1, 2, 3, 4, 8}, [](double t) { return 0.2 + 0.8 / t; }, 4);
  report.regions[0].time_s[8] = 0.6;
  report = modelled(report);
  const ScalingModel& model = *report.regions[0].model;
  EXPECT_TRUE(model.oversubscribed_threads.empty());
  EXPECT_EQ(model.growth, "linear");
  EXPECT_GT(model.adj_r2, 0.99);
}

TEST(ScalingModels, AModelThatDoesNotFollowTheTimesGivesNoVerdictAndSaysWhy) {
  // Times that zigzag: no function of the normal form follows them to adj. R² 0.95.
  const std::map<int, double> zigzag{{1, 1.0}, {2, 0.3}, {3, 0.9}, {4, 0.35}, {5, 0.8}, {6, 0.4}};
  Report report = report_at({1, 2, 3, 4, 5, 6}, [&](double t) { return zigzag.at(static_cast<int>(t)); }, 8);
  report = modelled(report);
  const ScalingModel& model = *report.regions[0].model;
  EXPECT_LT(model.adj_r2, 0.95);
  EXPECT_EQ(model.growth, "");
  EXPECT_FALSE(model.stops_paying_off_at.has_value());
  EXPECT_THAT(model.verdict_withheld, HasSubstr("is below 0.95"));
}

TEST(ScalingModels, FewerThanFourCountsFitNothingAndOneNoteSaysWhy) {
  const Report report = modelled(report_at({1, 2, 4}, [](double t) { return 1.0 / t; }));
  EXPECT_FALSE(report.program_model.has_value());
  EXPECT_FALSE(report.regions[0].model.has_value());
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_EQ(report.notes[0].kind, "models");
  EXPECT_THAT(report.notes[0].text, HasSubstr("3 thread counts were measured (1, 2, 4)"));
  EXPECT_THAT(report.notes[0].text, HasSubstr("at least 4"));
}

TEST(ScalingModels, RegionSeenAtTooFewCountsIsLeftOutAndNamed) {
  Report report = report_at({1, 2, 3, 4}, [](double t) { return 1.0 / t; });
  RegionReport late;
  late.id = "r2";
  late.time_s = {{3, 0.5}, {4, 0.4}};
  report.regions.push_back(late);
  report = modelled(report);
  EXPECT_TRUE(report.regions[0].model.has_value());
  EXPECT_FALSE(report.regions[1].model.has_value());
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_THAT(report.notes[0].items, ElementsAre("r2 (measured at 2 thread counts)"));
}

}  // namespace
}  // namespace ompscope::analysis
