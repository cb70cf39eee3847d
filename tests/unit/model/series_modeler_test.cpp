#include "model/series_modeler.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "common/error.h"

namespace ompscope::model {
namespace {

// A small deterministic generator, so the noisy tests draw the same numbers everywhere.
class Noise {
 public:
  explicit Noise(double amplitude) : amplitude_(amplitude) {}
  double factor() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    const double unit = static_cast<double>(state_ >> 11) / static_cast<double>(1ULL << 53);
    return 1 + amplitude_ * (2 * unit - 1);
  }

 private:
  double amplitude_;
  std::uint64_t state_ = 42;
};

Series named(std::string region, std::string metric, SeriesKind kind) {
  Series series;
  series.region = std::move(region);
  series.metric = std::move(metric);
  series.kind = kind;
  return series;
}

void add_points(Series& series, const PmnfFunction& law, const std::vector<double>& threads,
                Noise* noise = nullptr, int repetitions = 1) {
  for (double t : threads) {
    Measurement point{t, {}};
    for (int r = 0; r < repetitions; ++r) point.values.push_back(law(t) * (noise ? noise->factor() : 1));
    series.points.push_back(point);
  }
}

const PmnfFunction kLogarithmic{2, {{0.5, {Fraction::of(0), 1}}}};
const PmnfFunction kSuperlinear{1, {{0.05, {Fraction::of(3, 2), 0}}}};
const std::vector<double> kPo2 = {1, 2, 4, 8, 16, 32, 64, 128};
const std::vector<double> kOdd = {24, 40, 56, 72, 88, 104, 120};

TEST(ModelSeries, OneLawOverAllThreadCountsGivesOneModel) {
  Series series = named("loop", "time", SeriesKind::generic);
  add_points(series, kSuperlinear, {1, 2, 4, 8, 16, 32, 64});
  const auto models = model_series(series);
  ASSERT_EQ(models.size(), 1u);
  EXPECT_EQ(models[0].thread_class, "ALL");
  EXPECT_EQ(models[0].split, "none");
  EXPECT_EQ(models[0].function.terms.at(0).shape, kSuperlinear.terms[0].shape);
  EXPECT_EQ(models[0].growth, Growth::superlinear);
  EXPECT_EQ(models[0].threads.size(), 7u);
}

TEST(ModelSeries, TwoLawsPlantedOnPowersOfTwoAndOddCountsAreBothRecovered) {
  Series series = named("barrier", "time", SeriesKind::construct);
  add_points(series, kLogarithmic, kPo2);
  add_points(series, kSuperlinear, kOdd);
  const auto models = model_series(series);
  ASSERT_EQ(models.size(), 2u);
  EXPECT_EQ(models[0].split, "classes");
  EXPECT_EQ(models[0].thread_class, "PO2");
  EXPECT_EQ(models[0].function.terms.at(0).shape, kLogarithmic.terms[0].shape);
  EXPECT_FALSE(models[0].scalability_problem);
  EXPECT_EQ(models[1].thread_class, "ODD");
  EXPECT_EQ(models[1].function.terms.at(0).shape, kSuperlinear.terms[0].shape);
  EXPECT_TRUE(models[1].scalability_problem);
}

TEST(ModelSeries, PlantedClassesAreRecoveredThroughOnePercentNoise) {
  Noise noise(0.01);
  Series series = named("barrier", "time", SeriesKind::construct);
  add_points(series, kLogarithmic, kPo2, &noise, 5);
  add_points(series, kSuperlinear, kOdd, &noise, 5);
  const auto models = model_series(series);
  ASSERT_EQ(models.size(), 2u);
  EXPECT_EQ(models[0].thread_class, "PO2");
  EXPECT_EQ(models[0].function.terms.at(0).shape, kLogarithmic.terms[0].shape);
  EXPECT_EQ(models[1].thread_class, "ODD");
  EXPECT_EQ(models[1].function.terms.at(0).shape, kSuperlinear.terms[0].shape);
}

TEST(ModelSeries, TwoRegimesAreSplitAtTheirBreakpoint) {
  Series series = named("lock", "time", SeriesKind::generic);
  add_points(series, PmnfFunction{1, {{1, {Fraction::of(0), 1}}}}, {1, 2, 3, 4});
  add_points(series, PmnfFunction{-60, {{1, {Fraction::of(2), 0}}}}, {8, 12, 16, 20});
  const auto models = model_series(series);
  ASSERT_EQ(models.size(), 2u);
  EXPECT_EQ(models[0].split, "breakpoint");
  EXPECT_EQ(models[0].thread_class, "t<=4");
  EXPECT_EQ(models[1].thread_class, "t>4");
}

TEST(ModelSeries, NoisyConstantIsNotSplit) {
  Noise noise(0.05);
  Series series = named("atomic", "time", SeriesKind::construct);
  add_points(series, PmnfFunction{3, {}}, {1, 2, 4, 8, 16, 24, 32, 40, 48, 56, 64}, &noise, 5);
  const auto models = model_series(series);
  ASSERT_EQ(models.size(), 1u);
  EXPECT_EQ(models[0].growth, Growth::constant);
  EXPECT_FALSE(models[0].scalability_problem);
}

TEST(ModelSeries, RegionTimeFollowingAmdahlStopsPayingOffBeyondTheMeasuredRange) {
  Series series = named("solve", "time_s", SeriesKind::region_time);
  // T(t) = 0.12 + 0.88 / t: doubling t saves 0.44/t, under 10% of T(t) once t > 29.3.
  add_points(series, PmnfFunction{0.12, {{0.88, {Fraction::of(-1), 0}}}}, {1, 2, 4, 8});
  const auto models = model_series(series);
  ASSERT_EQ(models.size(), 1u);
  const Model& model = models[0];
  // The thread-seconds 0.88 + 0.12 t grow linearly: the serial part.
  EXPECT_TRUE(model.growth_of_thread_seconds);
  EXPECT_EQ(model.growth, Growth::linear);
  EXPECT_NEAR(model.function.constant, 0.12, 1e-12);
  ASSERT_EQ(model.function.terms.size(), 1u);
  EXPECT_EQ(model.function.terms[0].shape, (TermShape{Fraction::of(-1), 0}));
  EXPECT_NEAR(model.function.terms[0].coefficient, 0.88, 1e-12);
  ASSERT_TRUE(model.stops_paying_off_at.has_value());
  EXPECT_EQ(*model.stops_paying_off_at, 30.0);
  EXPECT_TRUE(model.extrapolated);
  EXPECT_NEAR(model.quality.adj_r2, 1.0, 1e-9);
}

TEST(ModelSeries, RegionTimeWithGrowingOverheadStopsPayingOffInsideTheRange) {
  // T(t) = 1/t + 0.002 t log2(t): the overhead takes over at a few dozen threads.
  Series series = named("update", "time_s", SeriesKind::region_time);
  add_points(series, PmnfFunction{0, {{1, {Fraction::of(-1), 0}}, {0.002, {Fraction::of(1), 1}}}},
             {1, 2, 4, 8, 16, 32, 64});
  const auto models = model_series(series);
  ASSERT_EQ(models.size(), 1u);
  EXPECT_EQ(models[0].growth, Growth::superlinear);
  ASSERT_TRUE(models[0].stops_paying_off_at.has_value());
  EXPECT_LT(*models[0].stops_paying_off_at, 64.0);
  EXPECT_FALSE(models[0].extrapolated);
}

TEST(ModelSeries, RepetitionsOfTheSameThreadCountAreMerged) {
  Series series = named("r", "m", SeriesKind::generic);
  series.summary = Summary::median;
  series.points = {{1, {1.0}}, {2, {2.0}}, {2, {2.2, 2.1}}, {4, {4.0}}};
  const auto models = model_series(series);
  ASSERT_EQ(models[0].threads, (std::vector<double>{1, 2, 4}));
  EXPECT_DOUBLE_EQ(models[0].values[1], 2.1);
}

TEST(ModelSeries, FewerThanThreeThreadCountsIsAnError) {
  Series series = named("r", "m", SeriesKind::generic);
  series.points = {{1, {1.0}}, {2, {2.0}}};
  EXPECT_THROW(model_series(series), Error);
}

}  // namespace
}  // namespace ompscope::model
