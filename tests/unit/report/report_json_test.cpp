// report.json: the typed report written and read back unchanged, its schema version, and the
// one-line errors of a reader given another version, another tool's file or a mistyped field.
#include "report/report_json.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace ompscope::report {
namespace {

using json = nlohmann::ordered_json;

std::string error_of(const json& doc) {
  try {
    report_from_json(doc, "dir/report.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ReportJson, CarriesTheSchemaVersionBesideTheToolsVersion) {
  const json doc = to_json(Report{});
  EXPECT_EQ(doc["tool"], "ompscope");
  EXPECT_EQ(doc["schema_version"], kSchemaVersion);
  EXPECT_TRUE(doc["version"].is_string());
}

TEST(ReportJson, ANewerSchemaIsRefusedWithOneLineSayingWhichItReads) {
  json doc = to_json(Report{});
  doc["schema_version"] = kSchemaVersion + 1;
  const std::string error = error_of(doc);
  EXPECT_NE(error.find("dir/report.json: report schema version 4 is newer"), std::string::npos) << error;
  EXPECT_NE(error.find("versions 1 to 3"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST(ReportJson, AReportWithoutSchemaVersionIsVersionOneAndGetsWhatItLacked) {
  // Version 1 stored neither speedups, nor the counts the summary lists, nor typed notes.
  const json doc = json::parse(R"({"tool": "ompscope", "version": "0.1.0", "threads": [1, 2, 4], "cores": 2,
    "program": {"time_s": {"1": 1.0, "2": 0.8, "4": 0.5}},
    "regions": [{"id": "r1", "kind": "parallel", "time_s": {"1": 0.8, "2": 0.5, "4": 0.4}}],
    "notes": ["a sentence"]})");
  const Report report = report_from_json(doc);
  EXPECT_EQ(report.program_speedup, (std::map<int, double>{{1, 1.0}, {2, 1.25}, {4, 2.0}}));
  EXPECT_EQ(report.regions[0].speedup, (std::map<int, double>{{1, 1.0}, {2, 1.6}, {4, 2.0}}));
  EXPECT_EQ(report.summary_threads, (std::vector<int>{2, 4}));  // 4 is oversubscribed on 2 cores
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_EQ(report.notes[0].text, "a sentence");
}

TEST(ReportJson, RefusesAnotherToolsFileAndMistypedFieldsInOneLine) {
  EXPECT_NE(error_of(json::parse(R"({"tool": "other"})")).find("not an ompscope report"), std::string::npos);
  EXPECT_NE(error_of(json::parse("[1, 2]")).find("not an ompscope report"), std::string::npos);
  EXPECT_NE(error_of(json::parse(R"({"tool": "ompscope"})")).find("no regions list"), std::string::npos);
  EXPECT_NE(error_of(json::parse(R"({"tool": "ompscope", "regions": [{"time_s": {"two": 1.0}}]})"))
                .find("\"two\" is not a thread count"),
            std::string::npos);
  EXPECT_NE(error_of(json::parse(R"({"tool": "ompscope", "regions": [{"problems": [{"kind": "bad_luck"}]}]})"))
                .find("a cause this version does not know: \"bad_luck\""),
            std::string::npos);
  EXPECT_NE(error_of(json::parse(R"({"tool": "ompscope", "regions": [{"kind": "sequential"}]})"))
                .find("a region's \"kind\" is \"sequential\": neither \"parallel\" nor \"serial\""),
            std::string::npos);
  EXPECT_NE(error_of(json::parse(R"({"tool": "ompscope", "cores": "two", "regions": []})"))
                .find("\"cores\" has the wrong type (string)"),
            std::string::npos);
}

// Every field the writer writes, read back to the same value.
TEST(ReportJson, SchemaTwoReadsAsAReportOfOneProcess) {
  json doc = to_json(Report{});
  doc["schema_version"] = 2;
  const Report r = report_from_json(doc);
  EXPECT_TRUE(r.ranks.empty());
  EXPECT_EQ(r.merged_from_rank, -1);
}

TEST(ReportJson, AMergedMpiReportKeepsItsRanks) {
  Report r;
  r.threads = {2};
  r.program_time_s = {{2, 0.4}};
  r.ranks = {{0, {{2, 0.4}}, {{2, 0.1}}, {{2, 0.01}}, {{2, 0.29}}}, {1, {{2, 0.41}}, {{2, 0.2}}, {{2, 0.01}}, {{2, 0.2}}}};
  r.rank_imbalance_s = {{2, 0.05}};
  r.merged_from_rank = 1;
  RegionReport g;
  g.id = "r1";
  g.time_s = {{2, 0.2}};
  g.ranks = {{0, {{2, 0.1}}, {}}, {1, {{2, 0.2}}, {Problem{"load_imbalance", 2, 0.03, 0.03, "h", {}}}}};
  g.rank_imbalance_s = {{2, 0.05}};
  r.regions.push_back(g);
  const json doc = to_json(r);
  EXPECT_EQ(doc["schema_version"], 3);
  EXPECT_EQ(doc["program"]["ranks"][1]["mpi_s"]["2"], 0.2);
  EXPECT_EQ(doc["regions"][0]["ranks"][1]["problems"][0]["kind"], "load_imbalance");
  const Report back = report_from_json(json::parse(doc.dump()));
  EXPECT_EQ(to_json(back).dump(), doc.dump());
  EXPECT_EQ(back.merged_from_rank, 1);
  ASSERT_EQ(back.regions[0].ranks.size(), 2u);
  EXPECT_EQ(back.regions[0].ranks[1].problems.size(), 1u);
  EXPECT_FALSE(to_json(Report{})["program"].contains("ranks")) << "a report of one process has no ranks";
}

TEST(ReportJson, AReportOfAProgramsProcessesKeepsThemWithPidAndCommand) {
  Report r;
  r.threads = {2};
  r.program_time_s = {{2, 0.4}};
  r.ranks = {{0, {{2, 0.4}}, {{2, 0.1}}, {{2, 0.3}}, {{2, 0.0}}, 100, "./app"},
             {1, {{2, 0.9}}, {{2, 0.89}}, {{2, 0.01}}, {{2, 0.0}}, 101, "./app child 0"}};
  r.merged_from_rank = 0;
  r.ranks_are_processes = true;
  const json doc = to_json(r);
  EXPECT_EQ(doc["program"]["ranks_are"], "processes");
  EXPECT_EQ(doc["program"]["ranks"][1]["pid"], 101);
  EXPECT_EQ(doc["program"]["ranks"][1]["command"], "./app child 0");
  const Report back = report_from_json(json::parse(doc.dump()));
  EXPECT_EQ(to_json(back).dump(), doc.dump());
  EXPECT_TRUE(back.ranks_are_processes);
  EXPECT_EQ(back.ranks[0].pid, 100);
  r.ranks_are_processes = false;
  EXPECT_FALSE(to_json(r)["program"].contains("ranks_are")) << "an MPI job's merged report says nothing";
}

TEST(ReportJson, WritingThenReadingGivesTheSameReport) {
  Report r;
  r.version = "9.9.9";
  r.command = {"./app", "an arg"};
  r.threads = {1, 2};
  r.cores = 2;
  r.runtime = "LLVM OMP";
  r.runs.push_back({2, 1, 0.5, 3, 0, "exit 3", true, false, 1200, 7, "runs/t2-r1"});
  r.runs.push_back({2, 0, 0.4, 0, 0, "ok", true, true, 900, 0, "runs/run-r0/rank-1", 1});  // an MPI rank
  r.runs[0].cpu_quota = 1.5;  // a container's CPU limit
  r.program_time_s = {{1, 1.0}, {2, 0.6}};
  r.program_speedup = {{1, 1.0}, {2, 1.0 / 0.6}};
  r.program_efficiency = {{1, 1.0}, {2, 1.0 / 1.2}};
  r.serial_s = {{1, 0.1}, {2, 0.1}};
  r.amdahl_speedup_bound = 10;
  r.program_threads[2] = {{.thread = 1, .work_s = 0.4, .outside_s = 0.1}};
  r.program_model = ScalingModel{"f", 0.2, {{0.8, -1, "-1", 0}}, 0.99, 1.5, Growth::linear, true, 3.0, true, {4},
                                 {{1, 1}, {2, 1.6}}};
  RegionReport g;
  g.id = "r1";
  g.file = "a.c";
  g.line = 7;
  g.function = "f(int)";
  g.module = "app";
  g.module_offset = 0x1234;
  g.nested = true;
  g.instances = 5;
  g.instances_at = {{1, 5}, {2, 5}};
  g.recorded_instances_at = {{2, 3}};
  g.time_s = {{1, 0.5}, {2, 0.3}};
  g.speedup = {{1, 1}, {2, 0.5 / 0.3}};
  g.efficiency = {{1, 1}, {2, 0.5 / 0.6}};
  g.time_lost_s = {{1, 0}, {2, 0.05}};
  g.per_thread[2] = {{.thread = 0, .work_s = 0.2, .task_s = 0.1, .barrier_wait_s = 0.05, .lock_wait_s = 0.01,
                      .fork_join_s = 0.02, .tasks = 12}};
  g.tasks[2] = TaskSummary{100, 50, 3, 1e-5, 1e-6, 2e-6, 0.3, 0.1, 3, 2, 1.6, 0.01, 0.02, 0.03};
  g.problems.push_back({"lock_contention", 2, 0.04, 0.02, "split it", {{"zeta", 1}, {"alpha", 2}}});
  g.task_replay = RegionReport::TaskReplay{.from_threads = 1, .per_task_s = 2e-7, .predicted_time_s = {{1, 0.5}, {2, 0.28}},
                                           .body_growth = 1.1, .body_growth_at = 2, .instances = 3000,
                                           .replayed_instances = 1000};
  r.regions.push_back(g);
  r.summary_threads = {2};
  r.notes.push_back({"sampled_instances", "adaptive sampling", {"r1: 3 of 5"}});

  const Report back = report_from_json(json::parse(to_json(r).dump(2)));
  EXPECT_EQ(to_json(back).dump(), to_json(r).dump());
  ASSERT_EQ(back.regions.size(), 1u);
  EXPECT_EQ(back.regions[0].problems[0].details[0].first, "zeta") << "details keep their order";
  ASSERT_TRUE(back.regions[0].task_replay.has_value());
  EXPECT_EQ(back.regions[0].task_replay->instances, 3000u);
  EXPECT_EQ(back.regions[0].task_replay->replayed_instances, 1000u);
  EXPECT_EQ(back.runs[0].log, "runs/t2-r1");
  EXPECT_EQ(back.runs[0].rank, -1);
  EXPECT_FALSE(to_json(r)["runs"][0].contains("rank")) << "a run that is no MPI rank has no rank";
  EXPECT_EQ(back.runs[1].rank, 1);
  EXPECT_EQ(back.runs[0].cpu_quota, 1.5);
  EXPECT_EQ(back.runs[1].cpu_quota, 0);
  EXPECT_EQ(back.regions[0].tasks.at(2).creation_s, 2e-6);
  EXPECT_EQ(back.program_model->speedup_curve.size(), 2u);
}

}  // namespace
}  // namespace ompscope::report
