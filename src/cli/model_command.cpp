// `ompscope model FILE`: fits a scaling model to every series of an Extra-P file, of `ompscope
// bench` output or of an `ompscope scale` report, and prints them as a table or as JSON.
#include <fmt/core.h>

#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/commands.h"
#include "common/error.h"
#include "model/hypothesis_space.h"
#include "model/model_input.h"
#include "model/model_json.h"
#include "model/model_table.h"
#include "model/scale_report_models.h"
#include "model/series_modeler.h"

namespace ompscope::cli {
namespace {

struct ModelCommandOptions {
  std::string file;
  bool json = false;
  std::string exponents;
  std::string log_exponents;
  int terms = 1;
  std::string summary;
};

model::Summary parse_summary(const std::string& name) {
  if (name == "minimum") return model::Summary::minimum;
  if (name == "median") return model::Summary::median;
  if (name == "mean") return model::Summary::mean;
  return model::Summary::trimmed_mean;
}

int run_model(const ModelCommandOptions& options) {
  model::ModelOptions model_options;
  if (!options.exponents.empty())
    model_options.space.exponents = model::parse_exponent_list(options.exponents);
  if (!options.log_exponents.empty())
    model_options.space.log_exponents = model::parse_log_exponent_list(options.log_exponents);
  model_options.space.max_terms = options.terms;
  if (!options.summary.empty()) model_options.summary = parse_summary(options.summary);

  const model::ModelInput input = model::read_model_input(options.file);
  const bool scale_report = input.format == "ompscope-report";
  // A scale report's series are fitted as `scale` fitted them (one model over all counts, no
  // split into classes of counts), so the two commands agree on each verdict of one report.
  if (scale_report)
    model_options.split_below_adj_r2 = -std::numeric_limits<double>::infinity();
  const std::size_t minimum = scale_report ? model::kScaleMinimumThreadCounts : model::kMinimumThreadCounts;
  const model::ModelledSeries result = model::model_all(input.series, model_options, minimum);
  if (result.models.empty())
    throw Error(options.file + ": no series has " + std::to_string(minimum) +
                " or more thread counts: nothing to model");

  if (options.json) {
    nlohmann::json out = model::models_to_json(result.models);
    out["input"] = {{"file", options.file}, {"format", input.format}};
    out["skipped"] = result.skipped;
    fmt::print("{}\n", out.dump(2));
  } else {
    fmt::print("{}", model::models_to_table(result.models));
    for (const std::string& skipped : result.skipped)
      fmt::print("skipped {}: too few to model\n", skipped);
  }
  return 0;
}

}  // namespace

Command add_model_command(CLI::App& parent) {
  auto options = std::make_shared<ModelCommandOptions>();
  auto* app = parent.add_subcommand(
      "model", "fit c0 + c1 * t^i * log2(t)^j to measurements over thread counts and say how they grow");
  app->add_option("FILE", options->file,
                  "Extra-P text or JSON, `ompscope bench -o` output, or an `ompscope scale` "
                  "report.json or its directory")
      ->required();
  app->add_flag("--json", options->json, "print the models as JSON");
  app->add_option("--exponents", options->exponents,
                  "I-LIST: exponents i of t to try (default 0,1/4,1/3,1/2,2/3,3/4,1,5/4,4/3,3/2,5/3,7/4,2)");
  app->add_option("--log-exponents", options->log_exponents,
                  "J-LIST: exponents j of log2(t) to try (default 0,1,2)");
  app->add_option("--terms", options->terms, "N: at most N terms besides the constant (1..3)")
      ->check(CLI::Range(1, 3));
  app->add_option("--summary", options->summary,
                  "how repetitions become one value: minimum (timings), median, trimmed_mean, "
                  "mean (default: minimum; median for EPCC overheads)")
      ->check(CLI::IsMember({"minimum", "median", "trimmed_mean", "mean"}));
  return {app, [options] { return run_model(*options); }};
}

}  // namespace ompscope::cli
