// One value per thread count from its repetitions. Timing noise has outliers (a preempted
// repetition), so the default ignores the extremes; BENCHMARKS.md compares the choices.
#pragma once
#include <span>
#include <string_view>

namespace ompscope::model {

enum class Summary {
  trimmed_mean,  // mean of the middle half: drops the lowest and highest quarter (default)
  median,
  mean,
  minimum,
};

double summarize(std::span<const double> repetitions, Summary summary = Summary::trimmed_mean);
std::string_view to_string(Summary summary);

}  // namespace ompscope::model
