// The JSON and the table that `ompscope model` prints.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/model_json.h"
#include "model/model_table.h"

namespace ompscope::model {
namespace {

using ::testing::HasSubstr;

Model barrier_model() {
  Model model;
  model.region = "barrier";
  model.metric = "time";
  model.kind = SeriesKind::construct;
  model.thread_class = "PO2";
  model.split = "classes";
  model.function = {1.2e-06, {{3.4e-08, {Fraction::of(3, 2), 1}}}};
  model.quality = {7, 1e-14, 0.98, 2.1, 3.5};
  model.growth = Growth::superlinear;
  model.scalability_problem = true;
  model.threads = {1, 2, 4, 8, 16, 32, 64};
  model.values = {1, 2, 3, 4, 5, 6, 7};
  return model;
}

TEST(ModelJson, FollowsTheDesignSchemaWithExactExponents) {
  const nlohmann::json out = models_to_json({barrier_model()});
  const nlohmann::json& model = out.at("models").at(0);
  EXPECT_EQ(model.at("region"), "barrier");
  EXPECT_EQ(model.at("metric"), "time");
  EXPECT_EQ(model.at("class"), "PO2");
  EXPECT_EQ(model.at("function"), "1.2e-06 + 3.4e-08 * t^(3/2) * log2(t)");
  EXPECT_EQ(model.at("constant"), 1.2e-06);
  EXPECT_EQ(model.at("terms").at(0).at("coefficient"), 3.4e-08);
  EXPECT_EQ(model.at("terms").at(0).at("i"), 1.5);
  EXPECT_EQ(model.at("terms").at(0).at("exponent"), "3/2");
  EXPECT_EQ(model.at("terms").at(0).at("j"), 1);
  EXPECT_EQ(model.at("adj_r2"), 0.98);
  EXPECT_EQ(model.at("smape"), 2.1);
  EXPECT_EQ(model.at("cv_error"), 3.5);
  EXPECT_EQ(model.at("growth"), "super-linear");
  EXPECT_EQ(model.at("scalability_problem"), true);
  EXPECT_FALSE(model.contains("stops_paying_off_at"));
}

TEST(ModelJson, RegionTimeModelsSayWhereTheyStopPayingOff) {
  Model model = barrier_model();
  model.kind = SeriesKind::region_time;
  model.stops_paying_off_at = 30;
  model.extrapolated = true;
  model.growth_of_thread_seconds = true;
  const nlohmann::json out = model_to_json(model);
  EXPECT_EQ(out.at("stops_paying_off_at"), 30);
  EXPECT_EQ(out.at("extrapolated"), true);
  EXPECT_EQ(out.at("growth_of"), "thread_seconds");
  model.stops_paying_off_at.reset();
  EXPECT_TRUE(model_to_json(model).at("stops_paying_off_at").is_null());
}

TEST(ModelTable, OneRowPerModelUnderAHeader) {
  const std::string table = models_to_table({barrier_model()});
  EXPECT_THAT(table, HasSubstr("REGION   METRIC  CLASS  MODEL"));
  EXPECT_THAT(table, HasSubstr("barrier  time    PO2    1.2e-06 + 3.4e-08 * t^(3/2) * log2(t)   0.980    2.10  3.50  super-linear  scalability problem"));
  EXPECT_THAT(table, HasSubstr("in-sample"));
}

TEST(ModelTable, VerdictsOfRegions) {
  Model model = barrier_model();
  model.kind = SeriesKind::region_time;
  model.stops_paying_off_at = 30;
  model.extrapolated = true;
  EXPECT_EQ(verdict(model), "stops paying off past 30 threads (extrapolated)");
  model.stops_paying_off_at.reset();
  EXPECT_EQ(verdict(model), "keeps paying off");
  model.quality.adj_r2 = 0.64;  // no verdict from a model that does not follow its series
  EXPECT_EQ(verdict(model), "none: adj. R² 0.64 < 0.95");
}

TEST(ModelTable, AConstructModelBelowTheAdjR2RuleIsNoScalabilityProblem) {
  Model model = barrier_model();
  model.quality.adj_r2 = 0.52;
  EXPECT_EQ(verdict(model), "none: adj. R² 0.52 < 0.95");
}

}  // namespace
}  // namespace ompscope::model
