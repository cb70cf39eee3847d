// `scale` records a fitted T(t) per region and for the program once four or more thread counts
// were measured, with the speedup curve it predicts; with fewer it fits nothing and says why, once.
#include "analysis/scaling_models.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

#include "model/scale_report_models.h"
#include "model/scale_report_reader.h"

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
  EXPECT_EQ(model.growth, report::Growth::linear);  // the serial 0.2 s costs 0.2·t thread-seconds
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
  EXPECT_EQ(model.growth, report::Growth::constant);
  EXPECT_FALSE(model.stops_paying_off_at.has_value());
  EXPECT_EQ(model.verdict_withheld, "");
}

TEST(ScalingModels, AFitWithOversubscribedCountsGivesNoVerdictAndSaysWhy) {
  // On 2 cores, counts 3 and 4 measure time-sharing; with only two other counts they stay in
  // the fit, which then gives no growth and no payoff verdict.
  const Report report = modelled(report_at({1, 2, 3, 4}, [](double t) { return 0.2 + 0.8 / t; }));
  const ScalingModel& model = *report.regions[0].model;
  EXPECT_THAT(model.oversubscribed_threads, ElementsAre(3, 4));
  EXPECT_FALSE(model.growth.has_value());
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
  EXPECT_EQ(model.growth, report::Growth::linear);
  EXPECT_GT(model.adj_r2, 0.99);
}

TEST(ScalingModels, AModelThatDoesNotFollowTheTimesGivesNoVerdictAndSaysWhy) {
  // Times that zigzag: no function of the normal form follows them to adj. R² 0.95.
  const std::map<int, double> zigzag{{1, 1.0}, {2, 0.3}, {3, 0.9}, {4, 0.35}, {5, 0.8}, {6, 0.4}};
  Report report = report_at({1, 2, 3, 4, 5, 6}, [&](double t) { return zigzag.at(static_cast<int>(t)); }, 8);
  report = modelled(report);
  const ScalingModel& model = *report.regions[0].model;
  EXPECT_LT(model.adj_r2, 0.95);
  EXPECT_FALSE(model.growth.has_value());
  EXPECT_FALSE(model.stops_paying_off_at.has_value());
  EXPECT_THAT(model.verdict_withheld, HasSubstr("< 0.95"));
}

// `ompscope model` on a scale report fits what `scale` fitted (the report's medians, no split,
// the same counts) and withholds by the same rule: the two never disagree on a verdict.
void expect_model_agrees_with_scale(const Report& scaled) {
  // As the command fits it (cli/model_command.cpp): one model over all counts, four counts at least.
  const model::ModelledSeries fitted =
      model::model_all(model::series_of_report(scaled), scaling_model_options(), model::kScaleMinimumThreadCounts);
  auto region_model = [&](const std::string& name) -> const model::Model* {
    for (const model::Model& m : fitted.models)
      if (m.metric == "time_s" && m.region.rfind(name, 0) == 0) return &m;
    return nullptr;
  };
  const model::Model* region = region_model("r1");
  const model::Model* program = region_model("program");
  ASSERT_NE(region, nullptr);
  ASSERT_NE(program, nullptr);
  for (const auto& [ours, theirs] : {std::pair{region, &*scaled.regions[0].model}, std::pair{program, &*scaled.program_model}}) {
    const std::string why = model::withheld_reason(*ours);
    EXPECT_EQ(why.empty(), theirs->verdict_withheld.empty()) << why << " / " << theirs->verdict_withheld;
    EXPECT_EQ(why.empty() ? std::optional<report::Growth>(ours->growth) : std::nullopt, theirs->growth);
    EXPECT_EQ(why.empty() ? ours->stops_paying_off_at : std::nullopt, theirs->stops_paying_off_at);
    EXPECT_EQ(ours->function.to_string(), theirs->function);
  }
}

TEST(ScalingModels, ModelAndScaleAgreeOnEachVerdictOfOneReport) {
  // A law both give a verdict on, times that zigzag (neither does), and counts past the cores
  // (both fit the own-core counts where four remain, and neither gives a verdict where they do not).
  expect_model_agrees_with_scale(modelled(report_at({1, 2, 3, 4}, [](double t) { return 0.2 + 0.8 / t; }, 4)));
  const std::map<int, double> zigzag{{1, 1.0}, {2, 0.3}, {3, 0.9}, {4, 0.35}, {5, 0.8}, {6, 0.4}};
  expect_model_agrees_with_scale(
      modelled(report_at({1, 2, 3, 4, 5, 6}, [&](double t) { return zigzag.at(static_cast<int>(t)); }, 8)));
  expect_model_agrees_with_scale(modelled(report_at({1, 2, 3, 4, 6, 8}, [](double t) { return 0.1 + 1.0 / t + 0.05 * t; }, 4)));
  const Report over = modelled(report_at({1, 2, 3, 4, 6}, [](double t) { return 0.1 + 1.0 / t; }, 3));
  EXPECT_FALSE(over.regions[0].model->verdict_withheld.empty());
  expect_model_agrees_with_scale(over);
}

TEST(ScalingModels, ASeriesThatRisesIsNeverCalledConstant) {
  // A cause's time rising 0.23 -> 31 us over four counts, unevenly (issue 24: `model` called it
  // "constant"): whatever the fit, no growth class where the model does not follow it.
  model::Series series{"r1", "fork_join_overhead", model::SeriesKind::generic, model::Summary::minimum, {}};
  const double values[] = {0.23e-6, 31e-6, 4e-6, 29e-6};
  for (int k = 0; k < 4; ++k) series.points.push_back({static_cast<double>(k + 1), {values[k]}});
  const std::vector<model::Model> models = model::model_series(series, scaling_model_options());
  ASSERT_EQ(models.size(), 1u);
  const model::Model& m = models[0];
  if (m.growth == model::Growth::constant) EXPECT_FALSE(model::withheld_reason(m).empty()) << m.function.to_string();
  EXPECT_THAT(model::withheld_reason(m), HasSubstr("adj. R²"));

  // A constant every point lies close to keeps its class: R² says nothing of a constant.
  model::Series flat{"r1", "barrier_overhead", model::SeriesKind::generic, model::Summary::minimum, {}};
  const double near[] = {10e-6, 10.4e-6, 9.8e-6, 10.1e-6};
  for (int k = 0; k < 4; ++k) flat.points.push_back({static_cast<double>(k + 1), {near[k]}});
  const model::Model f = model::model_series(flat, scaling_model_options()).front();
  EXPECT_EQ(f.growth, model::Growth::constant);
  EXPECT_EQ(model::withheld_reason(f), "");
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
