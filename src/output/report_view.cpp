#include "output/report_view.h"

#include <fmt/format.h>

#include <array>

namespace ompscope::output {

std::string region_location(const report::RegionReport& region) {
  if (region.file.empty()) return {};
  return region.line > 0 ? fmt::format("{}:{}", region.file, region.line) : region.file;
}

std::string construct_location(const report::ConstructReport& construct) {
  if (construct.kind == "join_barrier") return "the region's end";
  if (construct.file.empty()) return short_function(construct.function);
  const auto slash = construct.file.rfind('/');
  const std::string file = slash == std::string::npos ? construct.file : construct.file.substr(slash + 1);
  return construct.line > 0 ? fmt::format("{}:{}", file, construct.line) : file;
}

std::string short_function(std::string_view signature) {
  std::string_view name = signature;
  // Qualifiers after the parameter list belong to the signature, not the name.
  static constexpr std::array<std::string_view, 5> kQualifiers{" const", " volatile", " &&", " &", " noexcept"};
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (std::string_view q : kQualifiers)
      if (name.ends_with(q)) {
        name.remove_suffix(q.size());
        stripped = true;
      }
  }
  if (!name.ends_with(')')) return std::string(signature);
  int depth = 0;
  for (std::size_t i = name.size(); i-- > 0;) {
    if (name[i] == ')') ++depth;
    else if (name[i] == '(' && --depth == 0) {
      if (i == 0) return std::string(signature);  // all of it in parentheses: not a signature
      return std::string(name.substr(0, i));
    }
  }
  return std::string(signature);
}

std::string region_short_name(const report::RegionReport& region) {
  if (!region.function.empty()) return short_function(region.function);
  if (std::string where = region_location(region); !where.empty()) return where;
  return region.id;
}

std::string run_outcome(const report::RunRecord& run) {
  if (run.signal != 0) return fmt::format("killed by signal {}", run.signal);
  if (run.exit_code != 0) return fmt::format("exit code {}", run.exit_code);
  if (!run.status.empty() && run.status != "ok") return run.status;
  return "ok";
}

std::string note_sentence(const report::Note& note, std::size_t max_items) {
  if (note.items.empty()) return note.text;
  const std::size_t shown = max_items == 0 ? note.items.size() : std::min(max_items, note.items.size());
  std::string text = note.text + ": ";
  for (std::size_t i = 0; i < shown; ++i) text += (i ? "; " : "") + note.items[i];
  if (shown < note.items.size()) text += fmt::format("; and {} more (report.json)", note.items.size() - shown);
  return text;
}

}  // namespace ompscope::output
