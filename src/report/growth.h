// How fast a fitted function grows over the measured thread range: the verdict a scaling model
// gives (model/growth.h classifies it; a report carries it; renderers word it).
#pragma once
#include <optional>
#include <string_view>

namespace ompscope::report {

enum class Growth { decreasing, constant, logarithmic, sublinear, linear, superlinear };

// As report.json and `ompscope model` spell it: "sub-linear", "super-linear", ...
constexpr std::string_view to_string(Growth growth) {
  switch (growth) {
    case Growth::decreasing: return "decreasing";
    case Growth::constant: return "constant";
    case Growth::logarithmic: return "logarithmic";
    case Growth::sublinear: return "sub-linear";
    case Growth::linear: return "linear";
    case Growth::superlinear: return "super-linear";
  }
  return "?";
}

// The growth spelled `text`; none for any other text.
constexpr std::optional<Growth> growth_from_string(std::string_view text) {
  for (Growth g : {Growth::decreasing, Growth::constant, Growth::logarithmic, Growth::sublinear, Growth::linear,
                   Growth::superlinear})
    if (to_string(g) == text) return g;
  return std::nullopt;
}

}  // namespace ompscope::report
