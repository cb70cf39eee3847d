#include "model/behaviour_classes.h"

#include <cmath>
#include <fmt/format.h>

namespace ompscope::model {

namespace {

bool is_whole(double t) { return t >= 1 && std::floor(t) == t; }

bool is_power_of_two(double t) {
  if (!is_whole(t)) return false;
  const auto n = static_cast<unsigned long long>(t);
  return (n & (n - 1)) == 0;
}

bool all_groups_large_enough(const Split& split, std::size_t minimum_group) {
  if (split.groups.size() < 2) return false;
  for (const PointGroup& group : split.groups)
    if (group.indices.size() < minimum_group) return false;
  return true;
}

}  // namespace

std::string_view thread_class(double threads) {
  if (is_power_of_two(threads)) return "PO2";
  if (is_whole(threads)) {
    const auto n = static_cast<unsigned long long>(threads);
    if (n % 16 == 0) return "EVEN";
    if (n % 16 == 8) return "ODD";
  }
  return "OTHER";
}

std::vector<Split> candidate_splits(const std::vector<double>& sorted_threads,
                                    std::size_t minimum_group) {
  std::vector<Split> splits;
  const std::size_t n = sorted_threads.size();
  const auto keep = [&](Split split) {
    if (all_groups_large_enough(split, minimum_group)) splits.push_back(std::move(split));
  };

  Split classes{"classes", {}};
  for (std::string_view name : {"PO2", "EVEN", "ODD", "OTHER"}) {
    PointGroup group{std::string(name), {}};
    for (std::size_t k = 0; k < n; ++k)
      if (thread_class(sorted_threads[k]) == name) group.indices.push_back(k);
    if (!group.indices.empty()) classes.groups.push_back(std::move(group));
  }
  const bool classes_are_po2_and_one_other = classes.groups.size() == 2;
  keep(classes);

  if (!classes_are_po2_and_one_other) {  // otherwise it is the same split again
    Split po2_vs_rest{"po2_vs_rest", {{"PO2", {}}, {"NOT_PO2", {}}}};
    for (std::size_t k = 0; k < n; ++k)
      po2_vs_rest.groups[is_power_of_two(sorted_threads[k]) ? 0 : 1].indices.push_back(k);
    keep(po2_vs_rest);
  }

  // Longest run of consecutive whole thread counts (t, t+1, t+2, ...).
  std::size_t best_begin = 0, best_length = 0;
  for (std::size_t begin = 0; begin < n;) {
    std::size_t end = begin + 1;
    while (end < n && is_whole(sorted_threads[end - 1]) &&
           sorted_threads[end] == sorted_threads[end - 1] + 1)
      ++end;
    if (end - begin > best_length) {
      best_begin = begin;
      best_length = end - begin;
    }
    begin = end;
  }
  // A run at either end is the same partition as a breakpoint, which is tried below.
  const bool run_inside = best_begin > 0 && best_begin + best_length < n;
  if (best_length >= minimum_group && run_inside) {
    const std::string range = fmt::format("LINEAR {}..{}", sorted_threads[best_begin],
                                          sorted_threads[best_begin + best_length - 1]);
    Split linear{"linear_range", {{range, {}}, {"REST", {}}}};
    for (std::size_t k = 0; k < n; ++k) {
      const bool inside = k >= best_begin && k < best_begin + best_length;
      linear.groups[inside ? 0 : 1].indices.push_back(k);
    }
    keep(linear);
  }

  for (std::size_t cut = minimum_group; cut + minimum_group <= n; ++cut) {
    const std::string bound = fmt::format("{}", sorted_threads[cut - 1]);
    Split breakpoint{"breakpoint", {{"t<=" + bound, {}}, {"t>" + bound, {}}}};
    for (std::size_t k = 0; k < n; ++k) breakpoint.groups[k < cut ? 0 : 1].indices.push_back(k);
    keep(breakpoint);
  }
  return splits;
}

}  // namespace ompscope::model
