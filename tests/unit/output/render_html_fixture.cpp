// render_html_fixture REPORT.json OUT.html: report.json read back and rendered by the HTML writer
// alone, for the Chromium check.
#include <fstream>
#include <iostream>

#include "common/error.h"
#include "output/html_report.h"
#include "report/report_json.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: render_html_fixture REPORT.json OUT.html\n";
    return 2;
  }
  std::string html;
  try {
    html = ompscope::output::render_html_report(ompscope::report::read_report(argv[1]));
  } catch (const ompscope::Error& error) {
    std::cerr << "render_html_fixture: " << error.what() << "\n";
    return 2;
  }
  std::ofstream output(argv[2], std::ios::binary);
  output << html;
  if (!output.flush()) {
    std::cerr << "render_html_fixture: cannot write " << argv[2] << "\n";
    return 2;
  }
  return 0;
}
