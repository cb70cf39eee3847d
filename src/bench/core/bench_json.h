// The JSON that `ompscope bench -o` writes and `ompscope model` reads (schema in BENCHMARKS.md).
// "statistics" and "raw" are over the filtered series (what a model should fit);
// "raw_unfiltered" keeps every sample so the filter can be undone.
#pragma once
#include <nlohmann/json.hpp>

#include "bench/core/bench_result.h"

namespace ompscope::bench {

nlohmann::json to_json(const BenchDocument& doc);

// Reads what to_json wrote (the bench programs' output too). Throws std::invalid_argument with
// the offending field on anything else.
BenchDocument bench_document_from_json(const nlohmann::json& j);

}  // namespace ompscope::bench
