#include "model/scale_report_models.h"

#include "model/scale_report_reader.h"

namespace ompscope::model {

ModelledSeries model_scale_report(const report::Report& report, const ModelOptions& options) {
  return model_all(series_of_report(report), options, kScaleMinimumThreadCounts);
}

}  // namespace ompscope::model
