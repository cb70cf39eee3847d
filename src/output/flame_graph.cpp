#include "output/flame_graph.h"

#include <fmt/format.h>

#include <map>
#include <memory>

#include "output/display_format.h"
#include "output/html_escape.h"

namespace ompscope::output {
namespace {

struct Frame {
  double s = 0;
  std::map<std::string, std::unique_ptr<Frame>> children;  // by name: FlameGraph's order
};

constexpr double kWidth = 960, kRow = 17;

// One hue per frame name, stable across regions and reports (a warm palette, as flame graphs are).
std::string colour_of(const std::string& name) {
  unsigned h = 2166136261u;
  for (unsigned char c : name) h = (h ^ c) * 16777619u;
  return fmt::format("hsl({},{}%,{}%)", 10 + h % 45, 70 + (h >> 8) % 20, 55 + (h >> 16) % 12);
}

int depth_of(const Frame& f) {
  int d = 0;
  for (const auto& [name, child] : f.children) d = std::max(d, depth_of(*child));
  return d + 1;
}

void draw(const Frame& f, const std::string& name, double x, int depth, double per_second, double total, std::string& svg) {
  const double w = f.s * per_second;
  if (w < 0.5) return;
  const std::string tip = fmt::format("{} — {} ({})", name, format_seconds(f.s), format_percent(f.s / total));
  svg += fmt::format("<g><title>{}</title><rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\" "
                     "rx=\"2\"/>",
                     html_escape(tip), x, depth * kRow, w, kRow - 1, colour_of(name));
  // A label where about four characters fit, cut to the width.
  const size_t chars = static_cast<size_t>(w / 7);
  if (chars >= 4)
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\">{}</text>", x + 3, depth * kRow + 12,
                       html_escape(truncate_label(name, chars)));
  svg += "</g>\n";
  double child_x = x;
  for (const auto& [child_name, child] : f.children) {
    draw(*child, child_name, child_x, depth + 1, per_second, total, svg);
    child_x += child->s * per_second;
  }
}

}  // namespace

std::string flame_graph_svg(const std::vector<std::pair<std::string, double>>& stacks, const std::string& title) {
  Frame root;
  for (const auto& [stack, s] : stacks) {
    if (!(s > 0)) continue;
    root.s += s;
    Frame* f = &root;
    size_t from = 0;
    while (from <= stack.size()) {
      const size_t to = std::min(stack.find(';', from), stack.size());
      auto& child = f->children[stack.substr(from, to - from)];
      if (!child) child = std::make_unique<Frame>();
      child->s += s;
      f = child.get();
      from = to + 1;
    }
  }
  if (!(root.s > 0)) return {};
  const int depth = depth_of(root);
  std::string svg = fmt::format(
      "<svg class=\"flame-graph\" role=\"img\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" "
      "font-family=\"monospace\"><title>{}</title>\n",
      kWidth, depth * kRow, kWidth, depth * kRow, html_escape(title));
  draw(root, title, 0, 0, kWidth / root.s, root.s, svg);
  return svg + "</svg>\n";
}

}  // namespace ompscope::output
