#include "analysis/duration_text.h"

#include <fmt/format.h>

namespace ompscope::analysis {

std::string duration_text(double s) {
  if (s < 1e-6) return fmt::format("{:.3g} ns", s * 1e9);
  if (s < 1e-3) return fmt::format("{:.3g} µs", s * 1e6);
  if (s < 1) return fmt::format("{:.3g} ms", s * 1e3);
  return fmt::format("{:.3g} s", s);
}

}  // namespace ompscope::analysis
