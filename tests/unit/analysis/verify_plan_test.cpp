// plan_verify and judge_verify (docs/verify.md) on hand-built reports and times.
#include "analysis/verify_plan.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace ompscope::analysis {
namespace {

using report::Problem;
using report::RegionReport;
using report::Report;

Report report_with(const std::string& runtime, std::vector<Problem> problems) {
  Report r;
  r.command = {"./app", "-n", "{threads}"};
  r.runtime = runtime;
  r.program_time_s = {{1, 2.0}, {2, 1.5}};
  RegionReport region;
  region.id = "r1";
  region.file = "app.c";
  region.line = 12;
  region.function = "main";
  region.problems = std::move(problems);
  r.regions.push_back(region);
  return r;
}

TEST(PlanVerify, EachCauseGetsTheSettingOfItsRuntimeOrIsACodeChange) {
  const Problem lock{"lock_overhead", 2, 0.4, 0.4, "h", {}};
  const Problem contention{"lock_contention", 2, 0.1, 0.1, "h", {}};
  const Problem fork{"fork_join_overhead", 2, 0.05, 0.05, "h", {}};
  const Problem barrier{"barrier_overhead", 2, 0.02, 0.02, "h", {}};
  // Page faults 0.03 s of a 0.2 s inflation (15%): a malloc setting; 0.001 s of it: none.
  const Problem faults{"work_inflation", 2, 0.2, 0.1, "h", {{"page_faults", 1e5}, {"page_fault_s", 0.03}}};
  const Problem imbalance{"load_imbalance", 2, 0.3, 0.3, "schedule(dynamic, 4)", {}};
  const Problem elsewhere{"load_imbalance", 1, 0.9, 0.9, "h", {}};  // another count: not verified
  const auto llvm = plan_verify(report_with("LLVM OMP version: 5.0", {lock, contention, fork, barrier, faults, imbalance, elsewhere}), "out");
  EXPECT_EQ(llvm.threads, 2);
  ASSERT_EQ(llvm.findings.size(), 6u);
  // Largest predicted gain first; one setting per name, shared by the causes it addresses.
  EXPECT_EQ(llvm.findings[0].kind.name(), "lock_overhead");
  EXPECT_EQ(llvm.findings[1].kind.name(), "load_imbalance");
  EXPECT_EQ(llvm.findings[1].setting, -1);  // a code change
  ASSERT_EQ(llvm.settings.size(), 3u);
  EXPECT_EQ(llvm.settings[llvm.findings[0].setting].name, "KMP_LOCK_KIND=tas");
  EXPECT_EQ(llvm.settings[llvm.findings[0].setting].env.at("KMP_LOCK_KIND"), "tas");
  int blocktime = 0, lock_kind = 0, malloc = 0;
  for (const report::VerifyFinding& f : llvm.findings) {
    if (f.setting < 0) continue;
    const std::string& name = llvm.settings[f.setting].name;
    blocktime += name == "KMP_BLOCKTIME=infinite";
    lock_kind += name == "KMP_LOCK_KIND=tas";
    malloc += name.rfind("GLIBC_TUNABLES=glibc.malloc.mmap_max=0", 0) == 0;
  }
  EXPECT_EQ(blocktime, 2);  // fork/join and barrier
  EXPECT_EQ(lock_kind, 2);  // overhead and contention
  EXPECT_EQ(malloc, 1);
  // GNU libgomp: its wait policy; no lock kind to choose (a code change).
  const auto gnu = plan_verify(report_with("GNU libgomp 12 (interposed)", {lock, fork}), "out");
  ASSERT_EQ(gnu.settings.size(), 1u);
  EXPECT_EQ(gnu.settings[0].name, "OMP_WAIT_POLICY=active");
  EXPECT_EQ(gnu.findings[0].setting, -1);
  // Faults that are a sliver of the inflation: no malloc setting.
  const Problem few{"work_inflation", 2, 0.2, 0.1, "h", {{"page_faults", 300}, {"page_fault_s", 0.001}}};
  EXPECT_TRUE(plan_verify(report_with("LLVM", {few}), "out").settings.empty());
  // The kernel's cost at every count (page_faults) gets the malloc setting, on either runtime,
  // one setting shared with an inflation whose faults grew.
  const Problem fresh{"page_faults", 2, 0.8, 0.4, "h", {{"page_faults", 4e5}}};
  for (const char* runtime : {"LLVM OMP version: 5.0", "GNU libgomp 12 (interposed)"}) {
    const auto v = plan_verify(report_with(runtime, {fresh, faults}), "out");
    ASSERT_EQ(v.settings.size(), 1u) << runtime;
    EXPECT_EQ(v.settings[0].name.rfind("GLIBC_TUNABLES=glibc.malloc.mmap_max=0", 0), 0u) << runtime;
    EXPECT_EQ(v.findings[0].kind.name(), "page_faults");
    EXPECT_EQ(v.findings[0].setting, 0);
    EXPECT_EQ(v.findings[1].setting, 0);
  }
  EXPECT_THROW(plan_verify(report_with("LLVM", {}), "out", 4), Error);
}

TEST(JudgeVerify, TheGainIsTheMediansDifferenceAndIsSignificantBeyondBothRanges) {
  report::VerifyResult r = plan_verify(report_with("LLVM", {{"lock_overhead", 2, 0.4, 0.4, "h", {}},
                                                            {"fork_join_overhead", 2, 0.05, 0.05, "h", {}}}),
                                       "out");
  ASSERT_EQ(r.settings.size(), 2u);
  r.baseline_wall_s = {1.0, 1.1, 1.2};           // median 1.1, range 0.2
  r.settings[0].wall_s = {0.7, 0.75, 0.8};       // lock kind: median 0.75, range 0.1
  r.settings[1].wall_s = {1.05, 1.15, 1.25};     // block time: median 1.15, range 0.2
  judge_verify(r);
  ASSERT_EQ(r.gains.size(), 2u);
  EXPECT_NEAR(r.gains[0].measured_gain_s, 0.35, 1e-12);
  EXPECT_NEAR(r.gains[0].spread_s, 0.3, 1e-12);
  EXPECT_TRUE(r.gains[0].significant);
  EXPECT_DOUBLE_EQ(r.gains[0].predicted_gain_s, 0.4);
  EXPECT_NEAR(r.gains[1].measured_gain_s, -0.05, 1e-12);
  EXPECT_FALSE(r.gains[1].significant);
  // One run each: nothing is significant.
  r.baseline_wall_s = {1.0};
  r.settings[0].wall_s = {0.5};
  judge_verify(r);
  EXPECT_FALSE(r.gains[0].significant);
  EXPECT_FALSE(r.gains[0].p_value.has_value());  // 3 repeats and fewer: the ranges' rule
}

// Five interleaved pairs, one baseline run slow (lock_per_item in the e2e: +532 ms beside ranges of
// 565 ms together): every run with the setting is faster than every run without, so the U test
// (p = 2/252) finds the gain that the ranges' rule did not; a setting whose runs interleave with
// the baseline's is not significant.
TEST(JudgeVerify, WithFiveRepeatsTheUTestJudgesAndOneSlowRunDoesNotHideAGain) {
  report::VerifyResult r = plan_verify(report_with("LLVM", {{"lock_overhead", 2, 0.4, 0.4, "h", {}},
                                                            {"fork_join_overhead", 2, 0.05, 0.05, "h", {}}}),
                                       "out");
  ASSERT_EQ(r.settings.size(), 2u);
  r.baseline_wall_s = {1.50, 1.52, 1.55, 1.51, 2.05};
  r.settings[0].wall_s = {1.00, 0.98, 1.45, 0.99, 1.01};  // median 1.00, range 0.47
  r.settings[1].wall_s = {1.49, 1.53, 1.56, 1.50, 1.54};  // interleaved with the baseline
  judge_verify(r);
  EXPECT_NEAR(r.gains[0].measured_gain_s, 0.52, 1e-12);
  EXPECT_NEAR(r.gains[0].spread_s, 0.55 + 0.47, 1e-12);  // the ranges' rule: not significant
  ASSERT_TRUE(r.gains[0].p_value.has_value());
  EXPECT_NEAR(*r.gains[0].p_value, 2.0 / 252, 1e-12);
  EXPECT_TRUE(r.gains[0].significant);
  ASSERT_TRUE(r.gains[1].p_value.has_value());
  EXPECT_GT(*r.gains[1].p_value, 0.5);
  EXPECT_FALSE(r.gains[1].significant);
}

}  // namespace
}  // namespace ompscope::analysis
