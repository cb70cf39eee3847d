// Runtimes treat some team sizes differently (a tree barrier is balanced only for powers of
// two; hardware comes in groups of 8 or 16 cores), so one law rarely fits every thread count.
// These are the ways ompscope splits thread counts into groups that may follow different laws.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace ompscope::model {

// The arithmetic class of a thread count: "PO2" (a power of two), "EVEN" (a multiple of 16
// that is not a power of two), "ODD" (16x + 8, not a power of two) or "OTHER".
std::string_view thread_class(double threads);

struct PointGroup {
  std::string name;                  // "PO2", "t<=8", "LINEAR 1..12", ...
  std::vector<std::size_t> indices;  // into the sorted thread counts
};

struct Split {
  std::string kind;  // "classes", "po2_vs_rest", "linear_range", "breakpoint"
  std::vector<PointGroup> groups;
};

// Every candidate split of `sorted_threads` (ascending, distinct) in which each group has at
// least `minimum_group` points:
//  - classes:      PO2 / EVEN / ODD / OTHER, the non-empty ones;
//  - po2_vs_rest:  powers of two against everything else;
//  - linear_range: the longest run of consecutive integer counts (5, 6, 7, ...) against the
//                  rest, when the run lies inside the range (at either end it is a breakpoint);
//  - breakpoint:   two regimes, t <= b and t > b, for every b that leaves enough points on
//                  both sides.
std::vector<Split> candidate_splits(const std::vector<double>& sorted_threads,
                                    std::size_t minimum_group);

}  // namespace ompscope::model
