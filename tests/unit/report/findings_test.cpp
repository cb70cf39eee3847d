// The report's opening list: which causes it names, in which order, where, with which action and
// how sure; built the same for any cause of the table; written to report.json and read back, and
// rebuilt for a report written before the list existed.
#include "report/findings.h"

#include <gtest/gtest.h>

#include "report/report_json.h"

namespace ompscope::report {
namespace {

// Two counts, 2 of them with a core per thread; three repeats at 2 threads.
Report two_count_report() {
  Report r;
  r.threads = {1, 2};
  r.cores = 2;
  for (int repeat = 0; repeat < 3; ++repeat)
    for (int t : r.threads) r.runs.push_back({t, repeat, 1.0 / t, 0, 0, "ok", true, true, 100, 0, ""});
  r.program_time_s = {{1, 1.0}, {2, 1.0}};
  r.summary_threads = summary_counts(r);
  return r;
}

RegionReport region(const std::string& id, const std::string& file, int line, std::vector<Problem> problems) {
  RegionReport g;
  g.id = id;
  g.file = file;
  g.line = line;
  g.function = "main";
  g.time_s = {{1, 0.5}, {2, 0.5}};
  g.problems = std::move(problems);
  return g;
}

TEST(Findings, RankCausesOfAllRegionsByGainAtTheRankedCountAndKeepFive) {
  Report r = two_count_report();
  r.regions.push_back(region("r1", "a.c", 10,
                             {{"load_imbalance", 2, 0.2, 0.2, "x: try schedule(dynamic, 1) on it", {}},
                              {"fork_join_overhead", 2, 0.03, 0.03, "y: open one parallel region", {}},
                              {"fork_join_overhead", 1, 0.9, 0.9, "at 1 thread: not where regions are ranked", {}}}));
  r.regions.push_back(region("r2", "b.c", 20,
                             {{"lock_contention", 2, 0.5, 0.3, "z: split the lock", {}},
                              {"barrier_overhead", 2, 0.05, 0.05, "w: drop barriers", {}},
                              {"work_inflation", 2, 0.08, 0.04, "v: pad per-thread data", {}},
                              {"thread_creation", 2, 0.02, 0.02, "u: a fixed cost", {}},
                              {"lock_overhead", 2, 0.005, 0.005, "under 1% of the run: left out", {}}}));
  const std::vector<Finding> f = build_findings(r);
  ASSERT_EQ(f.size(), kMaxFindings);
  EXPECT_EQ(f[0].kind, "lock_contention");
  EXPECT_EQ(f[0].region, "r2");
  EXPECT_EQ(f[1].kind, "load_imbalance");
  EXPECT_EQ(f[1].file, "a.c");
  EXPECT_EQ(f[1].line, 10);
  EXPECT_EQ(f[2].kind, "barrier_overhead");
  EXPECT_EQ(f[3].kind, "work_inflation");
  EXPECT_EQ(f[4].kind, "fork_join_overhead");
  for (const Finding& finding : f) EXPECT_EQ(finding.threads, 2);
  EXPECT_DOUBLE_EQ(f[0].run_share, 0.3);
  EXPECT_EQ(f[0].action, "split the lock");
  EXPECT_EQ(f[0].repeats, 3);
}

TEST(Findings, AreRankedAtTheLargestCountWithACorePerThreadWhenTheLargestIsOversubscribed) {
  Report r = two_count_report();
  r.threads = {1, 2, 4};
  r.program_time_s[4] = 2.0;
  r.summary_threads = summary_counts(r);
  ASSERT_EQ(ranked_count(r), 2);
  r.regions.push_back(region("r1", "a.c", 10,
                             {{"fork_join_overhead", 4, 1.5, 1.5, "time-sharing at 4 threads on 2 cores", {}},
                              {"load_imbalance", 2, 0.2, 0.2, "x: try schedule(dynamic, 1) on it", {}}}));
  const std::vector<Finding> f = build_findings(r);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, "load_imbalance");
}

TEST(Findings, AreBuiltForEveryCauseOfTheTableWithoutNamingAny) {
  for (const Cause& cause : kCauses) {
    Report r = two_count_report();
    r.regions.push_back(
        region("r1", "a.c", 10, {{*CauseKind::from_name(cause.kind), 2, 0.2, 0.1, "why: reduce it", {}}}));
    const std::vector<Finding> f = build_findings(r);
    ASSERT_EQ(f.size(), 1u) << cause.kind;
    EXPECT_EQ(f[0].kind, cause.kind);
    EXPECT_EQ(f[0].action, "reduce it") << cause.kind;
    r.findings = f;
    const Report back = report_from_json(to_json(r), "report.json");
    ASSERT_EQ(back.findings.size(), 1u) << cause.kind;
    EXPECT_EQ(back.findings[0].kind, cause.kind);
  }
}

TEST(Findings, SitAtTheConstructThatCarriesMostOfTheCause) {
  Report r = two_count_report();
  RegionReport g = region("r1", "a.c", 10, {{"load_imbalance", 2, 0.2, 0.2, "x: try guided", {}}});
  ConstructReport small{ConstructKind::kLoop, "a.c", 12, "main", 10, {{2, 0.1}}, {{"load_imbalance", 2, 0.05, 0.05, "", {}}}, {}};
  ConstructReport big{ConstructKind::kLoop, "a.c", 17, "main", 10, {{2, 0.3}}, {{"load_imbalance", 2, 0.15, 0.15, "", {}}}, {}};
  ConstructReport outer{ConstructKind::kSingle, "a.c", 11, "main", 1, {{2, 0.4}}, {}, {small, big}};
  g.constructs = {outer};
  r.regions.push_back(g);
  const std::vector<Finding> f = build_findings(r);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].line, 17);
  EXPECT_DOUBLE_EQ(f[0].gain_s, 0.2) << "the gain is the region's, all constructs together";
}

TEST(Findings, SayHowSureTheGainIsBesideTheSpreadOfTheRepeats) {
  EXPECT_EQ(certainty_of(0.31, 0.1, 3), "firm");
  EXPECT_EQ(certainty_of(0.29, 0.1, 3), "likely");
  EXPECT_EQ(certainty_of(0.1, 0.1, 3), "likely");
  EXPECT_EQ(certainty_of(0.09, 0.1, 3), "within_noise");
  EXPECT_EQ(certainty_of(0.3, 0.0, 1), "one_run");
  Report r = two_count_report();
  RegionReport g = region("r1", "a.c", 10, {{"load_imbalance", 2, 0.2, 0.2, "x: try guided", {}}});
  g.time_spread_s = {{2, 0.1}};
  r.regions.push_back(g);
  const std::vector<Finding> f = build_findings(r);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_DOUBLE_EQ(f[0].spread_s, 0.1);
  EXPECT_EQ(f[0].certainty, "likely");
}

TEST(FirstAction, IsTheFirstClauseThatSaysWhatToDoWithoutItsRemarks) {
  EXPECT_EQ(first_action("the loop at a.c:24: iterations of the loop differ in cost (the threads' CPU time in it "
                         "differs): try schedule(dynamic, 1) (400 iterations of 246 µs each; a chunk's dispatch costs "
                         "~300 ns) on it (gain at the rate the threads ran: 100% of a CPU)"),
            "try schedule(dynamic, 1) on it");
  EXPECT_EQ(first_action("the region starts 10 times at 8.35 ms per start and end (creating the team, 3.98 ms, is "
                         "apart): open one parallel region around the enclosing loop (parallel outside, omp for "
                         "inside), or give each instance more work"),
            "open one parallel region around the enclosing loop, or give each instance more work");
  EXPECT_EQ(first_action("3% of the run is serial code: Amdahl's law caps the speedup at 35.8x; parallelise the "
                         "serial phase (or overlap it with parallel work)"),
            "parallelise the serial phase");
  // No clause says what to do: what follows the first sentence's last colon.
  EXPECT_EQ(first_action("creating the team took 16 ms, once per run: a fixed cost of running with threads. It weighs "
                         "only in short runs: try nothing"),
            "a fixed cost of running with threads");
  // A list after the colon ("A: x1; y: x2"): its first item, the largest.
  EXPECT_EQ(first_action("task bodies take longer at 2 threads than at 1 (1.59 ms more thread time): a.c:246 (7809 "
                         "tasks): 5.34 µs per task at 2 threads against 5.26 µs at 1 (+2%); a.c:229 (1932 tasks): "
                         "3.54 µs per task at 2 threads against 3.53 µs at 1 (+0%). 1.02 ms slower on the CPU"),
            "5.34 µs per task at 2 threads against 5.26 µs at 1");
  // An action after the list's "; " is still the first action.
  EXPECT_EQ(first_action("the team's CPU time outside any worksharing construct grew x1.96 from 1 thread to 2: a "
                         "loop every thread runs whole, or an SPMD region whose work does not shrink with the team; "
                         "share the loop with #pragma omp for, or divide the work by the team size "
                         "(omp_get_num_threads())"),
            "share the loop with #pragma omp for, or divide the work by the team size");
  EXPECT_EQ(first_action("reduce it"), "reduce it");
  EXPECT_EQ(first_action(""), "");
}

TEST(FindingsJson, AreWrittenAndReadBackWithTheirSource) {
  Report r = two_count_report();
  Finding f{"load_imbalance"};
  f.region = "r1";
  f.threads = 2;
  f.file = "/src/a.c";
  f.line = 24;
  f.function = "main";
  f.gain_s = 0.2;
  f.time_s = 0.25;
  f.run_share = 0.2;
  f.action = "try schedule(dynamic, 1) on it";
  f.hint = "x: try schedule(dynamic, 1) on it";
  f.repeats = 3;
  f.spread_s = 0.01;
  f.certainty = "firm";
  f.source = SourceExcerpt{"/src/a.c", 24, 23, {"  {", "#pragma omp parallel for", "  for (;;)"}, ""};
  r.findings.push_back(f);
  Finding missing{"serial_code"};
  missing.source = SourceExcerpt{"/gone.c", 3, 0, {}, "source not found: /gone.c"};
  r.findings.push_back(missing);
  const Report back = report_from_json(nlohmann::ordered_json::parse(to_json(r).dump()), "report.json");
  ASSERT_EQ(back.findings.size(), 2u);
  const Finding& b = back.findings[0];
  EXPECT_EQ(b.kind, "load_imbalance");
  EXPECT_EQ(b.file, "/src/a.c");
  EXPECT_EQ(b.line, 24);
  EXPECT_EQ(b.function, "main");
  EXPECT_DOUBLE_EQ(b.gain_s, 0.2);
  EXPECT_DOUBLE_EQ(b.spread_s, 0.01);
  EXPECT_EQ(b.certainty, "firm");
  EXPECT_EQ(b.action, f.action);
  ASSERT_TRUE(b.source);
  EXPECT_EQ(b.source->first_line, 23);
  EXPECT_EQ(b.source->lines, f.source->lines);
  ASSERT_TRUE(back.findings[1].source);
  EXPECT_FALSE(back.findings[1].source->found());
  EXPECT_EQ(back.findings[1].source->missing, "source not found: /gone.c");
}

TEST(FindingsJson, AReportWrittenBeforeTheListGetsItBuiltFromItsOwnFigures) {
  Report r = two_count_report();
  RegionReport g = region("r1", "a.c", 10, {{"load_imbalance", 2, 0.2, 0.2, "x: try guided", {}}});
  g.time_spread_s = {{2, 0.01}};
  ConstructReport loop{ConstructKind::kLoop, "a.c", 12, "main", 10, {{2, 0.4}}, {{"load_imbalance", 2, 0.2, 0.2, "", {}}}, {}};
  loop.source = SourceExcerpt{"a.c", 12, 12, {"#pragma omp for"}, ""};
  g.constructs = {loop};
  r.regions.push_back(g);
  nlohmann::ordered_json doc = to_json(r);
  EXPECT_EQ(doc["regions"][0]["time_spread_s"]["2"], 0.01);
  EXPECT_EQ(doc["regions"][0]["constructs"][0]["source"]["lines"][0], "#pragma omp for");
  doc.erase("findings");
  const Report back = report_from_json(doc, "report.json");
  ASSERT_EQ(back.findings.size(), 1u);
  EXPECT_EQ(back.findings[0].line, 12);
  EXPECT_EQ(back.findings[0].action, "try guided");
  EXPECT_EQ(back.findings[0].certainty, "firm");
  ASSERT_TRUE(back.regions[0].constructs[0].source);
  EXPECT_EQ(back.regions[0].constructs[0].source->lines[0], "#pragma omp for");
}

}  // namespace
}  // namespace ompscope::report
