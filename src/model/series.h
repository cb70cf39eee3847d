// What the model stage consumes: repeated measurements of one quantity over thread counts.
#pragma once
#include <string>
#include <utility>
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
  // Built as {region, metric, kind, summary, points} (withheld left empty) without warnings of
  // a member left out.
  Series(std::string region_ = {}, std::string metric_ = {}, SeriesKind kind_ = SeriesKind::generic,
         Summary summary_ = Summary::minimum, std::vector<Measurement> points_ = {}, std::string withheld_ = {})
      : region(std::move(region_)), metric(std::move(metric_)), kind(kind_), summary(summary_),
        points(std::move(points_)), withheld(std::move(withheld_)) {}

  std::string region;
  std::string metric;
  SeriesKind kind = SeriesKind::generic;
  // How repetitions become one value. The minimum suits timings, whose noise only ever adds
  // time; a reader sets the median for quantities with two-sided noise (e.g. EPCC overheads,
  // which are differences of two timings).
  Summary summary = Summary::minimum;
  std::vector<Measurement> points;
  // Why no model of this series may give a growth class or verdict whatever its fit (a scale
  // report's series fitted on counts without a core per thread); empty: judged by its fit.
  std::string withheld;
};

}  // namespace ompscope::model
