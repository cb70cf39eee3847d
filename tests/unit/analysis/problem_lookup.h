// Reading a diagnosis in tests: one problem of a kind, one named detail of a problem.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/report.h"

namespace ompscope::analysis::testing {

inline const Problem* find(const std::vector<Problem>& problems, const std::string& kind) {
  for (const Problem& p : problems)
    if (p.kind == kind) return &p;
  return nullptr;
}

inline double detail(const Problem& p, const std::string& name) {
  for (const auto& [n, v] : p.details)
    if (n == name) return v;
  ADD_FAILURE() << p.kind << " has no detail " << name;
  return -1;
}

}  // namespace ompscope::analysis::testing
