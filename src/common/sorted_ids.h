// Distinct ids (parallel ids), sorted, each found by its place in them: a 4-byte array where a
// hash map's node per region instance was 16 MB of a loop log's report (416 667 instances).
// Records in order of time name instances in order of id, so a lookup tries the place found last
// and the one after it before it searches.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "common/sort_runs.h"

namespace ompscope {

class SortedIds {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  SortedIds() = default;
  // The distinct ids among `ids`, which may come in any order and repeat (runs of them in order,
  // each thread's, are merged rather than sorted).
  explicit SortedIds(std::vector<uint32_t> ids) : ids_(std::move(ids)) {
    stable_sort_runs(ids_.begin(), ids_.end(), std::less<>());
    ids_.erase(std::unique(ids_.begin(), ids_.end()), ids_.end());
    ids_.shrink_to_fit();
  }
  // The id's place; kNone where it is not among them.
  uint32_t find(uint32_t id) const {
    const auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
    return it == ids_.end() || *it != id ? kNone : static_cast<uint32_t>(it - ids_.begin());
  }
  // The same, `hint` the place found last (kNone at first), updated where the id is found. An id
  // between the hint's and the next one's is none of them, without a search: where only some
  // instances have records of a kind, a lookup per instance in order searched 416 667 ids for
  // each absent one.
  uint32_t find(uint32_t id, uint32_t& hint) const {
    if (hint < ids_.size()) {
      if (ids_[hint] == id) return hint;
      if (hint + 1 < ids_.size()) {
        if (ids_[hint + 1] == id) return ++hint;
        if (ids_[hint] < id && id < ids_[hint + 1]) return kNone;
      } else if (ids_[hint] < id) {
        return kNone;  // past the last
      }
    }
    const uint32_t place = find(id);
    if (place != kNone) hint = place;
    return place;
  }
  uint32_t operator[](size_t place) const { return ids_[place]; }
  size_t size() const { return ids_.size(); }

 private:
  std::vector<uint32_t> ids_;
};

}  // namespace ompscope
