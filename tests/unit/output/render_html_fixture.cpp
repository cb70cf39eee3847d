// render_html_fixture REPORT.json OUT.html: the HTML writer alone, for the Chromium check.
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "output/html_report.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: render_html_fixture REPORT.json OUT.html\n";
    return 2;
  }
  std::ifstream input(argv[1]);
  if (!input) {
    std::cerr << "render_html_fixture: cannot read " << argv[1] << "\n";
    return 2;
  }
  nlohmann::json report;
  try {
    report = nlohmann::json::parse(input);
  } catch (const nlohmann::json::exception& error) {
    std::cerr << "render_html_fixture: " << argv[1] << " is not JSON: " << error.what() << "\n";
    return 2;
  }
  std::ofstream output(argv[2], std::ios::binary);
  output << ompscope::output::render_html_report(report);
  if (!output.flush()) {
    std::cerr << "render_html_fixture: cannot write " << argv[2] << "\n";
    return 2;
  }
  return 0;
}
