// The sampled lines' renderers (docs/sampling.md, "Sampled lines"): the folded stacks of
// `report --format collapsed`, the text report's top lines, and the HTML report's table and flame
// graph, from a report built by hand. They show the report's figures and compute none.
#include <gtest/gtest.h>

#include <regex>

#include "output/collapsed_stacks.h"
#include "output/flame_graph.h"
#include "output/html_report.h"
#include "output/text_report.h"

namespace ompscope::output {
namespace {

report::Report sampled_report() {
  report::Report r;
  r.threads = {1, 2};
  r.summary_threads = {2};
  r.program_time_s = {{1, 1.0}, {2, 0.6}};
  report::RegionReport region;
  region.id = "r1";
  region.file = "/src/stencil.c";
  region.line = 40;
  region.function = "main";
  region.instances = 10;
  region.time_s = {{1, 0.9}, {2, 0.55}};
  region.sampled[1] = {0.9, {{"/src/stencil.c", 44, "relax", "stencil", 0.6}, {"/src/stencil.c", 48, "norm", "stencil", 0.3}}};
  region.sampled[2] = {1.1, {{"/src/stencil.c", 44, "relax", "stencil", 0.8},
                             {"/src/stencil.c", 48, "norm", "stencil", 0.25},
                             {"", 0, "(OpenMP runtime)", "libomp.so.5", 0.05}}};
  region.grown_lines = {{"/src/stencil.c", 44, "relax", "stencil", 0.2}};
  region.stacks = {{"main;relax", 0.8}, {"main;norm", 0.25}, {"(OpenMP runtime)", 0.05}};
  r.regions.push_back(region);
  report::RegionReport serial;
  serial.id = "serial";
  serial.kind = report::RegionKind::kSerial;
  serial.stacks = {{"main;read input", 0.0125}};
  r.regions.push_back(serial);
  return r;
}

TEST(CollapsedStacks, OneLinePerStackRootedAtItsRegionWithItsCpuTimeInMicroseconds) {
  EXPECT_EQ(render_collapsed_stacks(sampled_report()),
            "r1_stencil.c:40;main;relax 800000\n"
            "r1_stencil.c:40;main;norm 250000\n"
            "r1_stencil.c:40;(OpenMP_runtime) 50000\n"
            "serial;main;read_input 12500\n");
}

TEST(SampledLinesText, TheTopThreeLinesUnderTheRegionWithTheirShares) {
  const std::string text = render_text_report(sampled_report(), {});
  const std::regex lines(R"(top lines at 2 threads \(CPU-time samples, 1\.10 s of CPU time\):\n\s+stencil\.c:44 \(relax\)\s+800 ms\s+73%\n\s+stencil\.c:48 \(norm\)\s+250 ms\s+23%\n\s+\(OpenMP runtime\) libomp\.so\.5\s+50\.0 ms\s+5%)");
  EXPECT_TRUE(std::regex_search(text, lines)) << text;
}

TEST(FlameGraph, EachFrameIsAsWideAsTheTimeUnderIt) {
  const std::string svg = flame_graph_svg({{"main;relax", 0.75}, {"main;norm", 0.25}}, "r1");
  // The root and main span the width; relax three quarters of it, norm a quarter, after relax
  // in name order (norm first).
  EXPECT_NE(svg.find("x=\"0.0\" y=\"0.0\" width=\"960.0\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("x=\"0.0\" y=\"17.0\" width=\"960.0\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("x=\"0.0\" y=\"34.0\" width=\"240.0\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("x=\"240.0\" y=\"34.0\" width=\"720.0\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("<title>relax — 750 ms (75%)</title>"), std::string::npos) << svg;
  EXPECT_TRUE(flame_graph_svg({}, "r1").empty());
}

TEST(SampledLinesHtml, TheRegionsTableOfLinesAndItsFlameGraph) {
  const std::string html = render_html_report(sampled_report());
  EXPECT_NE(html.find("class=\"sampled-lines\""), std::string::npos);
  EXPECT_NE(html.find("<code>stencil.c:44 (relax)</code>"), std::string::npos);
  EXPECT_NE(html.find("+200 ms"), std::string::npos);
  EXPECT_NE(html.find("class=\"flame-graph\""), std::string::npos);
}

}  // namespace
}  // namespace ompscope::output
