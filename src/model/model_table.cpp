#include "model/model_table.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>

namespace ompscope::model {

std::string verdict(const Model& model) {
  if (const std::string why = withheld_reason(model); !why.empty()) return "none: " + why;
  if (model.kind == SeriesKind::construct)
    return model.scalability_problem ? "scalability problem" : "";
  if (model.kind != SeriesKind::region_time) return "";
  if (!model.stops_paying_off_at) return "keeps paying off";
  return fmt::format("stops paying off past {:g} threads{}", *model.stops_paying_off_at,
                     model.extrapolated ? " (extrapolated)" : "");
}

std::string models_to_table(const std::vector<Model>& models) {
  constexpr std::size_t kColumns = 9;
  using Row = std::array<std::string, kColumns>;
  std::vector<Row> rows = {
      {"REGION", "METRIC", "CLASS", "MODEL", "ADJ_R2", "SMAPE%", "CV%", "GROWTH", "VERDICT"}};
  for (const Model& model : models) {
    // A growth class is a verdict too: none where the model does not follow its series.
    const bool withheld = !withheld_reason(model).empty();
    std::string growth = withheld ? "-" : std::string(to_string(model.growth));
    if (model.growth_of_thread_seconds && !withheld) growth += " (t*T)";
    rows.push_back({model.region, model.metric, model.thread_class, model.function.to_string(),
                    fmt::format("{:.3f}", model.quality.adj_r2),
                    fmt::format("{:.2f}", model.quality.smape),
                    fmt::format("{:.2f}", model.quality.cv_error), growth, verdict(model)});
  }
  std::array<std::size_t, kColumns> widths{};
  for (const Row& row : rows)
    for (std::size_t c = 0; c < kColumns; ++c) widths[c] = std::max(widths[c], row[c].size());

  std::string out;
  for (const Row& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < kColumns; ++c) {
      const bool numeric = c >= 4 && c <= 6;
      line += numeric ? fmt::format("{:>{}}", row[c], widths[c]) : fmt::format("{:<{}}", row[c], widths[c]);
      if (c + 1 < kColumns) line += "  ";
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
  }
  out +=
      "ADJ_R2 and SMAPE are in-sample; CV is the leave-one-out prediction error, which chose "
      "the model.\n";
  if (std::any_of(models.begin(), models.end(), [](const Model& m) { return m.growth_of_thread_seconds; }))
    out +=
        "(t*T): growth of a region's thread-seconds t*T(t), constant under perfect scaling; "
        "a region stops paying off where doubling its threads saves less than 10% of its time.\n";
  return out;
}

}  // namespace ompscope::model
