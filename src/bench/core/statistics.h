// Summary statistics of one measured series and the study's outlier filter. Pure functions:
// the bench programs, the CLI and the unit tests share them, so every number means the same.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

namespace ompscope::bench {

struct Summary {
  double mean = 0;
  double sd = 0;  // sample standard deviation (n - 1); 0 for fewer than two values
  double min = 0;
  double median = 0;  // mean of the two middle values when the count is even
  double max = 0;
  std::size_t count = 0;
};

// Throws std::invalid_argument on an empty series: a summary of nothing would be a made-up zero.
Summary summarize(std::span<const double> values);

// The filter of "How many threads will be too many?": drop the best and the worst quarter
// (floor(n/4) values at each end of the sorted series). The kept values stay in measurement
// order so a drift over time is still visible in them. Fewer than 4 values: nothing dropped.
std::vector<double> drop_best_and_worst_quarter(std::span<const double> values);

inline constexpr const char* kOutlierFilterDescription = "dropped best and worst 25%";

}  // namespace ompscope::bench
