// Reads the output of `ompscope bench -o FILE`: one series per (construct, runtime, method,
// metric), named "barrier [llvm, epcc]" with metric "overhead"; the values at each thread
// count are the raw repetitions (the statistics' median when a result has no raw values).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/series.h"

namespace ompscope::model {

bool looks_like_bench_json(const nlohmann::json& document);  // "tool": "ompscope-bench"

std::vector<Series> read_bench_json(const nlohmann::json& document, const std::string& source_name);

}  // namespace ompscope::model
