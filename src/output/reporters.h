// The report's formats, one registry for every command: `profile` and `scale` write each into
// DIR/<file>, `report --format NAME` prints one. A new format is its renderer and one line in
// reporters.cpp.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "report/report.h"

namespace ompscope::output {

struct RenderOptions {
  bool colour = false;  // ANSI colours (text, on a terminal)
};

struct Reporter {
  std::string_view name;  // --format NAME
  std::string_view file;  // in an output directory
  std::string (*render)(const report::Report& report, const RenderOptions& options);
};

// report.json first: the others are views of it.
std::span<const Reporter> reporters();
// nullptr for a name no reporter has.
const Reporter* find_reporter(std::string_view name);

// For every registry of formats (the report's, diff's, verify's): the one named, nullptr for a
// name none has; and the names, for --format's choices.
template <class R>
const R* find_by_name(std::span<const R> registry, std::string_view name) {
  for (const R& r : registry)
    if (r.name == name) return &r;
  return nullptr;
}
template <class R>
std::vector<std::string> names_of(std::span<const R> registry) {
  std::vector<std::string> names;
  for (const R& r : registry) names.emplace_back(r.name);
  return names;
}

}  // namespace ompscope::output
