#include "output/problem_kind_style.h"

#include <algorithm>
#include <array>

namespace ompscope::output {
namespace {

// Tableau 10: distinct hues that stay readable on white and for most colour-vision deficiencies.
constexpr std::array<ProblemKindStyle, 9> kKinds{{
    {"load_imbalance", "load imbalance", "#e15759"},
    {"barrier_overhead", "barrier overhead", "#f28e2b"},
    {"fork_join_overhead", "fork/join overhead", "#edc948"},
    {"lock_contention", "lock contention", "#b07aa1"},
    {"lock_overhead", "lock overhead", "#ff9da7"},
    {"fine_grained_tasks", "fine-grained tasks", "#4e79a7"},
    {"coarse_grained_tasks", "coarse-grained tasks", "#76b7b2"},
    {"task_creation_bottleneck", "task creation bottleneck", "#59a14f"},
    {"serial_code", "serial code", "#9c755f"},
}};

}  // namespace

std::span<const ProblemKindStyle> known_problem_kinds() { return kKinds; }

ProblemKindStyle problem_kind_style(std::string_view kind) {
  const auto found = std::find_if(kKinds.begin(), kKinds.end(), [&](const auto& style) { return style.kind == kind; });
  if (found != kKinds.end()) return *found;
  return {kind, kind, "#bab0ac"};
}

}  // namespace ompscope::output
