// How well a function describes the points it was fitted to. Everything but cv_error is
// in-sample, so it flatters the model; cv_error is what the fitter selects by.
#pragma once
#include <span>

#include "model/pmnf_function.h"

namespace ompscope::model {

struct FitQuality {
  int points = 0;
  double rss = 0;       // in-sample residual sum of squares
  double adj_r2 = 0;    // in-sample adjusted R^2 (1 when the data are exactly constant)
  double smape = 0;     // in-sample symmetric mean absolute percentage error, percent
  double cv_error = 0;  // leave-one-out: root mean square relative prediction error, percent
};

// In-sample RSS, adjusted R^2 (with the function's own number of coefficients) and SMAPE;
// cv_error is passed through, since only the fitter knows it.
FitQuality in_sample_quality(const PmnfFunction& function, std::span<const double> threads,
                             std::span<const double> values, double cv_error);

}  // namespace ompscope::model
