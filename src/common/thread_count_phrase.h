// "1 thread", "2 threads": every message that names a thread count reads as English.
#pragma once
#include <string>

namespace ompscope {

inline std::string threads_phrase(long long count) {
  return std::to_string(count) + (count == 1 ? " thread" : " threads");
}

}  // namespace ompscope
