// report.json read by `ompscope model DIR`: the input dispatch of model/model_input, then the
// typed report (report/report_json) turned into series (model/scale_report_reader).
#include "common/error.h"
#include "fuzz_input.h"
#include "model/model_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    ompscope::model::parse_model_input(ompscope::fuzz::text_of(data, size), "fuzz.json");
  } catch (const ompscope::Error&) {
  }
  return 0;
}
