// A fitted scaling model as the report holds it (report::ScalingModel): written as a formula and
// a verdict. None of the writers fits or evaluates a model.
#pragma once
#include <string>

#include "report/report.h"

namespace ompscope::output {

// "2.10e-02 + 4.30e-02/t", "1.20e-03 + 3.40e-04·t·log2(t)": seconds, three significant digits.
std::string model_formula(const report::ScalingModel& model);

// What the model says and how far to trust it: "t·T(t) grows linearly: more threads stop
// paying off past 2; adj. R² 0.998; fitted with 3, 4 oversubscribed".
std::string model_about(const report::ScalingModel& model);

}  // namespace ompscope::output
