#include "analysis/statistics.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace ompscope::analysis {

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  // nth_element, not a sort: a run's dispatch gaps are one sample per task (millions).
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2) return upper;
  return 0.5 * (*std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid)) + upper);
}

bool mann_whitney_can_reach(size_t m, size_t n, double alpha) {
  double orders = 1;
  for (size_t k = 1; k <= m; ++k) orders = orders * static_cast<double>(n + k) / static_cast<double>(k);
  return m >= 2 && n >= 2 && 2 / orders < alpha;
}

Significance judge_change(const std::vector<double>& a, const std::vector<double>& b, double change,
                          std::optional<double> spread) {
  if (mann_whitney_can_reach(a.size(), b.size(), kSignificanceLevel)) {
    const double p = mann_whitney_p(a, b);
    return {p, p < kSignificanceLevel};
  }
  return {std::nullopt, spread && std::abs(change) > *spread};
}

double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  const size_t m = a.size(), n = b.size();
  if (m == 0 || n == 0) return 1.0;
  // U in half units: the pairs in which a's value is the larger, ties counting one half each.
  size_t u2 = 0;
  for (double x : a)
    for (double y : b) u2 += x > y ? 2 : x == y ? 1 : 0;
  const double u = 0.5 * static_cast<double>(u2), mn = static_cast<double>(m * n);
  if (m * n > kExactUPairs) {  // the normal approximation, with a continuity correction
    const double sd = std::sqrt(mn * static_cast<double>(m + n + 1) / 12.0);
    const double z = std::max(0.0, std::abs(u - mn / 2) - 0.5) / sd;
    return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
  }
  // ways[i][j][v]: the orders of i values of a and j of b with U = v. The largest of them is a's
  // (above all j of b's: U grows by j) or b's (U unchanged).
  const size_t most = m * n;
  std::vector<double> ways((m + 1) * (n + 1) * (most + 1), 0.0);
  const auto at = [&](size_t i, size_t j, size_t v) -> double& { return ways[(i * (n + 1) + j) * (most + 1) + v]; };
  for (size_t i = 0; i <= m; ++i)
    for (size_t j = 0; j <= n; ++j)
      for (size_t v = 0; v <= i * j; ++v) {
        if (i == 0 || j == 0) {
          at(i, j, v) = v == 0 ? 1.0 : 0.0;
          continue;
        }
        at(i, j, v) = (v >= j ? at(i - 1, j, v - j) : 0.0) + at(i, j - 1, v);
      }
  double total = 0, low = 0, high = 0;
  for (size_t v = 0; v <= most; ++v) {
    total += at(m, n, v);
    if (static_cast<double>(v) <= u) low += at(m, n, v);
    if (static_cast<double>(v) >= u) high += at(m, n, v);
  }
  return std::min(1.0, 2 * std::min(low, high) / total);
}

}  // namespace ompscope::analysis
