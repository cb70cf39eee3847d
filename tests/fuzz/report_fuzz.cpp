// report.json as `ompscope report DIR` reads it (cli/report_files' read_report_file, through the
// typed report's reader, report/report_json.h) and renders it in every format (output/: text,
// CSV, HTML).
#include "cli/report_files.h"
#include "common/error.h"
#include "fuzz_input.h"
#include "output/csv_report.h"
#include "output/html_report.h"
#include "output/text_report.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string file = ompscope::fuzz::scratch_directory() + "/report.json";
  ompscope::fuzz::write_file(file, ompscope::fuzz::text_of(data, size));
  try {
    const ompscope::report::Report report = ompscope::cli::read_report_file(file);
    ompscope::output::render_text_report(report);
    ompscope::output::render_csv_report(report);
    ompscope::output::render_html_report(report);
  } catch (const ompscope::Error&) {
  }
  return 0;
}
