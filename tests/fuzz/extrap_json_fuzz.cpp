// Extra-P JSON input (`ompscope model FILE`): model/extrap_json_reader, after the JSON parser
// every model input goes through (model/json_access).
#include "common/error.h"
#include "fuzz_input.h"
#include "model/extrap_json_reader.h"
#include "model/json_access.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const nlohmann::json doc = ompscope::model::json_access::parse_json_text(ompscope::fuzz::text_of(data, size), "fuzz.json");
    if (ompscope::model::looks_like_extrap_json(doc)) ompscope::model::read_extrap_json(doc, "fuzz.json");
  } catch (const ompscope::Error&) {
  }
  return 0;
}
