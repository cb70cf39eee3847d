// An event log's meta.txt (analysis/run_log's read_run_meta): written by the tool inside the
// observed program, read back as outside input.
#include "analysis/run_log.h"
#include "common/error.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string file = ompscope::fuzz::scratch_directory() + "/meta.txt";
  ompscope::fuzz::write_file(file, ompscope::fuzz::text_of(data, size));
  try {
    ompscope::analysis::read_run_meta(file);
  } catch (const ompscope::Error&) {
  }
  return 0;
}
