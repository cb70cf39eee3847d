// ompscope verify DIR (docs/verify.md): which findings of a report a runtime setting can fix,
// which setting to try for each, and, once the program ran with and without them, what each
// setting measured beside what the findings predicted.
#pragma once
#include <optional>
#include <string>

#include "report/report.h"
#include "report/verify_result.h"

namespace ompscope::analysis {

// The findings of `report` at `threads` (default: the largest count it measured) with a gain,
// each with the runtime setting that addresses its cause on the report's runtime (LLVM libomp or
// GNU libgomp), or none (a code change). Throws ompscope::Error where `threads` was not measured.
report::VerifyResult plan_verify(const report::Report& report, const std::string& dir,
                                 std::optional<int> threads = std::nullopt);

// Fills result.gains from result.baseline_wall_s and each setting's wall_s (medians; the
// spread is both ranges added).
void judge_verify(report::VerifyResult& result);

}  // namespace ompscope::analysis
