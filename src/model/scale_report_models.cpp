#include "model/scale_report_models.h"

#include "model/scale_report_reader.h"

namespace ompscope::model {

ModelledSeries model_scale_report(const nlohmann::json& report, const ModelOptions& options) {
  return model_all(read_scale_report(report, "report.json"), options, kScaleMinimumThreadCounts);
}

}  // namespace ompscope::model
