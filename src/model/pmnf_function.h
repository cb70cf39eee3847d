// A function of the performance model normal form: c0 + sum_k c_k * t^i_k * log2(t)^j_k.
#pragma once
#include <string>
#include <vector>

#include "model/fraction.h"

namespace ompscope::model {

// The shape of one term, t^i * log2(t)^j, without its coefficient.
struct TermShape {
  Fraction exponent;     // i
  int log_exponent = 0;  // j

  double at(double t) const;  // t^i * log2(t)^j; log2(1)^0 is 1
  std::string to_string() const;  // "t^(3/2) * log2(t)", "log2(t)^2", "t"
  friend bool operator==(const TermShape&, const TermShape&) = default;
};

struct Term {
  double coefficient = 0;
  TermShape shape;
};

struct PmnfFunction {
  double constant = 0;
  std::vector<Term> terms;

  double operator()(double t) const;
  // "1.2e-06 + 3.4e-08 * t^(3/2) * log2(t)"; coefficients with 4 significant digits.
  std::string to_string() const;
};

}  // namespace ompscope::model
