// JSON read from outside (report.json, Extra-P and bench files, the bench cache) is parsed with a
// nesting limit: a valid document of 100 000 nested arrays crashed `report` and `model` in the
// recursive code that walks a parsed value (docs/safety.md, "Readers").
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "common/error.h"

namespace ompscope {

// Far deeper than any document ompscope reads (report.json nests 8 levels).
inline constexpr int kMaxJsonDepth = 256;

// The deepest nesting of arrays and objects in `text`, read outside strings; stops counting past
// `limit`. A linear scan before nlohmann's parser: on a 12 MB report.json it takes 0.045 s beside
// the parse's 0.25 s, where parsing with a depth-counting callback took 0.35 s.
inline int json_nesting_depth(std::string_view text, int limit) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char ch : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (ch == '\\') escaped = true;
      else if (ch == '"') in_string = false;
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == '[' || ch == '{') {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (ch == ']' || ch == '}') {
      --depth;
    }
  }
  return deepest;
}

// Parses `text` as `Json` (nlohmann::json, or nlohmann::ordered_json where the file's key order is
// kept); throws ompscope::Error ("SOURCE: JSON nested deeper than 256 levels") past the limit.
// Other parse errors are nlohmann's, as Json::parse throws them (or a discarded value where
// `allow_exceptions` is false).
template <typename Json = nlohmann::json>
Json parse_json_with_depth_limit(std::string_view text, const std::string& source, bool allow_exceptions = true) {
  if (json_nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth)
    throw Error(source + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels: not a file ompscope reads");
  return Json::parse(text.begin(), text.end(), nullptr, allow_exceptions);
}

}  // namespace ompscope
