// A flame graph of folded call stacks ("outer;...;inner" → seconds), drawn as an inline SVG icicle
// (the outermost frame on top, each frame as wide as the time under it), for the HTML report's
// regions (docs/sampling.md, "Sampled lines"). It lays out what it is given and computes no
// figure: the stacks and their times are the report's.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace ompscope::output {

std::string flame_graph_svg(const std::vector<std::pair<std::string, double>>& stacks, const std::string& title);

}  // namespace ompscope::output
