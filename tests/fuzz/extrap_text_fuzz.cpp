// Extra-P text input (`ompscope model FILE`): model/extrap_text_reader.
#include <sstream>

#include "common/error.h"
#include "fuzz_input.h"
#include "model/extrap_text_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in{std::string(ompscope::fuzz::text_of(data, size))};
  try {
    ompscope::model::read_extrap_text(in, "fuzz.txt");
  } catch (const ompscope::Error&) {
  }
  return 0;
}
