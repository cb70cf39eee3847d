#include "analysis/scaling_models.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "model/scale_report_models.h"

namespace ompscope::analysis {
namespace {

model::Series time_series(const std::string& name, const std::map<int, double>& time_s) {
  model::Series series{name, "time_s", model::SeriesKind::region_time, model::Summary::minimum, {}};
  for (const auto& [threads, seconds] : time_s) series.points.push_back({static_cast<double>(threads), {seconds}});
  return series;
}

// The speedup the model predicts, T(t0)·t0 / T_model(t) with the measured T(t0), sampled between
// the counts so a chart shows its curvature. Empty when between the counts it predicts no time
// or a speedup far above the measured ones: such a curve would rescale the chart and hide them.
std::vector<std::pair<double, double>> speedup_curve(const model::PmnfFunction& f, const std::map<int, double>& time_s,
                                                     const std::map<int, double>& speedup) {
  constexpr int kSamples = 48;
  const auto& [t0, time0] = *time_s.begin();
  const double low = t0, high = time_s.rbegin()->first;
  if (!(time0 > 0) || !(high > low)) return {};
  double ceiling = high;  // the ideal line's top
  for (const auto& [t, s] : speedup) ceiling = std::max(ceiling, s);
  std::vector<std::pair<double, double>> curve;
  for (int k = 0; k <= kSamples; ++k) {
    const double t = low * std::pow(high / low, static_cast<double>(k) / kSamples);
    const double time = f(t);
    if (!(time > 0) || !std::isfinite(time) || time0 * t0 / time > 1.5 * ceiling) return {};
    curve.emplace_back(t, time0 * t0 / time);
  }
  return curve;
}

ScalingModel typed(const model::Model& m) {
  ScalingModel out;
  out.function = m.function.to_string();
  out.constant = m.function.constant;
  for (const model::Term& term : m.function.terms)
    out.terms.push_back({term.coefficient, term.shape.exponent.value(), term.shape.exponent.to_string(),
                         term.shape.log_exponent});
  out.adj_r2 = m.quality.adj_r2;
  out.smape = m.quality.smape;
  out.growth = m.growth;
  out.growth_of_thread_seconds = m.growth_of_thread_seconds;
  out.stops_paying_off_at = m.stops_paying_off_at;
  out.extrapolated = m.extrapolated;
  return out;
}

// The model of one series, or why there is none.
struct Fitted {
  std::optional<ScalingModel> model;
  std::string why_not;
};

Fitted fit_time(const Report& report, const std::string& name, const std::map<int, double>& time_s,
                const std::map<int, double>& speedup, const model::ModelOptions& options) {
  if (time_s.size() < model::kScaleMinimumThreadCounts)
    return {std::nullopt, fmt::format("{} (measured at {} thread count{})", name, time_s.size(),
                                      time_s.size() == 1 ? "" : "s")};
  // Oversubscribed counts measure time-sharing, not scaling: they are left out of the fit where
  // enough counts with a core per thread remain.
  std::map<int, double> own_cores;
  for (const auto& [threads, seconds] : time_s)
    if (!report.oversubscribed(threads)) own_cores.emplace(threads, seconds);
  const std::map<int, double>& fitted = own_cores.size() >= model::kScaleMinimumThreadCounts ? own_cores : time_s;
  std::vector<model::Model> models;
  try {
    models = model::model_series(time_series(name, fitted), options);
  } catch (const Error& error) {
    return {std::nullopt, fmt::format("{} ({})", name, error.what())};
  }
  // The options forbid splits, so there is one model over all counts.
  ScalingModel out = typed(models.front());
  for (const auto& [threads, seconds] : fitted)
    if (report.oversubscribed(threads)) out.oversubscribed_threads.push_back(threads);
  if (!out.oversubscribed_threads.empty())
    out.verdict_withheld = fmt::format("fitted on counts without a core per thread ({} on {} cores), which measure "
                                       "time-sharing: a verdict needs {} counts of at most {} threads",
                                       fmt::join(out.oversubscribed_threads, ", "), report.cores,
                                       model::kScaleMinimumThreadCounts, report.cores);
  // The rule `ompscope model` gives its verdicts by (model::withheld_reason), so the two agree.
  else if (const std::string why = model::withheld_reason(models.front()); !why.empty())
    out.verdict_withheld = fmt::format("{}: the model does not follow the measured times closely enough for a verdict",
                                       why);
  if (!out.verdict_withheld.empty()) {
    out.growth.reset();
    out.stops_paying_off_at.reset();
    out.extrapolated = false;
  }
  out.speedup_curve = speedup_curve(models.front().function, time_s, speedup);
  return {std::move(out), {}};
}

}  // namespace

model::ModelOptions scaling_model_options() {
  model::ModelOptions options;
  options.split_below_adj_r2 = -std::numeric_limits<double>::infinity();
  return options;
}

void add_scaling_models(Report& report, const model::ModelOptions& options) {
  const std::size_t counts = report.program_time_s.size();
  if (counts < model::kScaleMinimumThreadCounts) {
    std::vector<int> measured;
    for (const auto& [threads, seconds] : report.program_time_s) measured.push_back(threads);
    report.notes.push_back(
        {"models",
         fmt::format("no scaling model of T(t) was fitted: {} thread count{} measured ({}), a model needs at least {} "
                     "(e.g. -t 1,2,3,4) so that it can be checked against counts it was not fitted to",
                     counts, counts == 1 ? " was" : "s were", fmt::join(measured, ", "),
                     model::kScaleMinimumThreadCounts),
         {}});
    return;
  }

  Note not_modelled{"models", "no scaling model was fitted for these", {}};
  Fitted program = fit_time(report, "program", report.program_time_s, report.program_speedup, options);
  if (program.model) report.program_model = std::move(program.model);
  else not_modelled.items.push_back(program.why_not);
  for (RegionReport& region : report.regions) {
    Fitted fitted = fit_time(report, region.id, region.time_s, region.speedup, options);
    if (fitted.model) region.model = std::move(fitted.model);
    else not_modelled.items.push_back(fitted.why_not);
  }
  if (!not_modelled.items.empty()) report.notes.push_back(std::move(not_modelled));
}

}  // namespace ompscope::analysis
