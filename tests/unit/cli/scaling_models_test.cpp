// `scale` records a fitted T(t) per region and for the program once four or more thread counts
// were measured; with fewer it fits nothing and says why, once.
#include "cli/scaling_models.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

#include "output/report_json.h"

namespace ompscope::cli {
namespace {

using nlohmann::json;
using testing::HasSubstr;

std::map<int, double> times(const std::vector<int>& threads, const std::function<double(double)>& law) {
  std::map<int, double> out;
  for (int t : threads) out[t] = law(t);
  return out;
}

// A two-core machine measured at `threads`: the program, and region r1 following `law`.
analysis::Report report_at(const std::vector<int>& threads, const std::function<double(double)>& law) {
  analysis::Report report;
  report.command = {"./app"};
  report.cores = 2;
  report.threads = threads;
  report.program_time_s = times(threads, [&](double t) { return 0.1 + law(t); });
  analysis::RegionReport region;
  region.id = "r1";
  region.function = "solve";
  region.time_s = times(threads, law);
  report.regions.push_back(region);
  return report;
}

json modelled(const analysis::Report& report) {
  json doc = output::report_to_json(report);
  add_scaling_models(report, doc);
  return doc;
}

TEST(ScalingModels, AmdahlRegionAtFourCountsGetsItsLawBackWithOversubscribedCountsNamed) {
  // 0.8 s that parallelise, 0.2 s that do not: T(t) = 0.2 + 0.8/t.
  const json doc = modelled(report_at({1, 2, 3, 4}, [](double t) { return 0.2 + 0.8 / t; }));
  const json& model = doc["regions"][0]["model"];
  EXPECT_NEAR(model["constant"].get<double>(), 0.2, 1e-9);
  ASSERT_EQ(model["terms"].size(), 1u);
  EXPECT_NEAR(model["terms"][0]["coefficient"].get<double>(), 0.8, 1e-9);
  EXPECT_EQ(model["terms"][0]["i"].get<double>(), -1.0);
  EXPECT_EQ(model["terms"][0]["j"].get<int>(), 0);
  EXPECT_EQ(model["kind"], "region_time");
  EXPECT_EQ(model["growth_of"], "thread_seconds");
  EXPECT_EQ(model["growth"], "linear");  // the serial 0.2 s costs 0.2·t thread-seconds
  EXPECT_EQ(model["oversubscribed_threads"], json({3, 4}));
  EXPECT_EQ(model["threads"], json({1.0, 2.0, 3.0, 4.0}));
  for (const char* key : {"function", "adj_r2", "smape"}) EXPECT_TRUE(model.contains(key)) << key;
  EXPECT_TRUE(doc["program"].contains("model"));
  EXPECT_TRUE(doc["notes"].empty());
}

TEST(ScalingModels, PerfectScalingCostsConstantThreadSecondsAndKeepsPayingOff) {
  const json doc = modelled(report_at({1, 2, 4, 8}, [](double t) { return 1.6 / t; }));
  const json& model = doc["regions"][0]["model"];
  EXPECT_EQ(model["growth"], "constant");
  EXPECT_TRUE(model["stops_paying_off_at"].is_null());
  EXPECT_EQ(model["oversubscribed_threads"], json({4, 8}));
}

TEST(ScalingModels, FewerThanFourCountsFitNothingAndOneNoteSaysWhy) {
  const json doc = modelled(report_at({1, 2, 4}, [](double t) { return 1.0 / t; }));
  EXPECT_FALSE(doc["program"].contains("model"));
  EXPECT_FALSE(doc["regions"][0].contains("model"));
  ASSERT_EQ(doc["notes"].size(), 1u);
  EXPECT_THAT(doc["notes"][0].get<std::string>(), HasSubstr("3 thread counts were measured (1, 2, 4)"));
  EXPECT_THAT(doc["notes"][0].get<std::string>(), HasSubstr("at least 4"));
}

TEST(ScalingModels, RegionSeenAtTooFewCountsIsLeftOutAndNamed) {
  analysis::Report report = report_at({1, 2, 3, 4}, [](double t) { return 1.0 / t; });
  analysis::RegionReport late;
  late.id = "r2";
  late.time_s = {{3, 0.5}, {4, 0.4}};
  report.regions.push_back(late);
  const json doc = modelled(report);
  EXPECT_TRUE(doc["regions"][0].contains("model"));
  EXPECT_FALSE(doc["regions"][1].contains("model"));
  ASSERT_EQ(doc["notes"].size(), 1u);
  EXPECT_EQ(doc["notes"][0], "no scaling model for r2 (measured at 2 thread counts)");
}

}  // namespace
}  // namespace ompscope::cli
