// The report.json fixtures shared with the Chromium check (tests/e2e/html/fixtures/).
#pragma once
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

inline nlohmann::json load_fixture(const std::string& name) {
  std::ifstream input(std::string(OMPSCOPE_HTML_FIXTURES) + "/" + name);
  if (!input) throw std::runtime_error("missing fixture " + name);
  return nlohmann::json::parse(input);
}
