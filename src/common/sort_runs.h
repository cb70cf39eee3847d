// A stable sort for records that come as a few runs already in order: a thread's trace slices
// source by source (its region parts and their visits, its worksharing constructs, its locks, its
// tasks), a log's lock records thread by thread. std::stable_sort takes its log n merge passes
// whatever the order; merging the runs takes log (runs) passes over the records.
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

namespace ompscope {

// Sorts [first, last) by `less` exactly as std::stable_sort does (equal records keep their order):
// the runs in order are found in one pass and merged pairwise, each merge stable. Where the
// records are in no particular order (more than one run in kFewRunsPer records), std::stable_sort.
template <class It, class Less>
void stable_sort_runs(It first, It last, Less less) {
  constexpr size_t kFewRunsPer = 16;
  const size_t n = static_cast<size_t>(last - first);
  std::vector<size_t> bounds{0};  // each run's first record, then the end
  for (size_t i = 1; i < n; ++i)
    if (less(first[i], first[i - 1])) {
      bounds.push_back(i);
      if (bounds.size() > n / kFewRunsPer + 1) return std::stable_sort(first, last, less);
    }
  bounds.push_back(n);
  while (bounds.size() > 2) {  // more than one run: merge neighbours, left with right
    std::vector<size_t> merged{0};
    for (size_t k = 0; k + 2 < bounds.size(); k += 2) {
      std::inplace_merge(first + bounds[k], first + bounds[k + 1], first + bounds[k + 2], less);
      merged.push_back(bounds[k + 2]);
    }
    if (merged.back() != n) merged.push_back(n);  // an odd run out, merged in the next pass
    bounds = std::move(merged);
  }
}

}  // namespace ompscope
