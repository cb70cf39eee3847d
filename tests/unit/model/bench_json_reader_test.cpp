#include "model/bench_json_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/error.h"

namespace ompscope::model {
namespace {

using ::testing::HasSubstr;
using nlohmann::json;

json result(const std::string& construct, const std::string& method, const std::string& metric,
            int threads, std::vector<double> raw) {
  return {{"construct", construct}, {"runtime", "llvm"}, {"method", method}, {"metric", metric},
          {"threads", threads},     {"oversubscribed", false}, {"unit", "s"},
          {"statistics", {{"mean", 1e-7}, {"sd", 1e-8}, {"min", 1e-7}, {"median", 1.5e-7}, {"max", 2e-7}, {"count", 2}}},
          {"raw", raw}};
}

json document(json results) {
  return {{"tool", "ompscope-bench"}, {"version", "0.1.0"}, {"runtime", "llvm"}, {"cores", 2},
          {"results", std::move(results)}};
}

TEST(BenchJsonReader, OneSeriesPerConstructRuntimeMethodAndMetric) {
  const json input = document(json::array({result("barrier", "epcc", "overhead", 1, {1e-7, 2e-7}),
                               result("barrier", "epcc", "overhead", 2, {3e-7}),
                               result("barrier", "direct", "min_cost", 1, {4e-7}),
                               result("barrier", "direct", "avg_cost", 1, {5e-7})}));
  ASSERT_TRUE(looks_like_bench_json(input));
  const auto series = read_bench_json(input, "bench.json");
  ASSERT_EQ(series.size(), 3u);
  EXPECT_EQ(series[0].region, "barrier [llvm, epcc]");
  EXPECT_EQ(series[0].metric, "overhead");
  EXPECT_EQ(series[0].kind, SeriesKind::construct);
  ASSERT_EQ(series[0].points.size(), 2u);
  EXPECT_EQ(series[0].points[0].values, (std::vector<double>{1e-7, 2e-7}));
  EXPECT_EQ(series[0].points[1].threads, 2);
  EXPECT_EQ(series[1].region, "barrier [llvm, direct]");
  EXPECT_EQ(series[1].metric, "min_cost");
}

TEST(BenchJsonReader, OverheadsUseTheMedianAndDirectCostsTheMinimum) {
  const auto series = read_bench_json(document(json::array({result("single", "epcc", "overhead", 1, {1}),
                                                result("single", "direct", "avg_cost", 1, {1})})),
                                      "bench.json");
  EXPECT_EQ(series[0].summary, Summary::median);
  EXPECT_EQ(series[1].summary, Summary::minimum);
}

TEST(BenchJsonReader, WithoutRawValuesTheMedianStandsForThePoint) {
  const auto series = read_bench_json(document(json::array({result("atomic", "epcc", "overhead", 4, {})})), "bench.json");
  EXPECT_EQ(series[0].points[0].values, (std::vector<double>{1.5e-7}));
}

TEST(BenchJsonReader, NamesThePathOfAMalformedResult) {
  json bad = result("atomic", "epcc", "overhead", 4, {1});
  bad.erase("threads");
  try {
    read_bench_json(document(json::array({bad})), "bench.json");
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_THAT(error.what(), HasSubstr("bench.json: results[0]: missing \"threads\""));
  }
  json newer = document(json::array({result("atomic", "epcc", "overhead", 4, {1})}));
  newer["version"] = "1.0.0";
  EXPECT_THROW(read_bench_json(newer, "bench.json"), Error);
}

}  // namespace
}  // namespace ompscope::model
