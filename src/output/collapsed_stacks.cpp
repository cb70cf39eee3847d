#include "output/collapsed_stacks.h"

#include <fmt/format.h>

#include <cmath>

namespace ompscope::output {
namespace {

// A frame may hold neither the separator nor the space before the count (C++ signatures hold
// spaces: "f(int, double)").
std::string frame_text(std::string text) {
  for (char& c : text)
    if (c == ';' || c == ' ' || c == '\n') c = c == ';' ? ',' : '_';
  return text;
}

}  // namespace

std::string render_collapsed_stacks(const report::Report& report) {
  std::string out;
  for (const report::RegionReport& r : report.regions) {
    const std::string root =
        r.kind == report::RegionKind::kSerial ? std::string("serial")
                           : frame_text(fmt::format("{} {}:{}", r.id, r.file.substr(r.file.rfind('/') + 1), r.line));
    for (const auto& [stack, cpu_s] : r.stacks) {
      const long long us = std::llround(cpu_s * 1e6);
      if (us <= 0) continue;
      std::string frames = root;
      size_t from = 0;
      while (from <= stack.size()) {
        const size_t to = std::min(stack.find(';', from), stack.size());
        frames += ';' + frame_text(stack.substr(from, to - from));
        from = to + 1;
      }
      out += fmt::format("{} {}\n", frames, us);
    }
  }
  return out;
}

}  // namespace ompscope::output
