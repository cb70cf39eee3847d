#include "model/scale_report_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/error.h"
#include "model/model_input.h"
#include "model/scale_report_models.h"
#include "report/report_json.h"

namespace ompscope::model {
namespace {

using nlohmann::json;

// The report.json of docs/design.md, at four thread counts, read as every reader reads it.
report::Report report() {
  return report::report_from_json(json::parse(R"({
    "tool": "ompscope", "version": "0.1.0", "command": ["./app"],
    "threads": [1, 2, 4, 8],
    "runs": [{"threads": 1, "repeat": 0, "wall_s": 1.20, "exit_code": 0},
             {"threads": 1, "repeat": 1, "wall_s": 1.22, "exit_code": 0},
             {"threads": 2, "repeat": 0, "wall_s": 0.80, "exit_code": 0},
             {"threads": 4, "repeat": 0, "wall_s": 0.60, "exit_code": 0},
             {"threads": 8, "repeat": 0, "wall_s": 0.50, "exit_code": 0}],
    "program": {"time_s": {"1": 1.2, "2": 0.8, "4": 0.6, "8": 0.5}},
    "regions": [
      {"id": "r3", "kind": "parallel", "file": "src/solver.c", "line": 42, "function": "solve",
       "instances": 4,
       "time_s": {"1": 1.0, "2": 0.55, "4": 0.325, "8": 0.2125},
       "problems": [
         {"kind": "load_imbalance", "threads": 2, "time_s": 0.05, "gain_s": 0.05},
         {"kind": "load_imbalance", "threads": 4, "time_s": 0.04, "gain_s": 0.04},
         {"kind": "load_imbalance", "threads": 4, "time_s": 0.02, "gain_s": 0.02},
         {"kind": "barrier_overhead", "threads": 8, "time_s": 0.01, "gain_s": 0.01}]}
    ]})"));
}

TEST(ScaleReportReader, ProgramRegionsAndCausesOfLossBecomeSeries) {
  const auto series = series_of_report(report());
  ASSERT_EQ(series.size(), 4u);
  EXPECT_EQ(series[0].region, "program");
  EXPECT_EQ(series[0].kind, SeriesKind::region_time);
  // The report's median time, as `scale` fitted it (not each run's): the two commands agree.
  EXPECT_EQ(series[0].points[0].values, (std::vector<double>{1.2}));
  EXPECT_EQ(series[1].region, "r3 solve (src/solver.c:42)");
  EXPECT_EQ(series[1].metric, "time_s");
  EXPECT_EQ(series[1].kind, SeriesKind::region_time);
  ASSERT_EQ(series[1].points.size(), 4u);
  EXPECT_EQ(series[2].metric, "load_imbalance");
  EXPECT_EQ(series[2].kind, SeriesKind::generic);
  ASSERT_EQ(series[2].points.size(), 2u);
  EXPECT_DOUBLE_EQ(series[2].points[1].values[0], 0.06);  // two imbalances at 4 threads, summed
  EXPECT_EQ(series[3].metric, "barrier_overhead");
}

// `ompscope model` reads report.json as `report` and every renderer read it: a file they refuse,
// it refuses with the same line, rather than modelling what a second reader made of it.
TEST(ScaleReportReader, RefusesAReportTheTypedReaderRefuses) {
  const std::string unknown_cause =
      R"({"tool": "ompscope", "schema_version": 2, "threads": [1, 2], "regions": [{"id": "r1",
          "time_s": {"1": 1.0, "2": 0.6}, "problems": [{"kind": "gremlins", "threads": 2, "time_s": 0.1}]}]})";
  EXPECT_THAT([&] { parse_model_input(unknown_cause, "report.json"); },
              testing::ThrowsMessage<Error>(testing::HasSubstr("a cause this version does not know: \"gremlins\"")));
  const std::string newer = R"({"tool": "ompscope", "schema_version": 99, "regions": []})";
  EXPECT_THAT([&] { parse_model_input(newer, "report.json"); },
              testing::ThrowsMessage<Error>(testing::HasSubstr("newer than this ompscope")));
}

TEST(ScaleReportModels, ModelsSeriesWithFourOrMoreThreadCountsAndSkipsTheRest) {
  const ModelledSeries result = model_all(series_of_report(report()), {}, kScaleMinimumThreadCounts);
  ASSERT_EQ(result.models.size(), 2u);
  EXPECT_EQ(result.models[0].region, "program");
  // r3: T(t) = 0.1 + 0.9/t exactly, so its thread-seconds grow linearly (the serial 0.1 s).
  const Model& solve = result.models[1];
  EXPECT_EQ(solve.region, "r3 solve (src/solver.c:42)");
  EXPECT_EQ(solve.growth, Growth::linear);
  EXPECT_NEAR(solve.function.constant, 0.1, 1e-9);
  ASSERT_TRUE(solve.stops_paying_off_at.has_value());
  EXPECT_TRUE(solve.extrapolated);
  EXPECT_EQ(result.skipped.size(), 2u);  // the two causes of loss, seen at 2 and 1 counts
}

}  // namespace
}  // namespace ompscope::model
