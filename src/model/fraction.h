// Exponents of the performance model normal form are small rationals (3/2, 1/3, ...). Keeping
// them exact lets models print as "t^(3/2)" and lets tests compare hypotheses with ==.
#pragma once
#include <string>
#include <string_view>

namespace ompscope::model {

struct Fraction {
  int numerator = 0;
  int denominator = 1;  // always > 0, and the fraction is kept in lowest terms

  static Fraction of(int numerator, int denominator = 1);
  double value() const { return static_cast<double>(numerator) / denominator; }
  bool is_integer() const { return denominator == 1; }
  std::string to_string() const;  // "3/2", "-1", "0"
  friend bool operator==(const Fraction&, const Fraction&) = default;
};

Fraction operator-(Fraction a, Fraction b);

// Reads "3/2", "-1/4", "2" or a decimal that is a fraction with denominator <= 12 ("0.75").
// Throws ompscope::Error naming the text when it is none of these.
Fraction parse_fraction(std::string_view text);

}  // namespace ompscope::model
