// The formats of `ompscope verify` (docs/verify.md): `verify -o DIR` writes each into
// DIR/<file>, `verify --format NAME` prints one. They render the typed result
// (report/verify_result.h) and compute nothing.
#pragma once
#include <span>
#include <string>
#include <string_view>

#include "report/verify_result.h"

namespace ompscope::output {

struct VerifyReporter {
  std::string_view name;
  std::string_view file;
  std::string (*render)(const report::VerifyResult& result);
};

std::span<const VerifyReporter> verify_reporters();
const VerifyReporter* find_verify_reporter(std::string_view name);

}  // namespace ompscope::output
