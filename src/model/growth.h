// Verdicts read off a fitted function: how fast it grows over the measured thread range, and
// for a region's time, past which thread count more threads stop paying off.
#pragma once
#include <optional>
#include <string_view>

#include "model/pmnf_function.h"
#include "report/growth.h"

namespace ompscope::model {

// The report's verdict type (report/growth.h), its spelling with it.
using report::Growth;
using report::to_string;

// A term changes the function by less than this fraction of its largest value over the
// measured range: the function is treated as constant there, whatever its exponent.
inline constexpr double kNegligibleChange = 0.10;

// Growth of f over [t_min, t_max]: `constant` when f changes by less than kNegligibleChange,
// `decreasing` when it falls by more; otherwise the class of the fastest-growing term that
// matters on its own (i = 0: logarithmic; 0 < i < 1: sub-linear; t: linear; t * log2(t)^j
// with j > 0 or i > 1: super-linear).
Growth classify_growth(const PmnfFunction& f, double t_min, double t_max);

// For an OpenMP construct's cost: growing faster than logarithmically is a scalability problem.
bool is_scalability_problem(Growth growth);

// Doubling the threads must save at least this fraction of a region's time to pay off.
inline constexpr double kPayoffPerDoubling = 0.10;

// For a region's time T(t): the smallest integer t >= t_min at which doubling to 2t would save
// less than kPayoffPerDoubling of T(t) (this includes every t where T has stopped falling).
// Searched up to 16 * t_max; none (std::nullopt) when T keeps paying off that far.
std::optional<double> stops_paying_off_at(const PmnfFunction& time, double t_min, double t_max);

}  // namespace ompscope::model
