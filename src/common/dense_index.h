// Keys numbered 0, 1, 2, … in the order they are first met, found again through an open-addressed
// table: one array of numbers at most half full, the keys in a second, in their numbers' order. For
// an index that may get a key per record or per region instance (the lock groups of timeline.cpp:
// a sampled lock taken in every instance leaves unrecorded operations in each): a
// std::unordered_map allocates a node for each, and 833 000 nodes, a loop log's instance groups,
// were 18% of that log's timeline build, 5% in this table. Keys that come from one counter and are looked up in
// order (parallel ids) stay in std::unordered_map, whose identity hash keeps them in consecutive
// buckets: scattered over this table, every lookup missed the cache (2.5% of the build → 9.9%).
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ompscope {

template <class Key, class Hash>
class DenseIndex {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  explicit DenseIndex(size_t expected = 0) { reserve(expected); }
  // Room for `n` keys without growing.
  void reserve(size_t n) {
    keys_.reserve(n);
    if (2 * n > slots_.size()) rehash(2 * n);
  }
  // The key's number, and whether it was added now (numbered size() - 1).
  std::pair<uint32_t, bool> add(const Key& k) {
    size_t slot = Hash{}(k) & mask_;
    for (; slots_[slot] != kNone; slot = (slot + 1) & mask_)
      if (keys_[slots_[slot]] == k) return {slots_[slot], false};
    const auto number = static_cast<uint32_t>(keys_.size());
    keys_.push_back(k);
    slots_[slot] = number;
    if (2 * keys_.size() > slots_.size()) rehash(2 * slots_.size());
    return {number, true};
  }
  // The key's number; kNone where it was never added.
  uint32_t find(const Key& k) const {
    for (size_t slot = Hash{}(k) & mask_; slots_[slot] != kNone; slot = (slot + 1) & mask_)
      if (keys_[slots_[slot]] == k) return slots_[slot];
    return kNone;
  }
  const Key& key(uint32_t number) const { return keys_[number]; }
  size_t size() const { return keys_.size(); }
  bool empty() const { return keys_.empty(); }

 private:
  void rehash(size_t capacity) {
    size_t n = 16;
    while (n < capacity) n *= 2;  // a power of two: the slot is the hash's low bits
    slots_.assign(n, kNone);
    mask_ = n - 1;
    for (uint32_t number = 0; number < keys_.size(); ++number) {
      size_t slot = Hash{}(keys_[number]) & mask_;
      while (slots_[slot] != kNone) slot = (slot + 1) & mask_;
      slots_[slot] = number;
    }
  }

  std::vector<uint32_t> slots_ = std::vector<uint32_t>(16, kNone);
  size_t mask_ = 15;
  std::vector<Key> keys_;
};

}  // namespace ompscope
