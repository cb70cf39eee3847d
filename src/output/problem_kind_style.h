// How each diagnosed cause (DESIGN.md "Problem kinds") is named and coloured in the HTML
// report, so the lost-time bars, their legend and the hint tables agree.
#pragma once
#include <span>
#include <string>
#include <string_view>

namespace ompscope::output {

struct ProblemKindStyle {
  std::string_view kind;   // as in report.json, e.g. "load_imbalance"
  std::string_view label;  // for readers, e.g. "load imbalance"
  std::string_view color;  // CSS colour
};

// Every known kind, in the order bars stack them (synchronisation first, then tasks, then serial).
std::span<const ProblemKindStyle> known_problem_kinds();

// The style of a kind; a kind this version does not know gets grey and its own name, so a newer
// analysis still renders (its kind and label then view the caller's `kind`).
ProblemKindStyle problem_kind_style(std::string_view kind);

}  // namespace ompscope::output
