#include "cli/scaling_models.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "model/model_json.h"
#include "model/scale_report_models.h"

namespace ompscope::cli {
namespace {

using nlohmann::json;

model::Series time_series(const std::string& name, const std::map<int, double>& time_s) {
  model::Series series{name, "time_s", model::SeriesKind::region_time, model::Summary::minimum, {}};
  for (const auto& [threads, seconds] : time_s) series.points.push_back({static_cast<double>(threads), {seconds}});
  return series;
}

// The model of one series, or why there is none.
struct Fitted {
  std::optional<json> model;
  std::string why_not;
};

Fitted fit_time(const analysis::Report& report, const std::string& name, const std::map<int, double>& time_s,
                const model::ModelOptions& options) {
  if (time_s.size() < model::kScaleMinimumThreadCounts)
    return {std::nullopt, fmt::format("{} (measured at {} thread count{})", name, time_s.size(),
                                      time_s.size() == 1 ? "" : "s")};
  std::vector<model::Model> models;
  try {
    models = model::model_series(time_series(name, time_s), options);
  } catch (const Error& error) {
    return {std::nullopt, fmt::format("{} ({})", name, error.what())};
  }
  // The options forbid splits, so there is one model over all counts.
  json out = model::model_to_json(models.front());
  json oversubscribed = json::array();
  for (const auto& [threads, seconds] : time_s)
    if (report.oversubscribed(threads)) oversubscribed.push_back(threads);
  out["oversubscribed_threads"] = oversubscribed;
  return {std::move(out), {}};
}

}  // namespace

model::ModelOptions scaling_model_options() {
  model::ModelOptions options;
  options.split_below_adj_r2 = -std::numeric_limits<double>::infinity();
  return options;
}

void add_scaling_models(const analysis::Report& report, json& doc, const model::ModelOptions& options) {
  if (!doc.contains("notes") || !doc["notes"].is_array()) doc["notes"] = json::array();
  const std::size_t counts = report.program_time_s.size();
  if (counts < model::kScaleMinimumThreadCounts) {
    std::vector<int> measured;
    for (const auto& [threads, seconds] : report.program_time_s) measured.push_back(threads);
    doc["notes"].push_back(fmt::format(
        "no scaling model of T(t) was fitted: {} thread count{} measured ({}), a model needs at least {} "
        "(e.g. -t 1,2,3,4) so that it can be checked against counts it was not fitted to",
        counts, counts == 1 ? " was" : "s were", fmt::join(measured, ", "), model::kScaleMinimumThreadCounts));
    return;
  }

  std::vector<std::string> not_modelled;
  Fitted program = fit_time(report, "program", report.program_time_s, options);
  if (program.model) doc["program"]["model"] = std::move(*program.model);
  else not_modelled.push_back(program.why_not);

  std::map<std::string, const analysis::RegionReport*> by_id;
  for (const analysis::RegionReport& region : report.regions) by_id[region.id] = &region;
  for (json& region : doc["regions"]) {
    const auto found = by_id.find(region.value("id", ""));
    if (found == by_id.end()) continue;
    Fitted fitted = fit_time(report, found->first, found->second->time_s, options);
    if (fitted.model) region["model"] = std::move(*fitted.model);
    else not_modelled.push_back(fitted.why_not);
  }
  if (!not_modelled.empty())
    doc["notes"].push_back(fmt::format("no scaling model for {}", fmt::join(not_modelled, "; ")));
}

}  // namespace ompscope::cli
