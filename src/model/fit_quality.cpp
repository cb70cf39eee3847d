#include "model/fit_quality.h"

#include <algorithm>
#include <cmath>

namespace ompscope::model {

FitQuality in_sample_quality(const PmnfFunction& function, std::span<const double> threads,
                             std::span<const double> values, double cv_error) {
  FitQuality quality;
  const std::size_t n = values.size();
  const double count = static_cast<double>(n);
  quality.points = static_cast<int>(n);
  quality.cv_error = cv_error;
  double mean = 0;
  for (double v : values) mean += v / count;
  double total = 0;
  double smape_sum = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double predicted = function(threads[k]);
    const double error = values[k] - predicted;
    quality.rss += error * error;
    total += (values[k] - mean) * (values[k] - mean);
    const double magnitude = std::abs(values[k]) + std::abs(predicted);
    if (magnitude > 0) smape_sum += 2 * std::abs(error) / magnitude;
  }
  quality.smape = n > 0 ? 100 * smape_sum / count : 0;
  // Data that do not vary at all have no variance to explain: R^2 is 1 when the function
  // reproduces them (to rounding), 0 otherwise.
  const double scale = std::max(std::abs(mean), 1e-300);
  const double negligible = 1e-24 * scale * scale * count;
  if (total <= negligible) {
    quality.adj_r2 = quality.rss <= negligible ? 1 : 0;
    return quality;
  }
  const double r2 = 1 - quality.rss / total;
  const double coefficients = 1 + static_cast<double>(function.terms.size());
  const double dof = count - coefficients;
  quality.adj_r2 = dof > 0 ? 1 - (1 - r2) * (count - 1) / dof : r2;
  return quality;
}

}  // namespace ompscope::model
