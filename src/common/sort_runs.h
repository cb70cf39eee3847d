// A stable sort for records that come as a few runs already in order: a thread's trace slices
// source by source (its region parts and their visits, its worksharing constructs, its locks, its
// tasks), a log's lock records thread by thread. std::stable_sort takes its log n merge passes
// whatever the order; merging the runs takes log (runs) passes over the records.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
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
      // Two runs already in order, one after the other, are left as they are: a walk in epochs
      // appends each epoch's records thread by thread, so after the first pass the epochs follow
      // each other in order, and every later pass had copied all of them again (the 10 M loop
      // log's lock records: 10 passes over 833 334 places).
      if (less(first[bounds[k + 1]], first[bounds[k + 1] - 1]))
        std::inplace_merge(first + bounds[k], first + bounds[k + 1], first + bounds[k + 2], less);
      merged.push_back(bounds[k + 2]);
    }
    if (merged.back() != n) merged.push_back(n);  // an odd run out, merged in the next pass
    bounds = std::move(merged);
  }
}

// The same order for records too large to merge through a buffer of half of them (80-byte lock
// records: +18 MB on a lock-heavy log's report): their places are merged, 4 bytes each, and each
// record then moved once, along the permutation's cycles.
template <class T, class Less>
void stable_sort_runs_in_place(std::vector<T>& records, Less less) {
  const size_t n = records.size();
  if (n > UINT32_MAX) return std::stable_sort(records.begin(), records.end(), less);  // places of 4 bytes
  std::vector<uint32_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint32_t>(i);
  stable_sort_runs(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return less(records[a], records[b]); });
  // Place i takes the record at order[i]: each cycle is walked once, its first record held aside.
  for (size_t start = 0; start < n; ++start) {
    if (order[start] == start) continue;
    T held = std::move(records[start]);
    size_t at = start;
    while (order[at] != start) {
      const size_t from = order[at];
      records[at] = std::move(records[from]);
      order[at] = static_cast<uint32_t>(at);
      at = from;
    }
    records[at] = std::move(held);
    order[at] = static_cast<uint32_t>(at);
  }
}

}  // namespace ompscope
