// Durations in hints, in the unit that keeps them short: "850 ns", "3.4 µs", "7.9 ms".
#pragma once
#include <string>

namespace ompscope::analysis {

std::string duration_text(double seconds);

}  // namespace ompscope::analysis
