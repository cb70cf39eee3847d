// ompscope's own errors (bad arguments, unreadable or corrupt input, a program that cannot be
// started). The CLI prints what() as one line on stderr and exits 2 (docs/design.md, "Exit status").
#pragma once
#include <stdexcept>
#include <string>

namespace ompscope {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ompscope
