#include "model/json_access.h"

#include <charconv>
#include <cmath>

#include "common/error.h"
#include "common/json_depth.h"

namespace ompscope::model::json_access {

nlohmann::json parse_json_text(std::string_view text, const std::string& source) {
  try {
    return parse_json_with_depth_limit(text, source);
  } catch (const nlohmann::json::parse_error& error) {
    // error.byte is 1-based and points just past the offending character.
    const std::size_t offset = std::min<std::size_t>(error.byte > 0 ? error.byte - 1 : 0, text.size());
    std::size_t line = 1;
    std::size_t line_start = 0;
    for (std::size_t k = 0; k < offset; ++k)
      if (text[k] == '\n') {
        ++line;
        line_start = k + 1;
      }
    std::string reason = error.what();
    const auto colon = reason.rfind(": ");
    if (colon != std::string::npos) reason = reason.substr(colon + 2);
    throw Error(source + ":" + std::to_string(line) + ": invalid JSON at column " +
                std::to_string(offset - line_start + 1) + ": " + reason);
  } catch (const nlohmann::json::out_of_range& error) {
    // A number beyond a double (1e400): the parser names it, without a position (found by
    // tests/fuzz; it escaped as an internal error before).
    std::string reason = error.what();
    if (const auto bracket = reason.find("] "); bracket != std::string::npos) reason = reason.substr(bracket + 2);
    throw Error(source + ": invalid JSON: " + reason);
  }
}

Where Where::operator[](std::string_view key) const {
  return {source, path.empty() ? std::string(key) : path + "." + std::string(key)};
}

Where Where::operator[](std::size_t index) const {
  return {source, path + "[" + std::to_string(index) + "]"};
}

void Where::fail(const std::string& message) const {
  throw Error(source + ": " + (path.empty() ? std::string("top level") : path) + ": " + message);
}

const nlohmann::json& member(const nlohmann::json& object, std::string_view key, const Where& where) {
  if (!object.is_object()) where.fail("expected an object");
  const auto it = object.find(key);
  if (it == object.end()) where.fail("missing \"" + std::string(key) + "\"");
  return *it;
}

const nlohmann::json& array(const nlohmann::json& value, const Where& where) {
  if (!value.is_array()) where.fail("expected an array");
  return value;
}

const nlohmann::json& object(const nlohmann::json& value, const Where& where) {
  if (!value.is_object()) where.fail("expected an object");
  return value;
}

std::string string(const nlohmann::json& value, const Where& where) {
  if (!value.is_string()) where.fail("expected a string");
  return value.get<std::string>();
}

namespace {

bool parse_decimal(std::string_view text, double& out) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  return error == std::errc() && end == text.data() + text.size() && !text.empty();
}

}  // namespace

double number(const nlohmann::json& value, const Where& where) {
  if (value.is_number()) return value.get<double>();
  if (!value.is_string()) where.fail("expected a number");
  const std::string text = value.get<std::string>();
  double result = 0;
  if (text == "nan" || text == "inf" || text == "-inf") where.fail("value is " + text);
  const auto slash = text.find('/');
  if (slash != std::string::npos) {
    double numerator = 0;
    double denominator = 0;
    if (parse_decimal(std::string_view(text).substr(0, slash), numerator) &&
        parse_decimal(std::string_view(text).substr(slash + 1), denominator) && denominator != 0)
      return numerator / denominator;
  } else if (parse_decimal(text, result) && std::isfinite(result)) {
    return result;
  }
  where.fail("'" + text + "' is not a number");
}

}  // namespace ompscope::model::json_access
