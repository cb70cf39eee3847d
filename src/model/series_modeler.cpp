#include "model/series_modeler.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "common/error.h"
#include "model/behaviour_classes.h"

namespace ompscope::model {

namespace {

struct Points {
  std::vector<double> threads;  // ascending, distinct
  std::vector<double> values;
};

std::string series_name(const Series& series) {
  return "region '" + series.region + "' metric '" + series.metric + "'";
}

Points summarised_points(const Series& series, Summary summary) {
  std::map<double, std::vector<double>> repetitions;
  for (const Measurement& point : series.points) {
    if (point.values.empty())
      throw Error(series_name(series) + ": no values at " + std::to_string(point.threads) +
                  " threads");
    for (double v : point.values)
      if (!std::isfinite(v))
        throw Error(series_name(series) + ": a value at " + std::to_string(point.threads) +
                    " threads is not a finite number");
    auto& merged = repetitions[point.threads];
    merged.insert(merged.end(), point.values.begin(), point.values.end());
  }
  if (repetitions.size() < kMinimumThreadCounts)
    throw Error(series_name(series) + ": needs at least " +
                std::to_string(kMinimumThreadCounts) + " thread counts to model, has " +
                std::to_string(repetitions.size()));
  Points points;
  for (const auto& [threads, values] : repetitions) {
    points.threads.push_back(threads);
    points.values.push_back(summarize(values, summary));
  }
  return points;
}

// T(t) = C(t) / t for the thread-seconds model C(t) = c0 + sum c_k t^i_k log2(t)^j_k.
PmnfFunction time_from_thread_seconds(const PmnfFunction& thread_seconds) {
  PmnfFunction time;
  if (thread_seconds.constant != 0)
    time.terms.push_back({thread_seconds.constant, TermShape{Fraction::of(-1), 0}});
  for (const Term& term : thread_seconds.terms) {
    const TermShape shape{term.shape.exponent - Fraction::of(1), term.shape.log_exponent};
    if (shape.exponent.numerator == 0 && shape.log_exponent == 0) {
      time.constant += term.coefficient;
    } else {
      time.terms.push_back({term.coefficient, shape});
    }
  }
  return time;
}

}  // namespace

std::string withheld_reason(const Model& model) {
  if (!model.withheld.empty()) return model.withheld;
  if (model.quality.adj_r2 >= kVerdictMinimumAdjR2) return {};
  if (model.constant_fit && model.quality.smape <= 100 * kNegligibleChange) return {};
  return fmt::format("adj. R² {:.2f} < {:.2f}", model.quality.adj_r2, kVerdictMinimumAdjR2);
}

namespace {

class GroupModeler {
 public:
  GroupModeler(const Series& series, const ModelOptions& options, Summary summary)
      : series_(series), summary_(summary), fitter_(options.space, options.fit) {}

  // The fit of the quantity that is modelled: the values, or for region_time t * T(t).
  Fit fit(const Points& points) {
    if (series_.kind != SeriesKind::region_time) return fitter_.fit(points.threads, points.values);
    std::vector<double> thread_seconds(points.values.size());
    for (std::size_t k = 0; k < thread_seconds.size(); ++k)
      thread_seconds[k] = points.threads[k] * points.values[k];
    return fitter_.fit(points.threads, thread_seconds);
  }

  Model model(const Points& points, const Fit& fit, std::string split, std::string group) const {
    Model model;
    model.region = series_.region;
    model.metric = series_.metric;
    model.kind = series_.kind;
    model.split = std::move(split);
    model.thread_class = std::move(group);
    model.summary = summary_;
    model.threads = points.threads;
    model.values = points.values;
    const double t_min = points.threads.front();
    const double t_max = points.threads.back();
    if (series_.kind == SeriesKind::region_time) {
      model.function = time_from_thread_seconds(fit.function);
      model.quality =
          in_sample_quality(model.function, points.threads, points.values, fit.quality.cv_error);
      model.growth = classify_growth(fit.function, t_min, t_max);
      model.growth_of_thread_seconds = true;
      // Withheld below where the model does not follow its series (withheld_reason).
      model.stops_paying_off_at = stops_paying_off_at(model.function, t_min, t_max);
      model.extrapolated = model.stops_paying_off_at && *model.stops_paying_off_at > t_max;
    } else {
      model.function = fit.function;
      model.quality = fit.quality;
      model.growth = classify_growth(fit.function, t_min, t_max);
      model.scalability_problem = series_.kind == SeriesKind::construct && is_scalability_problem(model.growth);
    }
    model.constant_fit = fit.function.terms.empty();
    model.withheld = series_.withheld;
    model.withheld = withheld_reason(model);
    if (!model.withheld.empty()) {
      model.scalability_problem = false;
      model.stops_paying_off_at.reset();
      model.extrapolated = false;
    }
    return model;
  }

 private:
  const Series& series_;
  Summary summary_;
  PmnfFitter fitter_;
};

Points subset(const Points& points, const std::vector<std::size_t>& indices) {
  Points part;
  for (std::size_t k : indices) {
    part.threads.push_back(points.threads[k]);
    part.values.push_back(points.values[k]);
  }
  return part;
}

}  // namespace

std::vector<Model> model_series(const Series& series, const ModelOptions& options) {
  const Summary summary = options.summary.value_or(series.summary);
  const Points points = summarised_points(series, summary);
  GroupModeler modeler(series, options, summary);
  const Fit whole = modeler.fit(points);
  if (!(whole.quality.adj_r2 < options.split_below_adj_r2))
    return {modeler.model(points, whole, "none", "ALL")};

  // Compare splits by their pooled leave-one-out error: the root mean square of the relative
  // prediction errors over all points, as for the single model.
  const double n = static_cast<double>(points.threads.size());
  double best_error = options.split_cv_ratio * whole.quality.cv_error;
  std::vector<Model> best;
  for (const Split& split : candidate_splits(points.threads, kMinimumThreadCounts)) {
    double squared_errors = 0;
    std::vector<std::pair<Points, Fit>> group_fits;
    for (const PointGroup& group : split.groups) {
      Points part = subset(points, group.indices);
      Fit fit = modeler.fit(part);
      squared_errors += static_cast<double>(part.threads.size()) * fit.quality.cv_error *
                        fit.quality.cv_error;
      group_fits.emplace_back(std::move(part), std::move(fit));
    }
    const double pooled = std::sqrt(squared_errors / n);
    if (pooled < best_error) {
      best_error = pooled;
      best.clear();
      for (std::size_t g = 0; g < split.groups.size(); ++g)
        best.push_back(modeler.model(group_fits[g].first, group_fits[g].second, split.kind,
                                     split.groups[g].name));
    }
  }
  if (best.empty()) return {modeler.model(points, whole, "none", "ALL")};
  return best;
}

ModelledSeries model_all(const std::vector<Series>& series, const ModelOptions& options,
                         std::size_t minimum_thread_counts) {
  ModelledSeries result;
  for (const Series& one : series) {
    std::vector<double> counts;
    for (const Measurement& point : one.points)
      if (std::find(counts.begin(), counts.end(), point.threads) == counts.end())
        counts.push_back(point.threads);
    if (counts.size() < std::max(minimum_thread_counts, kMinimumThreadCounts)) {
      result.skipped.push_back(series_name(one) + ": " + std::to_string(counts.size()) +
                               " thread count" + (counts.size() == 1 ? "" : "s"));
      continue;
    }
    for (Model& model : model_series(one, options)) result.models.push_back(std::move(model));
  }
  return result;
}

}  // namespace ompscope::model
