#include "model/fraction.h"

#include <charconv>
#include <cmath>
#include <numeric>

#include "common/error.h"

namespace ompscope::model {

Fraction Fraction::of(int numerator, int denominator) {
  if (denominator == 0) throw Error("fraction with denominator 0");
  if (denominator < 0) {
    numerator = -numerator;
    denominator = -denominator;
  }
  const int divisor = std::gcd(numerator, denominator);
  return {numerator / divisor, denominator / divisor};
}

std::string Fraction::to_string() const {
  if (denominator == 1) return std::to_string(numerator);
  return std::to_string(numerator) + "/" + std::to_string(denominator);
}

Fraction operator-(Fraction a, Fraction b) {
  return Fraction::of(a.numerator * b.denominator - b.numerator * a.denominator,
                      a.denominator * b.denominator);
}

namespace {

bool parse_int(std::string_view text, int& out) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  return error == std::errc() && end == text.data() + text.size() && !text.empty();
}

}  // namespace

Fraction parse_fraction(std::string_view text) {
  const std::string shown(text);
  const auto slash = text.find('/');
  if (slash != std::string_view::npos) {
    int numerator = 0;
    int denominator = 0;
    if (!parse_int(text.substr(0, slash), numerator) ||
        !parse_int(text.substr(slash + 1), denominator) || denominator == 0)
      throw Error("not an exponent: '" + shown + "' (expected a fraction like 3/2)");
    return Fraction::of(numerator, denominator);
  }
  int whole = 0;
  if (parse_int(text, whole)) return Fraction::of(whole);
  double decimal = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), decimal);
  if (error != std::errc() || end != text.data() + text.size() || text.empty())
    throw Error("not an exponent: '" + shown + "' (expected a fraction like 3/2 or 0.75)");
  // Decimals are accepted only when they name a small fraction exactly (0.25, 1.5, 0.75):
  // 0.33 is refused rather than silently becoming 33/100.
  for (int denominator = 1; denominator <= 12; ++denominator) {
    const double numerator = std::round(decimal * denominator);
    if (std::abs(numerator / denominator - decimal) < 1e-9)
      return Fraction::of(static_cast<int>(numerator), denominator);
  }
  throw Error("exponent '" + shown + "' is not a fraction with denominator <= 12: write it as a/b");
}

}  // namespace ompscope::model
