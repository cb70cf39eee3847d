#include "model/pmnf_function.h"

#include <cmath>
#include <fmt/format.h>

namespace ompscope::model {

double TermShape::at(double t) const {
  double value = exponent.numerator == 0 ? 1.0 : std::pow(t, exponent.value());
  if (log_exponent != 0) value *= std::pow(std::log2(t), log_exponent);
  return value;
}

std::string TermShape::to_string() const {
  std::string text;
  if (exponent.numerator != 0) {
    if (exponent == Fraction::of(1)) {
      text = "t";
    } else if (exponent.is_integer() && exponent.numerator > 0) {
      text = "t^" + exponent.to_string();
    } else {
      text = "t^(" + exponent.to_string() + ")";
    }
  }
  if (log_exponent != 0) {
    if (!text.empty()) text += " * ";
    text += "log2(t)";
    if (log_exponent != 1) text += "^" + std::to_string(log_exponent);
  }
  return text.empty() ? "1" : text;
}

double PmnfFunction::operator()(double t) const {
  double value = constant;
  for (const Term& term : terms) value += term.coefficient * term.shape.at(t);
  return value;
}

std::string PmnfFunction::to_string() const {
  std::string text = fmt::format("{:.4g}", constant);
  for (const Term& term : terms) {
    const bool negative = std::signbit(term.coefficient);
    text += negative ? " - " : " + ";
    const double magnitude = std::abs(term.coefficient);
    // 1/t reads better as a division: the region-time models of scale output have such terms.
    if (term.shape == TermShape{Fraction::of(-1), 0}) {
      text += fmt::format("{:.4g} / t", magnitude);
    } else {
      text += fmt::format("{:.4g} * {}", magnitude, term.shape.to_string());
    }
  }
  return text;
}

}  // namespace ompscope::model
