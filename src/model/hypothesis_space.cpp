#include "model/hypothesis_space.h"

#include <algorithm>
#include <charconv>
#include <string>

#include "common/error.h"

namespace ompscope::model {

std::vector<Fraction> HypothesisSpace::default_exponents() {
  return {Fraction::of(0),    Fraction::of(1, 4), Fraction::of(1, 3), Fraction::of(1, 2),
          Fraction::of(2, 3), Fraction::of(3, 4), Fraction::of(1),    Fraction::of(5, 4),
          Fraction::of(4, 3), Fraction::of(3, 2), Fraction::of(5, 3), Fraction::of(7, 4),
          Fraction::of(2)};
}

std::vector<TermShape> HypothesisSpace::term_shapes() const {
  std::vector<Fraction> sorted_exponents = exponents;
  std::sort(sorted_exponents.begin(), sorted_exponents.end(),
            [](Fraction a, Fraction b) { return a.value() < b.value(); });
  sorted_exponents.erase(std::unique(sorted_exponents.begin(), sorted_exponents.end()),
                         sorted_exponents.end());
  std::vector<int> sorted_logs = log_exponents;
  std::sort(sorted_logs.begin(), sorted_logs.end());
  sorted_logs.erase(std::unique(sorted_logs.begin(), sorted_logs.end()), sorted_logs.end());

  std::vector<TermShape> shapes;
  for (Fraction i : sorted_exponents)
    for (int j : sorted_logs)
      if (i.numerator != 0 || j != 0) shapes.push_back({i, j});
  return shapes;
}

namespace {

std::vector<std::string_view> split_list(std::string_view text) {
  std::vector<std::string_view> items;
  while (!text.empty()) {
    const auto comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item.empty()) throw Error("empty item in exponent list '" + std::string(text) + "'");
    items.push_back(item);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  if (items.empty()) throw Error("empty exponent list");
  return items;
}

}  // namespace

std::vector<Fraction> parse_exponent_list(std::string_view text) {
  std::vector<Fraction> exponents;
  for (std::string_view item : split_list(text)) {
    const Fraction exponent = parse_fraction(item);
    if (exponent.value() < 0)
      throw Error("exponent " + exponent.to_string() + " is negative: the model form needs i >= 0");
    exponents.push_back(exponent);
  }
  return exponents;
}

std::vector<int> parse_log_exponent_list(std::string_view text) {
  std::vector<int> exponents;
  for (std::string_view item : split_list(text)) {
    int j = -1;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), j);
    if (error != std::errc() || end != item.data() + item.size() || j < 0 || j > 4)
      throw Error("log exponent '" + std::string(item) + "' is not an integer in 0..4");
    exponents.push_back(j);
  }
  return exponents;
}

}  // namespace ompscope::model
