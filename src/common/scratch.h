// Buffers a thread keeps from one region instance to the next (thread_local scratch) save the
// allocations of each of a repeated region's small instances; one instance far larger than the
// rest (a recursive task tree's 635 000 tasks in one) left them holding its size to the end of
// the run, memory the steps after it (its task graph, its replays) could not reuse: fib_tasks 27's
// report peaked 30 MB higher (426 against 395 MB).
#pragma once
#include <cstddef>

namespace ompscope {

inline constexpr size_t kKeptScratchItems = size_t{1} << 16;

// Gives `buffer`'s memory back where it grew past kKeptScratchItems (a std::vector, or anything
// with capacity() and swap()).
template <class Buffer>
void give_back_if_large(Buffer& buffer) {
  if (buffer.capacity() > kKeptScratchItems) Buffer().swap(buffer);
}

}  // namespace ompscope
