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

// A thread spinning on a flag with `omp flush` in gcc's build runs a fence gcc inlined at the
// directive's line, and its samples fall on the loop's condition (the load after the fence): both
// lines say the thread waits on a flush; a loop with other work, or a flush elsewhere, does not.
TEST(SourceExcerpt, AFlushDirectiveAndTheLoopThatSpinsOnOneWaitOnAFlush) {
  EXPECT_TRUE(is_flush_directive("#pragma omp flush"));
  EXPECT_TRUE(is_flush_directive("    #  pragma   OMP   flush (flag)"));
  EXPECT_TRUE(is_flush_directive("\t!$OMP FLUSH"));
  EXPECT_TRUE(is_flush_directive("!$omp flush(flag)"));
  EXPECT_FALSE(is_flush_directive("#pragma omp flushes"));
  EXPECT_FALSE(is_flush_directive("#pragma omp parallel for"));
  EXPECT_FALSE(is_flush_directive("flush(out);"));
  EXPECT_FALSE(is_flush_directive("// #pragma omp flush"));
  const auto path = std::filesystem::temp_directory_path() / "ompscope_source_excerpt_flush.c";
  std::ofstream(path) << "for (int j = 0; j < n; ++j) {\n"            // 1
                         "  while (flag[j - 1] == 0) {\n"             // 2: spins on the flush below
                         "#pragma omp flush\n"                        // 3
                         "  }\n"                                      // 4
                         "  for (int i = 0; i < m; ++i) row[i] += 1;\n"  // 5: a loop of work
                         "  before = row[0];\n"                       // 6
                         "  dowhile_count = 0;\n"                     // 7: no loop ("do" inside a word)
                         "#pragma omp flush\n"                        // 8
                         "}\n"                                        // 9
                         "while (ready == 0)\n"                       // 10: its brace on a line of its own
                         "{\n"                                        // 11
                         "  #pragma omp flush(ready)\n";              // 12
  SourceReader reader;
  const std::string file = path.string();
  EXPECT_TRUE(waits_on_flush(reader, file, 2));
  EXPECT_TRUE(waits_on_flush(reader, file, 3));
  EXPECT_FALSE(waits_on_flush(reader, file, 1));  // its flush is two lines below the loop's next
  EXPECT_FALSE(waits_on_flush(reader, file, 5));
  EXPECT_FALSE(waits_on_flush(reader, file, 6));
  EXPECT_FALSE(waits_on_flush(reader, file, 7));
  EXPECT_TRUE(waits_on_flush(reader, file, 8));
  EXPECT_TRUE(waits_on_flush(reader, file, 10));
  EXPECT_FALSE(waits_on_flush(reader, file, 13));  // no such line
  EXPECT_FALSE(waits_on_flush(reader, "/nonexistent/ompscope/lu.c", 2));
  std::filesystem::remove(path);
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
