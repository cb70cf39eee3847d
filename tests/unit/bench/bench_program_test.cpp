// Runs the real bench programs in --quick mode and checks the structure and plausibility of
// what they write. No timing assertions: the machine is shared.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include "bench/core/bench_json.h"
#include "bench/core/run_plan.h"
#include "bench/core/statistics.h"
#include "run_program.h"

namespace ompscope::bench {
namespace {

namespace fs = std::filesystem;

fs::path scratch_file(const std::string& name) {
  return fs::temp_directory_path() / ("ompscope-bench-test-" + std::to_string(getpid()) + "-" + name);
}

BenchDocument run_quick(const std::string& program, int threads, const std::string& constructs) {
  const fs::path out = scratch_file(fs::path(program).filename().string() + std::to_string(threads) + ".json");
  const int status = testing::run_program({program, "--quick", "--construct", constructs, "-o", out.string()},
                                          {{"OMP_NUM_THREADS", std::to_string(threads)},
                                           {"OMP_PROC_BIND", "spread"},
                                           {"OMP_PLACES", "threads"}});
  EXPECT_EQ(status, 0) << program;
  std::ifstream in(out);
  BenchDocument doc = bench_document_from_json(nlohmann::json::parse(in));
  fs::remove(out);
  return doc;
}

void expect_plausible(const BenchDocument& doc, const std::string& runtime, int threads, std::size_t constructs) {
  EXPECT_EQ(doc.runtime, runtime);
  EXPECT_EQ(doc.proc_bind, "spread");
  EXPECT_FALSE(doc.clock.empty());
  // epcc overhead + direct min_cost + direct avg_cost per construct.
  ASSERT_EQ(doc.results.size(), 3 * constructs);
  std::set<std::string> metrics;
  for (const SeriesResult& r : doc.results) {
    metrics.insert(r.method + "/" + r.metric);
    EXPECT_EQ(r.runtime, runtime);
    EXPECT_EQ(r.threads, threads);
    EXPECT_EQ(r.oversubscribed, threads > available_cpus());
    EXPECT_GE(r.samples_s.size(), 10u) << r.construct << " " << r.metric;
    const std::string library = r.details.value("runtime_library", "");
    EXPECT_NE(library.find(runtime == "gnu" ? "libgomp" : "libomp"), std::string::npos) << library;
    const Summary s = summarize(drop_best_and_worst_quarter(r.samples_s));
    EXPECT_TRUE(std::isfinite(s.median) && std::isfinite(s.sd)) << r.construct << " " << r.metric;
    EXPECT_LT(std::fabs(s.median), 1.0) << r.construct << " " << r.metric;
    // Only a synchronising construct's cost is bound to be positive with a whole team.
    if (r.construct == "barrier" || r.construct == "parallel") EXPECT_GT(s.median, 0) << r.construct << " " << r.metric;
  }
  EXPECT_EQ(metrics, (std::set<std::string>{"epcc/overhead", "direct/min_cost", "direct/avg_cost"}));
}

TEST(BenchProgram, LlvmQuickRunIsComplete) {
  expect_plausible(run_quick(OMPSCOPE_BENCH_LLVM, 2, "barrier,parallel"), "llvm", 2, 2);
}

TEST(BenchProgram, GnuQuickRunIsComplete) {
  if (std::string(OMPSCOPE_BENCH_GNU).empty()) GTEST_SKIP() << "ompscope-bench-gnu not built (no g++)";
  expect_plausible(run_quick(OMPSCOPE_BENCH_GNU, 2, "barrier,parallel"), "gnu", 2, 2);
}

TEST(BenchProgram, OversubscribedRunIsLabelled) {
  const int threads = available_cpus() + 1;
  const BenchDocument doc = run_quick(OMPSCOPE_BENCH_LLVM, threads, "barrier");
  ASSERT_FALSE(doc.results.empty());
  for (const SeriesResult& r : doc.results) EXPECT_TRUE(r.oversubscribed);
}

TEST(BenchProgram, ATeamSmallerThanAskedIsAnErrorNotAWaitForever) {
  for (const char* program : {OMPSCOPE_BENCH_LLVM, OMPSCOPE_BENCH_GNU}) {
    if (std::string(program).empty()) continue;
    EXPECT_EQ(testing::run_program({program, "--quick", "--construct", "barrier", "-o", scratch_file("limited.json").string()},
                                   {{"OMP_NUM_THREADS", "2"}, {"OMP_THREAD_LIMIT", "1"}}),
              1)
        << program;
  }
}

TEST(BenchProgram, RejectsAnUnknownConstruct) {
  EXPECT_EQ(testing::run_program({OMPSCOPE_BENCH_LLVM, "--construct", "ordered"}, {}), 2);
}

}  // namespace
}  // namespace ompscope::bench
