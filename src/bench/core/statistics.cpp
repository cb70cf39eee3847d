#include "bench/core/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace ompscope::bench {

Summary summarize(std::span<const double> values) {
  if (values.empty()) throw std::invalid_argument("summarize: empty series");
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  Summary s;
  s.count = n;
  s.min = sorted.front();
  s.max = sorted.back();
  s.median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(n);
  if (n > 1) {
    double squares = 0;
    for (double v : sorted) squares += (v - s.mean) * (v - s.mean);
    s.sd = std::sqrt(squares / static_cast<double>(n - 1));
  }
  return s;
}

std::vector<double> drop_best_and_worst_quarter(std::span<const double> values) {
  const std::size_t n = values.size();
  const std::size_t cut = n / 4;
  if (cut == 0) return {values.begin(), values.end()};
  // Rank by value (ties by position, so the result is deterministic), then keep the middle
  // ranks and restore measurement order.
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  std::vector<std::size_t> kept(order.begin() + static_cast<std::ptrdiff_t>(cut),
                                order.end() - static_cast<std::ptrdiff_t>(cut));
  std::sort(kept.begin(), kept.end());
  std::vector<double> out;
  out.reserve(kept.size());
  for (std::size_t i : kept) out.push_back(values[i]);
  return out;
}

}  // namespace ompscope::bench
