#include "model/extrap_json_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/error.h"

namespace ompscope::model {
namespace {

using ::testing::HasSubstr;
using nlohmann::json;

std::string error_of(const json& document) {
  try {
    read_extrap_json(document, "in.json");
  } catch (const Error& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(ExtrapJsonReader, ReadsTheInputFormatWithRepetitions) {
  const json document = json::parse(R"({
    "parameters": ["t"],
    "measurements": {
      "main->loop": {
        "time": [{"point": [1], "values": [1.0, 1.2]}, {"point": [2], "values": [2.0]}],
        "bytes": [{"point": [1], "values": [8]}, {"point": [2], "values": [16]}]
      }
    }})");
  ASSERT_TRUE(looks_like_extrap_json(document));
  const auto series = read_extrap_json(document, "in.json");
  ASSERT_EQ(series.size(), 2u);
  const auto& time = series[0].metric == "time" ? series[0] : series[1];
  EXPECT_EQ(time.region, "main->loop");
  ASSERT_EQ(time.points.size(), 2u);
  EXPECT_EQ(time.points[0].values, (std::vector<double>{1.0, 1.2}));
  EXPECT_EQ(time.points[1].threads, 2);
}

TEST(ExtrapJsonReader, ReadsTheExtraP4ExperimentTakingTheMedianOfEachPoint) {
  const json document = json::parse(R"({
    "Extra-P": "4.0", "parameters": ["t"], "scaling": null,
    "measurements": {"solve": {"time": [
      {"coordinate": [1], "median": 2.0, "mean": 2.5, "minimum": 1.9, "maximum": 3.0, "std": 0.1},
      {"coordinate": ["2"], "median": "3/2", "mean": 1.6},
      {"coordinate": [4], "mean": 1.0}
    ]}}})");
  const auto series = read_extrap_json(document, "experiment.json");
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0].points[0].values, (std::vector<double>{2.0}));
  EXPECT_EQ(series[0].points[1].threads, 2);
  EXPECT_EQ(series[0].points[1].values, (std::vector<double>{1.5}));
  EXPECT_EQ(series[0].points[2].values, (std::vector<double>{1.0}));  // no median: the mean
}

TEST(ExtrapJsonReader, ReadsTheIdBasedFormatWithRepeatedMeasurementsAsRepetitions) {
  const json document = json::parse(R"({
    "parameters": [{"id": 1, "name": "t"}],
    "callpaths": [{"id": 1, "name": "main"}],
    "metrics": [{"id": 7, "name": "time"}],
    "coordinates": [
      {"id": 1, "parameter_value_pairs": [{"parameter_id": 1, "parameter_value": 1}]},
      {"id": 2, "parameter_value_pairs": [{"parameter_id": 1, "parameter_value": 2}]}],
    "measurements": [
      {"id": 1, "callpath_id": 1, "coordinate_id": 1, "metric_id": 7, "value": 1.0},
      {"id": 2, "callpath_id": 1, "coordinate_id": 1, "metric_id": 7, "value": 1.1},
      {"id": 3, "callpath_id": 1, "coordinate_id": 2, "metric_id": 7, "value": 2.0}]})");
  const auto series = read_extrap_json(document, "in.json");
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0].region, "main");
  EXPECT_EQ(series[0].metric, "time");
  ASSERT_EQ(series[0].points.size(), 3u);  // merged by model_series
  EXPECT_EQ(series[0].points[1].values, (std::vector<double>{1.1}));
}

TEST(ExtrapJsonReader, RefusesSeveralParameters) {
  EXPECT_THAT(error_of(json::parse(R"({"parameters": ["t", "n"], "measurements": {}})")),
              HasSubstr("in.json: parameters: ompscope models one parameter (the thread count), "
                        "but this file has 2"));
  EXPECT_THAT(error_of(json::parse(
                  R"({"parameters": ["t"], "measurements": {"r": {"m": [{"point": [1, 2], "values": [1]}]}}})")),
              HasSubstr("measurements.r.m[0].point: ompscope models one parameter"));
}

TEST(ExtrapJsonReader, NamesThePathOfAMalformedValue) {
  EXPECT_THAT(error_of(json::parse(
                  R"({"parameters": ["t"], "measurements": {"r": {"m": [{"point": [1], "values": ["x"]}]}}})")),
              HasSubstr("in.json: measurements.r.m[0].values[0]: 'x' is not a number"));
  EXPECT_THAT(error_of(json::parse(R"({"parameters": ["t"], "measurements": {"r": {"m": [{"point": [1]}]}}})")),
              HasSubstr("measurements.r.m[0]: missing \"values\""));
}

}  // namespace
}  // namespace ompscope::model
