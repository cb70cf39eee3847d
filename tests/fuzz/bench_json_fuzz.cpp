// `ompscope bench -o FILE` output read back by `ompscope model FILE`: model/bench_json_reader.
#include "common/error.h"
#include "fuzz_input.h"
#include "model/bench_json_reader.h"
#include "model/json_access.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const nlohmann::json doc = ompscope::model::json_access::parse_json_text(ompscope::fuzz::text_of(data, size), "fuzz.json");
    if (ompscope::model::looks_like_bench_json(doc)) ompscope::model::read_bench_json(doc, "fuzz.json");
  } catch (const ompscope::Error&) {
  }
  return 0;
}
