// The result of modelling one series (or one group of its thread counts).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "model/fit_quality.h"
#include "model/growth.h"
#include "model/pmnf_function.h"
#include "model/robust_summary.h"
#include "model/series.h"

namespace ompscope::model {

// A model gives a verdict (a growth class that is a scalability problem, where more threads stop
// paying off) only where it describes its series closely: adj. R² at least this (the rule of the
// construct study: docs/design.md, "Scaling models"). Below it, the model is kept and shown with
// its adj. R², and the verdict says why there is none.
inline constexpr double kVerdictMinimumAdjR2 = 0.95;

struct Model {
  std::string region;
  std::string metric;
  SeriesKind kind = SeriesKind::generic;
  // Which thread counts this model covers: "ALL", or a group of a split (behaviour_classes.h).
  std::string thread_class = "ALL";
  std::string split = "none";  // "none", "classes", "po2_vs_rest", "linear_range", "breakpoint"

  Summary summary = Summary::minimum;
  std::vector<double> threads;  // ascending
  std::vector<double> values;   // one summary per thread count

  PmnfFunction function;  // of the metric; for region_time the region's time T(t)
  FitQuality quality;     // of `function` on `values`

  // For region_time the growth is that of the thread-seconds t * T(t), i.e. of what the
  // region costs beyond perfect scaling; otherwise that of `function`.
  Growth growth = Growth::constant;
  bool growth_of_thread_seconds = false;
  bool scalability_problem = false;                // construct only
  std::optional<double> stops_paying_off_at;       // region_time only (growth.h)
  bool extrapolated = false;                       // stops_paying_off_at beyond the last count
  // Why `growth` is no verdict (withheld_reason): a constant fit to a series rising 0.23 -> 31 us
  // is not "constant". Empty: growth and the verdict stand. `model` and `scale` withhold by the
  // same rule.
  std::string withheld;
  bool constant_fit = false;  // the fitted quantity's function has no term besides its constant
};

// Why a model gives no growth class or verdict, or "" where it gives them: the series' own
// reason (Series::withheld); else none where its adj. R² is at least kVerdictMinimumAdjR2, or
// where it is a constant that every point lies close to (SMAPE at most 100·kNegligibleChange %:
// R² says nothing of a constant fit); else "adj. R² X < 0.95".
std::string withheld_reason(const Model& model);

}  // namespace ompscope::model
