// Which functions the fitter may choose from: every t^i * log2(t)^j with i from `exponents` and
// j from `log_exponents` (except the constant i = j = 0), combined up to `max_terms` at a time,
// always plus a constant coefficient. The constant alone is a hypothesis too.
#pragma once
#include <string_view>
#include <vector>

#include "model/fraction.h"
#include "model/pmnf_function.h"

namespace ompscope::model {

struct HypothesisSpace {
  // The performance model normal form of Calotoiu et al. / Iwainsky et al.:
  // i in {0, 1/4, 1/3, 1/2, 2/3, 3/4, 1, 5/4, 4/3, 3/2, 5/3, 7/4, 2}, j in {0, 1, 2}: 38 shapes.
  std::vector<Fraction> exponents = default_exponents();
  std::vector<int> log_exponents = {0, 1, 2};
  int max_terms = 1;

  static std::vector<Fraction> default_exponents();
  // Every term shape, ordered by growth (i first, then j); never the constant shape.
  std::vector<TermShape> term_shapes() const;
};

// "0,1/4,1/2,1" -> fractions; "0,1,2" -> ints. Throw ompscope::Error on bad items.
std::vector<Fraction> parse_exponent_list(std::string_view text);
std::vector<int> parse_log_exponent_list(std::string_view text);

}  // namespace ompscope::model
