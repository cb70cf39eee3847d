// report.json read by `ompscope model DIR`: model/scale_report_reader.
#include "common/error.h"
#include "fuzz_input.h"
#include "model/json_access.h"
#include "model/scale_report_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const nlohmann::json doc = ompscope::model::json_access::parse_json_text(ompscope::fuzz::text_of(data, size), "fuzz.json");
    if (ompscope::model::looks_like_scale_report(doc)) ompscope::model::read_scale_report(doc, "fuzz.json");
  } catch (const ompscope::Error&) {
  }
  return 0;
}
