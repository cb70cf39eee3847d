// One series in, its models out: summarise repetitions, fit, split the thread counts into
// behavioural classes when one law does not fit them all, and read off the verdicts.
// This is the entry point for other stages (the scale command models its regions with it).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "model/hypothesis_space.h"
#include "model/model.h"
#include "model/pmnf_fitter.h"
#include "model/series.h"

namespace ompscope::model {

// Fewer distinct thread counts leave nothing to cross-validate a two-coefficient model with.
inline constexpr std::size_t kMinimumThreadCounts = 3;

struct ModelOptions {
  HypothesisSpace space;
  FitOptions fit;
  std::optional<Summary> summary;  // overrides each series' own choice when set
  // Splits are tried only when the single model explains less than this (adjusted R^2) ...
  double split_below_adj_r2 = 0.95;
  // ... and kept only when their pooled cross-validation error is at most this fraction of
  // the single model's: a split has more coefficients, so it must do clearly better.
  double split_cv_ratio = 0.5;
};

// Returns one model, or one per group when a split explains the data better. Region-time
// series are fitted on their thread-seconds t * T(t), which perfect scaling keeps constant
// (Amdahl's law is exactly c0 + c1 * t there); the model reports T(t) = that / t.
// Repetitions of equal thread counts are merged. Throws ompscope::Error when the series has
// fewer than kMinimumThreadCounts distinct thread counts or non-finite values.
std::vector<Model> model_series(const Series& series, const ModelOptions& options = {});

struct ModelledSeries {
  std::vector<Model> models;
  std::vector<std::string> skipped;  // "region 'r' metric 'm': 2 thread counts"
};

// Models every series that has at least `minimum_thread_counts` distinct thread counts and
// lists the others as skipped.
ModelledSeries model_all(const std::vector<Series>& series, const ModelOptions& options = {},
                         std::size_t minimum_thread_counts = kMinimumThreadCounts);

}  // namespace ompscope::model
