// A vector of trivially copyable items held by one pointer: the count and the capacity sit on the
// heap in front of the items, and an empty one allocates nothing. For the per-record lists a log
// holds millions of, most of them empty or of one item (a task's fragments of execution, its
// depend clause, the runtime's edges to it): 8 bytes where a std::vector takes 24. Grows by
// doubling, as std::vector does.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace ompscope {

template <class T>
class CompactVector {
  static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= alignof(std::max_align_t));

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  CompactVector() = default;
  CompactVector(std::initializer_list<T> items) { append(items.begin(), items.size()); }
  CompactVector(const std::vector<T>& items) { append(items.data(), items.size()); }  // NOLINT: a list by value
  CompactVector(const CompactVector& o) { append(o.data(), o.size()); }
  CompactVector(CompactVector&& o) noexcept : block_(std::exchange(o.block_, nullptr)) {}
  CompactVector& operator=(const CompactVector& o) {
    if (this != &o) {
      clear();
      append(o.data(), o.size());
    }
    return *this;
  }
  CompactVector& operator=(CompactVector&& o) noexcept {
    if (this != &o) {
      release();
      block_ = std::exchange(o.block_, nullptr);
    }
    return *this;
  }
  CompactVector& operator=(std::initializer_list<T> items) {
    clear();
    append(items.begin(), items.size());
    return *this;
  }
  ~CompactVector() { release(); }

  size_t size() const { return block_ ? header()->size : 0; }
  size_t capacity() const { return block_ ? header()->capacity : 0; }
  bool empty() const { return size() == 0; }
  T* data() { return block_ ? items() : nullptr; }
  const T* data() const { return block_ ? items() : nullptr; }
  T* begin() { return data(); }
  T* end() { return data() + size(); }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }
  T& operator[](size_t i) { return items()[i]; }
  const T& operator[](size_t i) const { return items()[i]; }
  T& at(size_t i) { return i < size() ? items()[i] : throw std::out_of_range("CompactVector::at"); }
  const T& at(size_t i) const { return i < size() ? items()[i] : throw std::out_of_range("CompactVector::at"); }
  T& front() { return items()[0]; }
  const T& front() const { return items()[0]; }
  T& back() { return items()[size() - 1]; }
  const T& back() const { return items()[size() - 1]; }

  void push_back(const T& item) {
    const T copy = item;  // `item` may be one of ours, which growing moves
    if (size() == capacity()) grow(size() + 1);
    items()[header()->size++] = copy;
  }
  // `item` at position i (at most size()), the items from i on moved one place up.
  void insert_at(size_t i, const T& item) {
    if (i > size()) throw std::out_of_range("CompactVector::insert_at");
    push_back(item);
    std::rotate(items() + i, items() + size() - 1, items() + size());
  }
  // Room for exactly n, as std::vector's: a list copied or built to a known length holds no
  // spare room (growing by push_back doubles).
  void reserve(size_t n) {
    if (n > capacity()) reallocate(n);
  }
  void clear() {
    if (block_) header()->size = 0;
  }

 private:
  struct Header {
    uint32_t size;
    uint32_t capacity;
  };
  static constexpr size_t kItems = (sizeof(Header) + alignof(T) - 1) / alignof(T) * alignof(T);

  Header* header() const { return reinterpret_cast<Header*>(block_); }
  T* items() const { return reinterpret_cast<T*>(block_ + kItems); }

  void append(const T* first, size_t n) {
    if (n == 0) return;
    reserve(size() + n);
    std::memcpy(static_cast<void*>(items() + size()), first, n * sizeof(T));
    header()->size += static_cast<uint32_t>(n);
  }
  // One more item at a time up to 4, then doubling: as many allocations up to 3 items (1, 2, 3
  // against 1, 2, 4), and a list of 3 holds no spare room. A recursive tree's tasks that wait in a
  // taskwait have 3 fragments each: with room for 4 they took 112-byte blocks, 80 for exactly 3.
  void grow(size_t at_least) {
    size_t capacity = this->capacity();
    if (capacity < 4) {
      capacity = at_least;
    } else {
      while (capacity < at_least) capacity *= 2;
    }
    reallocate(capacity);
  }
  void reallocate(size_t capacity) {
    if (capacity > UINT32_MAX) throw std::length_error("CompactVector: more than 2^32 items");
    auto* block = static_cast<std::byte*>(::operator new(kItems + capacity * sizeof(T)));
    const size_t n = size();
    if (n) std::memcpy(static_cast<void*>(block + kItems), items(), n * sizeof(T));
    release();
    block_ = block;
    *header() = Header{static_cast<uint32_t>(n), static_cast<uint32_t>(capacity)};
  }
  void release() {
    ::operator delete(block_);
    block_ = nullptr;
  }

  std::byte* block_ = nullptr;
};

}  // namespace ompscope
