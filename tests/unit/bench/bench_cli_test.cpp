// `ompscope bench` end to end: it finds both programs next to itself, runs them, and writes the
// JSON that `ompscope model` reads and the Extra-P text. Structure only, no timing assertions.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "bench/core/bench_json.h"
#include "run_program.h"

namespace ompscope::bench {
namespace {

namespace fs = std::filesystem;

TEST(BenchCommand, QuickRunOfTwoConstructsOnBothRuntimes) {
  if (std::string(OMPSCOPE_BENCH_GNU).empty()) GTEST_SKIP() << "ompscope-bench-gnu not built (no g++)";
  const fs::path dir = fs::temp_directory_path() / ("ompscope-bench-cli-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path json_file = dir / "bench.json", extrap_file = dir / "bench.txt";
  const int status = testing::run_program({OMPSCOPE_CLI, "bench", "--quick", "-t", "1,2", "--construct", "barrier,atomic",
                                           "--runtime", "both", "-o", json_file.string(), "--extrap",
                                           extrap_file.string()},
                                          {});
  ASSERT_EQ(status, 0);

  std::ifstream in(json_file);
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["runtime"], "both");
  const BenchDocument doc = bench_document_from_json(j);
  // 2 runtimes x 2 thread counts x 2 constructs x 3 metrics
  EXPECT_EQ(doc.results.size(), 24u);
  std::set<std::string> seen;
  for (const SeriesResult& r : doc.results) seen.insert(r.runtime + "/" + std::to_string(r.threads) + "/" + r.construct);
  EXPECT_EQ(seen.size(), 8u);

  std::ifstream extrap(extrap_file);
  std::stringstream text;
  text << extrap.rdbuf();
  EXPECT_NE(text.str().find("PARAMETER t\nPOINTS 1 2\n"), std::string::npos);
  EXPECT_NE(text.str().find("METRIC gnu_direct_avg_cost\nREGION barrier\nDATA "), std::string::npos);
  EXPECT_NE(text.str().find("METRIC llvm_epcc_overhead\nREGION barrier\nDATA "), std::string::npos);
  fs::remove_all(dir);
}

TEST(BenchCommand, UnknownConstructIsAnOmpscopeError) {
  EXPECT_EQ(testing::run_program({OMPSCOPE_CLI, "bench", "--construct", "ordered"}, {}), 2);
}

}  // namespace
}  // namespace ompscope::bench
