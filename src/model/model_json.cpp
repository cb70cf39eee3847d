#include "model/model_json.h"

namespace ompscope::model {

using nlohmann::json;

std::string_view to_string(SeriesKind kind) {
  switch (kind) {
    case SeriesKind::generic: return "generic";
    case SeriesKind::construct: return "construct";
    case SeriesKind::region_time: return "region_time";
  }
  return "?";
}

json model_to_json(const Model& model) {
  json terms = json::array();
  for (const Term& term : model.function.terms)
    terms.push_back({{"coefficient", term.coefficient},
                     {"i", term.shape.exponent.value()},
                     {"exponent", term.shape.exponent.to_string()},
                     {"j", term.shape.log_exponent}});
  json out = {
      {"region", model.region},
      {"metric", model.metric},
      {"kind", to_string(model.kind)},
      {"class", model.thread_class},
      {"split", model.split},
      {"function", model.function.to_string()},
      {"constant", model.function.constant},
      {"terms", terms},
      {"adj_r2", model.quality.adj_r2},
      {"smape", model.quality.smape},
      {"cv_error", model.quality.cv_error},
      {"rss", model.quality.rss},
      {"points", model.quality.points},
      {"threads", model.threads},
      {"values", model.values},
      {"summary", to_string(model.summary)},
      {"growth", withheld_reason(model).empty() ? json(to_string(model.growth)) : json(nullptr)},
      {"growth_of", model.growth_of_thread_seconds ? "thread_seconds" : "value"},
  };
  if (const std::string why = withheld_reason(model); !why.empty()) out["withheld"] = why;
  if (model.kind == SeriesKind::construct) out["scalability_problem"] = model.scalability_problem;
  if (model.kind == SeriesKind::region_time) {
    out["stops_paying_off_at"] =
        model.stops_paying_off_at ? json(*model.stops_paying_off_at) : json(nullptr);
    out["extrapolated"] = model.extrapolated;
  }
  return out;
}

json models_to_json(const std::vector<Model>& models) {
  json list = json::array();
  for (const Model& model : models) list.push_back(model_to_json(model));
  return {{"models", list}};
}

}  // namespace ompscope::model
