// The code beside the findings: the lines around the one a report names, read from the file the
// debug info names; one sentence where the file or the line is not there.
#include "analysis/source_excerpt.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace ompscope::analysis {
namespace {

std::string write_source(const std::string& name, int lines) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream out(path);
  for (int n = 1; n <= lines; ++n) out << (n == 5 ? "#pragma omp parallel for <x> & y" : "line " + std::to_string(n)) << "\n";
  return path.string();
}

TEST(SourceExcerpt, HoldsTheNamedLineWithOneBeforeAndTwoAfter) {
  const std::string file = write_source("ompscope_source_excerpt_a.c", 20);
  SourceReader reader;
  const report::SourceExcerpt e = reader.excerpt(file, 5);
  EXPECT_TRUE(e.found());
  EXPECT_EQ(e.file, file);
  EXPECT_EQ(e.line, 5);
  EXPECT_EQ(e.first_line, 4);
  EXPECT_EQ(e.lines, (std::vector<std::string>{"line 4", "#pragma omp parallel for <x> & y", "line 6", "line 7"}));
  // At the ends of the file, what there is.
  EXPECT_EQ(reader.excerpt(file, 1).first_line, 1);
  EXPECT_EQ(reader.excerpt(file, 20).lines, (std::vector<std::string>{"line 19", "line 20"}));
}

TEST(SourceExcerpt, SaysSourceNotFoundWhereTheFileOrTheLineIsNotThere) {
  SourceReader reader;
  const report::SourceExcerpt gone = reader.excerpt("/nonexistent/ompscope/solver.c", 42);
  EXPECT_FALSE(gone.found());
  EXPECT_EQ(gone.missing, "source not found: /nonexistent/ompscope/solver.c");
  const std::string file = write_source("ompscope_source_excerpt_b.c", 3);
  const report::SourceExcerpt past = reader.excerpt(file, 9);
  EXPECT_FALSE(past.found());
  EXPECT_NE(past.missing.find("has no line 9"), std::string::npos) << past.missing;
}

TEST(SourceExcerpt, CutsAVeryLongLine) {
  const auto path = std::filesystem::temp_directory_path() / "ompscope_source_excerpt_c.c";
  std::ofstream(path) << std::string(1000, 'x') << "\n";
  SourceReader reader;
  const report::SourceExcerpt e = reader.excerpt(path.string(), 1);
  ASSERT_EQ(e.lines.size(), 1u);
  EXPECT_EQ(e.lines[0], std::string(kExcerptLineChars, 'x') + "…");
}

TEST(SourceExcerpt, GoesToEachConstructAndToTheFirstFindingAtEachPlace) {
  const std::string file = write_source("ompscope_source_excerpt_d.c", 20);
  Report report;
  RegionReport region;
  report::ConstructReport loop;
  loop.kind = report::ConstructKind::kLoop;
  loop.file = file;
  loop.line = 5;
  report::ConstructReport inner = loop;
  inner.line = 7;
  loop.constructs = {inner};
  region.constructs = {loop};
  report.regions = {region};
  report::Finding first{"load_imbalance"}, second{"fork_join_overhead"}, elsewhere{"barrier_overhead"}, serial{"serial_code"};
  first.file = second.file = elsewhere.file = file;
  first.line = second.line = 5;
  elsewhere.line = 7;
  report.findings = {first, second, elsewhere, serial};
  attach_source_excerpts(report);
  const report::ConstructReport& c = report.regions[0].constructs[0];
  ASSERT_TRUE(c.source);
  EXPECT_EQ(c.source->lines[1], "#pragma omp parallel for <x> & y");
  ASSERT_TRUE(c.constructs[0].source);
  EXPECT_EQ(c.constructs[0].source->line, 7);
  ASSERT_TRUE(report.findings[0].source);
  EXPECT_EQ(report.findings[0].source->first_line, 4);
  EXPECT_FALSE(report.findings[1].source) << "the same lines are just above it";
  ASSERT_TRUE(report.findings[2].source);
  EXPECT_EQ(report.findings[2].source->line, 7);
  EXPECT_FALSE(report.findings[3].source) << "serial code names no line";
}

}  // namespace
}  // namespace ompscope::analysis
