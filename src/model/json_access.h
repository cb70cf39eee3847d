// Typed access to parsed JSON input that fails with the source and the JSON path of the
// offending value ("bench.json: results[3].threads: expected a number"), since a DOM keeps no
// line numbers. Syntax errors, which do have one, are reported by parse_json_text.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ompscope::model::json_access {

// Parses text; a syntax error names source, line and column.
nlohmann::json parse_json_text(std::string_view text, const std::string& source);

struct Where {
  const std::string& source;
  std::string path;  // "results[3].raw"

  Where operator[](std::string_view key) const;
  Where operator[](std::size_t index) const;
  [[noreturn]] void fail(const std::string& message) const;
};

const nlohmann::json& member(const nlohmann::json& object, std::string_view key, const Where& where);
const nlohmann::json& array(const nlohmann::json& value, const Where& where);
const nlohmann::json& object(const nlohmann::json& value, const Where& where);
std::string string(const nlohmann::json& value, const Where& where);
// A JSON number; also the strings Extra-P writes for numbers: "nan", "inf", "3/2", "1e-3".
double number(const nlohmann::json& value, const Where& where);

}  // namespace ompscope::model::json_access
