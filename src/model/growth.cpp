#include "model/growth.h"

#include <algorithm>
#include <cmath>

namespace ompscope::model {

namespace {

Growth growth_of_shape(const TermShape& shape) {
  const double i = shape.exponent.value();
  if (i <= 0) return shape.log_exponent > 0 && i == 0 ? Growth::logarithmic : Growth::constant;
  if (i < 1) return Growth::sublinear;
  if (i == 1 && shape.log_exponent == 0) return Growth::linear;
  return Growth::superlinear;
}

}  // namespace

Growth classify_growth(const PmnfFunction& f, double t_min, double t_max) {
  const double low = f(t_min);
  const double high = f(t_max);
  const double scale = std::max(std::abs(low), std::abs(high));
  if (scale == 0 || std::abs(high - low) < kNegligibleChange * scale) return Growth::constant;
  if (high < low) return Growth::decreasing;
  Growth growth = Growth::constant;
  for (const Term& term : f.terms) {
    const double change = term.coefficient * (term.shape.at(t_max) - term.shape.at(t_min));
    if (change >= kNegligibleChange * scale)
      growth = std::max(growth, growth_of_shape(term.shape));
  }
  // Several terms that each matter little but together do: judge by the fastest of them.
  if (growth == Growth::constant)
    for (const Term& term : f.terms)
      if (term.coefficient > 0) growth = std::max(growth, growth_of_shape(term.shape));
  return growth;
}

bool is_scalability_problem(Growth growth) {
  return growth == Growth::sublinear || growth == Growth::linear || growth == Growth::superlinear;
}

std::optional<double> stops_paying_off_at(const PmnfFunction& time, double t_min, double t_max) {
  const double first = std::max(1.0, std::ceil(t_min));
  const double last = 16 * std::max(t_max, t_min);
  for (double t = first; t <= last; t += 1) {
    const double now = time(t);
    if (!(now > 0)) return t;  // a model predicting no time left has nothing to gain
    if (now - time(2 * t) < kPayoffPerDoubling * now) return t;
  }
  return std::nullopt;
}

}  // namespace ompscope::model
