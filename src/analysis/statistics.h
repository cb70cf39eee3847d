// The statistics the analysis takes over samples and repeats: one median for all of them.
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

namespace ompscope::analysis {

// The median of `values` (the mean of the two middle ones for an even count); 0 for none.
double median(std::vector<double> values);

// The two-sided p-value of the Mann-Whitney U test (Wilcoxon rank-sum) that samples `a` and `b`
// come from one distribution, against a shift of one from the other: exact, over all the ways
// the pooled values can be split into groups of those sizes (a tie counts half to each side, and
// is compared with that exact distribution: slightly conservative); 1 where either is empty.
// It asks only the order of the values, so one outlier moves it by one step at most (the range
// of repeats it replaces in `diff` was stretched past a 33% change by one slow run of five).
// Its smallest value is 2 / C(m + n, m): 0.1 with 3 and 3 samples, 0.029 with 4 and 4.
// Exact up to kExactUPairs pairs (20 and 20 repeats), the normal approximation beyond.
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);
inline constexpr size_t kExactUPairs = 400;

// The level below which a p-value calls a change significant (diff, verify).
inline constexpr double kSignificanceLevel = 0.05;

// Whether m and n values can reach `alpha` in that test at all: its smallest p-value, two orders
// of the C(m + n, m), is 0.1 with 3 and 3 values, 0.029 with 4 and 4.
bool mann_whitney_can_reach(size_t m, size_t n, double alpha);

// Whether a change between two sets of repeat times is significant (diff, verify): by the U test
// where both sets can reach kSignificanceLevel (4 values each), with its p-value; else where
// |change| exceeds `spread` (both ranges added: then they cannot overlap), and never where the
// spread is unknown (a side measured once).
struct Significance {
  std::optional<double> p_value;
  bool significant = false;
};
Significance judge_change(const std::vector<double>& a, const std::vector<double>& b, double change,
                          std::optional<double> spread);

}  // namespace ompscope::analysis
