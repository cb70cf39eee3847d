// A region's fitted T(t) as the writers show it: a formula a reader can evaluate by hand, a
// verdict, and (in the HTML) a column and a dashed curve over the measured speedup.
#include "output/scaling_model.h"
#include "json_rendering.h"

#include <gtest/gtest.h>

#include "fixture_report.h"
#include "output/html_report.h"
#include "output/text_report.h"
#include "common/error.h"

namespace ompscope::output {
namespace {

using nlohmann::json;

bool contains(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

// What `scale` writes for T(t) = 0.2 + 0.8/t fitted at 1, 2, 4 threads, 4 oversubscribed.
json amdahl_model() {
  return json::parse(R"json({"region": "r3", "metric": "time_s", "kind": "region_time", "class": "ALL",
    "function": "0.2 + 0.8 * t^(-1)", "constant": 0.2,
    "terms": [{"coefficient": 0.8, "i": -1.0, "exponent": "-1", "j": 0}],
    "adj_r2": 0.9987, "smape": 0.5, "growth": "linear", "growth_of": "thread_seconds",
    "stops_paying_off_at": 3.0, "extrapolated": false, "oversubscribed_threads": [4]})json");
}

report::ScalingModel model_of(const json& model) {
  const json doc = {{"tool", "ompscope"}, {"regions", json::array({{{"id", "r1"}, {"model", model}}})}};
  return *report::report_from_json(doc).regions[0].model;
}

TEST(ScalingModelFormula, ReadsAsTheFittedLawWithNegativePowersAsDivisions) {
  EXPECT_EQ(model_formula(model_of(amdahl_model())), "2.00e-01 + 8.00e-01/t");
}

TEST(ScalingModelFormula, WritesPowersAndLogarithmsOfEveryShape) {
  json model = amdahl_model();
  model["constant"] = 1.2e-3;
  model["terms"] = json::parse(R"([{"coefficient": 3.4e-4, "i": 1.0, "exponent": "1", "j": 1},
                                   {"coefficient": -5e-5, "i": 1.5, "exponent": "3/2", "j": 0},
                                   {"coefficient": 1e-3, "i": -0.5, "exponent": "-1/2", "j": 2},
                                   {"coefficient": 2e-3, "i": 0.0, "exponent": "0", "j": 1}])");
  EXPECT_EQ(model_formula(model_of(model)),
            "1.20e-03 + 3.40e-04·t·log2(t) − 5.00e-05·t^(3/2) + 1.00e-03·log2(t)^2/t^(1/2) + 2.00e-03·log2(t)");
}

TEST(ScalingModelFormula, LeavesOutAZeroConstant) {
  json model = amdahl_model();
  model["constant"] = 0.0;
  EXPECT_EQ(model_formula(model_of(model)), "8.00e-01/t");
}

TEST(ScalingModelAbout, SaysWhatGrowsWhenItStopsPayingOffHowWellItFitsAndWhatWasOversubscribed) {
  EXPECT_EQ(model_about(model_of(amdahl_model())),
            "t·T(t) grows linearly: more threads stop paying off past 3 threads; adj. R² 0.999; fitted with 4 oversubscribed");
  json model = amdahl_model();
  model["growth"] = "constant";
  model["stops_paying_off_at"] = nullptr;
  model["oversubscribed_threads"] = json::array();
  EXPECT_EQ(model_about(model_of(model)), "t·T(t) stays constant: more threads keep paying off; adj. R² 0.999");
}

TEST(ScalingModelReading, AnAbsentModelIsNoneAndAMalformedOneAnError) {
  const auto region_with = [](const json& model) {
    return json{{"tool", "ompscope"}, {"regions", json::array({{{"id", "r1"}, {"model", model}}})}};
  };
  EXPECT_FALSE(report::report_from_json(region_with(nullptr)).regions[0].model);
  EXPECT_THROW(report::report_from_json(region_with({{"constant", "one"}})), Error);
  EXPECT_THROW(report::report_from_json(region_with({{"constant", 1.0}, {"terms", 3}})), Error);
}

class ModelledScaleReport : public testing::Test {
 protected:
  ModelledScaleReport() {
    // The analysis stores the speedup the model predicts, sampled between the counts.
    json model = amdahl_model();
    model["speedup_curve"] = json::parse("[[1, 1.0], [2, 1.6667], [4, 2.5]]");
    report["regions"][0]["model"] = model;
    report["program"]["model"] = model;
  }
  json report = load_fixture("scale_template_oversubscribed.json");
};

TEST_F(ModelledScaleReport, TextShowsTheModelUnderItsRegionAndTheProgram) {
  const std::string text = render_text_report(report);
  EXPECT_TRUE(contains(text, "\n         T(t) ≈ 2.00e-01 + 8.00e-01/t s   (t·T(t) grows linearly")) << text;
  EXPECT_TRUE(contains(text, "program model: T(t) ≈ 2.00e-01 + 8.00e-01/t s")) << text;
}

TEST_F(ModelledScaleReport, HtmlHasAModelColumnAndTheFittedCurveOverTheSpeedup) {
  const std::string html = render_html_report(report);
  EXPECT_TRUE(contains(html, ">Model of T(t)</th>"));
  EXPECT_TRUE(contains(html, "<td class=\"model\"><code class=\"model-formula\">T(t) ≈ 2.00e-01 + 8.00e-01/t s</code>"));
  EXPECT_TRUE(contains(html, "<td class=\"model\">—</td>")) << "an unmodelled region keeps its cell";
  EXPECT_TRUE(contains(html, "<p class=\"model\">Fitted model of the program"));
  const auto speedup = html.find("<svg class=\"chart speedup\"");
  const std::string chart = html.substr(speedup, html.find("</svg>", speedup) - speedup);
  EXPECT_TRUE(contains(chart, "data-label=\"whole program (model)\""));
  EXPECT_TRUE(contains(chart, "(model)\"><polyline")) << "the region's curve";
}

TEST(UnmodelledScaleReport, HasNeitherModelColumnNorCurves) {
  const std::string html = render_html_report(load_fixture("scale_template_oversubscribed.json"));
  EXPECT_FALSE(contains(html, "Model of T(t)"));
  EXPECT_FALSE(contains(html, "(model)"));
}

}  // namespace
}  // namespace ompscope::output
