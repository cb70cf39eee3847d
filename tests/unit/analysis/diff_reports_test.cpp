// diff_reports (docs/diff.md): two hand-built reports with exact numbers, matched by source
// location and compared at one count.
#include "analysis/diff_reports.h"

#include <gtest/gtest.h>

#include "analysis/statistics.h"
#include "common/error.h"

namespace ompscope::analysis {
namespace {

using report::DiffMatch;
using report::Problem;
using report::RegionReport;
using report::Report;

RegionReport region(const std::string& id, const std::string& file, int line, const std::string& function,
                    std::map<int, double> time, std::map<int, double> spread = {}) {
  RegionReport r;
  r.id = id;
  r.file = file;
  r.line = line;
  r.function = function;
  r.time_s = std::move(time);
  r.time_spread_s = std::move(spread);
  r.instances = 10;
  return r;
}

// A scale at 1 and 2 threads with `repeats` runs at each; the program's range at 2 threads.
Report scale(std::pair<double, double> range2, int repeats) {
  Report r;
  r.command = {"./app"};
  r.runtime = "LLVM";
  r.threads = {1, 2};
  for (int t : {1, 2})
    for (int k = 0; k < repeats; ++k) {
      report::RunRecord run;
      run.threads = t;
      run.repeat = k;
      r.runs.push_back(run);
    }
  r.program_time_s = {{1, 1.0}, {2, (range2.first + range2.second) / 2}};
  r.program_time_range_s = {{1, {1.0, 1.0}}, {2, range2}};
  return r;
}

// Before: a static loop at main.c:24 (0.30 s at 2 threads, repeats within 0.02 s, load_imbalance
// 0.08 s) and a reduction at main.c:40. After: the loop's directive moved to line 21 (its
// schedule changed), 0.18 s within 0.03 s, no imbalance; the reduction unchanged at line 40,
// 0.10 → 0.11 s with 0.02 + 0.03 s of spread; a new region in other.c.
TEST(DiffReports, RegionsMatchByLineThenByFunctionAndTheChangeIsJudgedAgainstBothSpreads) {
  Report a = scale({0.38, 0.42}, 3), b = scale({0.28, 0.30}, 3);
  a.regions.push_back(region("r1", "/src/main.c", 24, "main", {{1, 0.5}, {2, 0.30}}, {{2, 0.02}}));
  a.regions.back().problems.push_back(Problem{"load_imbalance", 2, 0.08, 0.08, "schedule(dynamic, 1)", {}});
  a.regions.back().problems.push_back(Problem{"load_imbalance", 1, 0.01, 0.01, "h", {}});  // another count
  a.regions.push_back(region("r2", "/src/main.c", 40, "main", {{1, 0.2}, {2, 0.10}}, {{2, 0.02}}));
  b.regions.push_back(region("r1", "/build2/main.c", 21, "main", {{1, 0.5}, {2, 0.18}}, {{2, 0.03}}));
  b.regions.push_back(region("r2", "/build2/main.c", 40, "main", {{1, 0.2}, {2, 0.11}}, {{2, 0.03}}));
  b.regions.push_back(region("r3", "/build2/other.c", 7, "f", {{1, 0.01}, {2, 0.005}}, {{2, 0.001}}));
  const report::ReportDiff d = diff_reports(a, "before", b, "after");
  EXPECT_EQ(d.threads, 2);
  EXPECT_NEAR(d.program.change_s, -0.11, 1e-12);
  EXPECT_NEAR(*d.program.spread_s, 0.04 + 0.02, 1e-12);
  EXPECT_TRUE(d.program.significant);
  ASSERT_EQ(d.regions.size(), 3u);
  // Largest change first: the loop, moved from line 24 to 21, -0.12 s beyond 0.05 s of spread.
  const report::RegionDiff& loop = d.regions[0];
  EXPECT_EQ(loop.match, DiffMatch::Moved);
  EXPECT_EQ(loop.a->line, 24);
  EXPECT_EQ(loop.b->line, 21);
  EXPECT_NEAR(loop.change_s, -0.12, 1e-12);
  EXPECT_NEAR(*loop.spread_s, 0.05, 1e-12);
  EXPECT_TRUE(loop.significant);
  ASSERT_EQ(loop.causes.size(), 1u);  // the causes at 2 threads only
  EXPECT_EQ(loop.causes[0].kind.name(), "load_imbalance");
  EXPECT_DOUBLE_EQ(*loop.causes[0].a_gain_s, 0.08);
  EXPECT_FALSE(loop.causes[0].b_gain_s.has_value());
  // The reduction: the same line in another checkout, +0.01 s within 0.05 s of spread.
  const report::RegionDiff& reduction = d.regions[1];
  EXPECT_EQ(reduction.match, DiffMatch::SameLine);
  EXPECT_NEAR(reduction.change_s, 0.01, 1e-12);
  EXPECT_FALSE(reduction.significant);
  // The new region: only in B, its whole time the change, beyond its own spread.
  const report::RegionDiff& added = d.regions[2];
  EXPECT_EQ(added.match, DiffMatch::OnlyInB);
  EXPECT_FALSE(added.a.has_value());
  EXPECT_NEAR(added.change_s, 0.005, 1e-12);
  EXPECT_TRUE(added.significant);
  EXPECT_TRUE(d.notes.empty());
}

TEST(DiffReports, ARegionTooFarAwayOrInAnotherFunctionIsNotTheSameRegion) {
  Report a = scale({0.4, 0.4}, 2), b = scale({0.4, 0.4}, 2);
  a.regions.push_back(region("r1", "main.c", 24, "main", {{2, 0.3}}, {{2, 0.01}}));
  a.regions.push_back(region("r2", "main.c", 100, "solve", {{2, 0.1}}, {{2, 0.01}}));
  b.regions.push_back(region("r1", "main.c", 24 + kMaxLineShift + 1, "main", {{2, 0.3}}, {{2, 0.01}}));
  b.regions.push_back(region("r2", "main.c", 101, "setup", {{2, 0.1}}, {{2, 0.01}}));
  const report::ReportDiff d = diff_reports(a, "a", b, "b");
  int only_a = 0, only_b = 0;
  for (const report::RegionDiff& r : d.regions) {
    only_a += r.match == DiffMatch::OnlyInA;
    only_b += r.match == DiffMatch::OnlyInB;
  }
  EXPECT_EQ(only_a, 2);
  EXPECT_EQ(only_b, 2);
}

TEST(DiffReports, OneRepeatJudgesNothingAndSaysSo) {
  Report a = scale({0.4, 0.4}, 1), b = scale({0.2, 0.2}, 1);
  a.regions.push_back(region("r1", "main.c", 24, "main", {{2, 0.3}}));
  b.regions.push_back(region("r1", "main.c", 24, "main", {{2, 0.1}}));
  const report::ReportDiff d = diff_reports(a, "a", b, "b");
  EXPECT_FALSE(d.program.spread_s.has_value());
  EXPECT_FALSE(d.program.significant);
  EXPECT_FALSE(d.regions[0].significant);
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_NE(d.notes[0].find("scale -r 3"), std::string::npos) << d.notes[0];
}

TEST(DiffReports, TheCountIsOneBothMeasured) {
  Report a = scale({0.4, 0.4}, 2), b = scale({0.4, 0.4}, 2);
  EXPECT_EQ(diff_reports(a, "a", b, "b", 1).threads, 1);
  EXPECT_THROW(diff_reports(a, "a", b, "b", 4), Error);
  b.program_time_s = {{4, 0.2}};
  try {
    diff_reports(a, "a", b, "b");
    FAIL() << "no count in common";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("a measured 1,2 threads and b measured 4"), std::string::npos) << e.what();
  }
}

// Inside a region both ran: its constructs matched by kind and line under the same parents, and
// its sampled lines by file and line; a side without one counts 0, largest change first.
TEST(DiffReports, InsideARegionTheConstructsAndSampledLinesWhoseTimeChanged) {
  Report a = scale({0.38, 0.42}, 3), b = scale({0.28, 0.30}, 3);
  a.regions.push_back(region("r1", "/src/main.c", 24, "main", {{1, 0.5}, {2, 0.30}}, {{2, 0.02}}));
  b.regions.push_back(region("r1", "/build2/main.c", 24, "main", {{1, 0.5}, {2, 0.18}}, {{2, 0.03}}));
  report::ConstructReport loop{report::ConstructKind::kLoop, "/src/main.c", 25, "main", 10, {{2, 0.25}}, {}, {}, std::nullopt};
  report::ConstructReport crit{report::ConstructKind::kCritical, "/src/main.c", 27, "main", 100, {{2, 0.05}}, {}, {}, std::nullopt};
  loop.constructs.push_back(crit);
  a.regions.back().constructs.push_back(loop);
  loop.file = "/build2/main.c";
  loop.time_s = {{2, 0.16}};
  loop.constructs.clear();  // the critical section is gone
  b.regions.back().constructs.push_back(loop);
  a.regions.back().sampled[2] = {0.6, {{"/src/main.c", 26, "main", "app", 0.5}, {"", 0, "(OpenMP runtime)", "libomp.so.5", 0.1}}};
  b.regions.back().sampled[2] = {0.36, {{"/build2/main.c", 26, "main", "app", 0.33}, {"", 0, "(OpenMP runtime)", "libomp.so.5", 0.03}}};
  const report::ReportDiff d = diff_reports(a, "a", b, "b");
  ASSERT_EQ(d.regions.size(), 1u);
  const auto& constructs = d.regions[0].constructs;
  ASSERT_EQ(constructs.size(), 2u);
  EXPECT_EQ(constructs[0].kind, "loop");
  EXPECT_DOUBLE_EQ(constructs[0].change_s, 0.16 - 0.25);
  EXPECT_EQ(constructs[1].kind, "critical");
  EXPECT_DOUBLE_EQ(*constructs[1].a_s, 0.05);
  EXPECT_FALSE(constructs[1].b_s.has_value());
  EXPECT_DOUBLE_EQ(constructs[1].change_s, -0.05);
  const auto& lines = d.regions[0].lines;
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].line, 26);
  EXPECT_DOUBLE_EQ(lines[0].change_s, 0.33 - 0.5);
  EXPECT_EQ(lines[1].function, "(OpenMP runtime)");
  EXPECT_DOUBLE_EQ(lines[1].change_s, 0.03 - 0.1);
}

// The U test's exact p-values, counted by hand over the C(m + n, m) orders of the pooled values.
TEST(MannWhitney, ExactTwoSidedPValues) {
  EXPECT_NEAR(mann_whitney_p({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}), 2.0 / 252, 1e-12);  // apart: the smallest
  EXPECT_NEAR(mann_whitney_p({6, 7, 8, 9, 10}, {1, 2, 3, 4, 5}), 2.0 / 252, 1e-12);  // either way round
  EXPECT_NEAR(mann_whitney_p({1, 2, 3}, {4, 5, 6}), 2.0 / 20, 1e-12);                // 3 and 3: never below 0.1
  // U = 2 (7 above 5 and 6): the orders with U <= 2 are 1 + 1 + 2 of 252.
  EXPECT_NEAR(mann_whitney_p({1, 2, 3, 4, 7}, {5, 6, 8, 9, 10}), 2.0 * 4 / 252, 1e-12);
  // A tie counts half: U = 0.5 of 2 x 2, whose orders give U = 0, 1, 2, 2, 3, 4.
  EXPECT_NEAR(mann_whitney_p({1, 2}, {2, 3}), 2.0 / 6, 1e-12);
  EXPECT_DOUBLE_EQ(mann_whitney_p({1, 2, 3}, {1, 2, 3}), 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_p({}, {1, 2}), 1.0);
  // Beyond kExactUPairs pairs, the normal approximation: 25 and 25 apart, z = 6.05.
  std::vector<double> low, high;
  for (int k = 0; k < 25; ++k) low.push_back(k), high.push_back(25 + k);
  EXPECT_LT(mann_whitney_p(low, high), 1e-8);
  EXPECT_GT(mann_whitney_p(low, high), 1e-10);
}

// Five repeats a side, one of A's slow (the e2e diff on libomp 19: one run of five 60 ms slower):
// the ranges together (0.166 + 0.004 s) exceed the -55 ms change, and every B repeat is below every
// A repeat: the U test (p = 2/252) finds it significant, for the region and for the program.
TEST(DiffReports, OneSlowRepeatOfFiveDoesNotHideAChange) {
  Report a = scale({0.180, 0.346}, 5), b = scale({0.124, 0.128}, 5);
  const std::vector<double> before = {0.176, 0.174, 0.178, 0.175, 0.340}, after = {0.120, 0.121, 0.119, 0.122, 0.123};
  for (Report* r : {&a, &b})
    for (report::RunRecord& run : r->runs)
      if (run.threads == 2) run.wall_s = (r == &a ? before : after)[static_cast<size_t>(run.repeat)] + 0.006;
  a.regions.push_back(region("r1", "main.c", 24, "main", {{2, 0.176}}, {{2, 0.166}}));
  b.regions.push_back(region("r1", "main.c", 21, "main", {{2, 0.121}}, {{2, 0.004}}));
  a.regions[0].repeat_times_s[2] = before;
  b.regions[0].repeat_times_s[2] = after;
  const report::ReportDiff d = diff_reports(a, "a", b, "b");
  const report::RegionDiff& loop = d.regions[0];
  EXPECT_NEAR(loop.change_s, -0.055, 1e-12);
  EXPECT_NEAR(*loop.spread_s, 0.170, 1e-12);  // the ranges' rule would not judge it significant
  ASSERT_TRUE(loop.p_value.has_value());
  EXPECT_NEAR(*loop.p_value, 2.0 / 252, 1e-12);
  EXPECT_TRUE(loop.significant);
  ASSERT_TRUE(d.program.p_value.has_value());
  EXPECT_NEAR(*d.program.p_value, 2.0 / 252, 1e-12);
  EXPECT_TRUE(d.program.significant);
}

// Interleaved repeats of one time: the U test finds nothing (p = 1 for two orders alike; here
// 0.69), where their medians differ by 5 ms.
TEST(DiffReports, RepeatsThatInterleaveAreNotSignificant) {
  Report a = scale({0.17, 0.21}, 5), b = scale({0.175, 0.215}, 5);
  a.regions.push_back(region("r1", "main.c", 24, "main", {{2, 0.19}}, {{2, 0.04}}));
  b.regions.push_back(region("r1", "main.c", 24, "main", {{2, 0.195}}, {{2, 0.04}}));
  a.regions[0].repeat_times_s[2] = {0.17, 0.18, 0.19, 0.20, 0.21};
  b.regions[0].repeat_times_s[2] = {0.175, 0.185, 0.195, 0.205, 0.215};
  const report::ReportDiff d = diff_reports(a, "a", b, "b");
  ASSERT_TRUE(d.regions[0].p_value.has_value());
  EXPECT_GT(*d.regions[0].p_value, 0.5);
  EXPECT_FALSE(d.regions[0].significant);
}

// Three repeats a side can never reach p < 0.05 (2/20 at best): those keep the ranges' rule, as
// do reports written before the repeat times were kept.
TEST(DiffReports, ThreeRepeatsASideKeepTheRangesRule) {
  Report a = scale({0.38, 0.42}, 3), b = scale({0.28, 0.30}, 3);
  a.regions.push_back(region("r1", "main.c", 24, "main", {{2, 0.30}}, {{2, 0.02}}));
  b.regions.push_back(region("r1", "main.c", 24, "main", {{2, 0.18}}, {{2, 0.03}}));
  a.regions[0].repeat_times_s[2] = {0.29, 0.30, 0.31};
  b.regions[0].repeat_times_s[2] = {0.17, 0.18, 0.20};
  const report::ReportDiff d = diff_reports(a, "a", b, "b");
  EXPECT_FALSE(d.regions[0].p_value.has_value());
  EXPECT_TRUE(d.regions[0].significant);  // -0.12 s beyond 0.05 s of ranges
  EXPECT_FALSE(d.program.p_value.has_value());
}

}  // namespace
}  // namespace ompscope::analysis
