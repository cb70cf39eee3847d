// What the model stage consumes: repeated measurements of one quantity over thread counts.
#pragma once
#include <string>
#include <vector>

#include "model/robust_summary.h"

namespace ompscope::model {

// Where a series comes from decides how its model is judged (growth.h).
enum class SeriesKind {
  generic,      // any quantity (Extra-P files, a cause of loss): growth class only
  construct,    // an OpenMP construct's cost from `bench`: worse than logarithmic is a problem
  region_time,  // a user region's wall time T(t) from `scale`: where more threads stop paying off
};

struct Measurement {
  double threads = 0;
  std::vector<double> values;  // repetitions, at least one
};

struct Series {
  std::string region;
  std::string metric;
  SeriesKind kind = SeriesKind::generic;
  // How repetitions become one value. The minimum suits timings, whose noise only ever adds
  // time; a reader sets the median for quantities with two-sided noise (e.g. EPCC overheads,
  // which are differences of two timings).
  Summary summary = Summary::minimum;
  std::vector<Measurement> points;
};

}  // namespace ompscope::model
