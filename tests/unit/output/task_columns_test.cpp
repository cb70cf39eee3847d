// A tasking region's task graph in every writer: report.json's per-region "tasks" object, and
// how the text, HTML and CSV reports show it beside the measured speedup.
#include <gtest/gtest.h>

#include "report/report.h"
#include "output/csv_report.h"
#include "output/html_report.h"
#include "report/report_json.h"
#include "json_rendering.h"
#include "output/text_report.h"

namespace ompscope::output {
namespace {

using nlohmann::json;

bool contains(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

report::Report tasking_report() {
  report::Report report;
  report.command = {"./tasks"};
  report.threads = {1, 2};
  report::RegionReport r;
  r.id = "r1";
  r.file = "tasks.c";
  r.line = 12;
  r.function = "main";
  r.instances = 1;
  r.time_s = {{1, 0.4}, {2, 0.3}};
  r.efficiency = {{1, 1.0}, {2, 0.4 / 0.6}};
  r.time_lost_s = {{1, 0.0}, {2, 0.1}};
  report::TaskSummary s;
  s.tasks = 1000;
  s.mean_body_s = 25e-6;
  s.dispatch_s = 5e-7;
  s.creation_s = 2e-4;
  s.work_s = 0.45;
  s.span_s = 0.4;
  s.parallelism = 1.125;
  s.speedup_bound = 1.125;
  s.measured_speedup = 4.0 / 3;
  s.superlinear = true;  // analysis's verdict on 1.33× against 1.12×
  r.tasks[2] = s;
  s.dispatch_s = 0;   // not measured at 1 thread
  s.creation_s = -1;  // no two creations by one task
  s.speedup_bound = 1;
  s.measured_speedup = 1;
  s.superlinear = false;
  r.tasks[1] = s;
  r.problems.push_back({"task_creation_bottleneck", 2, 0.35, 0.175, "create tasks in parallel", {}});
  report.regions.push_back(r);
  report::RegionReport plain = r;
  plain.id = "r2";
  plain.line = 40;
  plain.tasks.clear();
  plain.problems.clear();
  report.regions.push_back(plain);
  return report;
}

TEST(TaskColumns, ReportJsonHasATasksObjectPerThreadCountOnlyWhereThereAreTasks) {
  const nlohmann::ordered_json doc = report::to_json(tasking_report());
  const json& tasks = doc["regions"][0]["tasks"];
  ASSERT_TRUE(tasks.contains("1") && tasks.contains("2"));
  EXPECT_EQ(tasks["2"]["count"], 1000);
  EXPECT_DOUBLE_EQ(tasks["2"]["parallelism"].get<double>(), 1.125);
  EXPECT_DOUBLE_EQ(tasks["2"]["speedup_bound"].get<double>(), 1.125);
  EXPECT_DOUBLE_EQ(tasks["2"]["measured_speedup"].get<double>(), 4.0 / 3);
  EXPECT_DOUBLE_EQ(tasks["2"]["creation_s"].get<double>(), 2e-4);
  EXPECT_TRUE(tasks["2"]["creation_estimated"].get<bool>());
  EXPECT_TRUE(tasks["1"]["dispatch_s"].is_null());  // not measured is not zero
  EXPECT_TRUE(tasks["1"]["creation_s"].is_null());
  EXPECT_FALSE(doc["regions"][1].contains("tasks"));
}

TEST(TaskColumns, TextReportShowsTheBoundBesideTheMeasuredSpeedupAndLabelsTheEstimate) {
  report::Report report = tasking_report();
  report.regions[0].tasks[2].measured_speedup = 1.1;
  report.regions[0].tasks[2].superlinear = false;
  const std::string text = render_text_report(report);
  EXPECT_TRUE(contains(text, "1000 tasks of 25.0 µs on average; parallelism 1.12 (work 450 ms ÷ span 400 ms) "
                             "bounds the speedup at 1.12×, measured 1.10×"))
      << text;
  EXPECT_TRUE(contains(text, "dispatch 500 ns per task, creation ≤ 200 µs (estimated)")) << text;
  EXPECT_EQ(text.find("explicit tasks"), text.rfind("explicit tasks")) << "only the tasking region has task lines";
}

// The replay's line (docs/tasks.md, "Replay") states the sample it was computed on where it left
// instances out, and nothing of a sample where every instance was replayed.
TEST(TaskColumns, TheReplayLineStatesItsSampleOfInstances) {
  report::Report report = tasking_report();
  report.regions[0].task_replay = report::RegionReport::TaskReplay{
      .from_threads = 1, .per_task_s = 2e-7, .predicted_time_s = {{1, 0.4}, {2, 0.25}, {4, 0.2}}};
  const std::string all = render_text_report(report);
  EXPECT_TRUE(contains(all, "task graph of 1 thread replayed on more threads (200 ns per task start): 2: 250 ms, 4: 200 ms"))
      << all;
  report.regions[0].task_replay->instances = 3000;
  report.regions[0].task_replay->replayed_instances = 3000;
  EXPECT_EQ(render_text_report(report), all);
  report.regions[0].task_replay->replayed_instances = 1000;
  const std::string sampled = render_text_report(report);
  EXPECT_TRUE(contains(sampled, "(200 ns per task start; a sample of 1000 of its 3000 instances, scaled by their time): "
                                "2: 250 ms, 4: 200 ms"))
      << sampled;
}

TEST(TaskColumns, ASpeedupAboveTheBoundIsCalledSuperlinearNotBounded) {
  // The graph allows 1.12× for the work measured at 2 threads; 1.33× means the work shrank.
  const std::string text = render_text_report(tasking_report());
  EXPECT_TRUE(contains(text, "allows a speedup of 1.12× for the same work; measured 1.33×: superlinear")) << text;
  EXPECT_FALSE(contains(text, "bounds the speedup at 1.12×, measured 1.33×")) << text;
}

TEST(TaskColumns, WithoutAMeasuredSpeedupOnlyTheBoundIsShown) {
  report::Report report = tasking_report();
  report.regions[0].tasks.erase(1);
  report.regions[0].tasks[2].measured_speedup = 0;
  report.regions[0].tasks[2].superlinear = false;
  const nlohmann::ordered_json doc = report::to_json(report);
  EXPECT_TRUE(doc["regions"][0]["tasks"]["2"]["measured_speedup"].is_null());
  const std::string text = render_text_report(doc);
  EXPECT_TRUE(contains(text, "bounds the speedup at 1.12×\n")) << text;
  EXPECT_FALSE(contains(text, "measured")) << text;
}

TEST(TaskColumns, HtmlReportHasATaskTableRowPerThreadCount) {
  const std::string html = render_html_report(tasking_report());
  EXPECT_TRUE(contains(html, "<table class=\"tasks\">")) << html;
  EXPECT_TRUE(contains(html, "<tr class=\"task-row\" data-threads=\"1\">"));
  EXPECT_TRUE(contains(html, "<tr class=\"task-row\" data-threads=\"2\">"));
  EXPECT_TRUE(contains(html, "<td class=\"num\">1.12×</td><td class=\"num\">1.33×</td>")) << html;
  EXPECT_TRUE(contains(html, "Creation (est.)"));
}

// Each per-task figure says where it came from: this run (under capture) or `ompscope bench` on
// this machine, read from its cache (docs/tasks.md, "The bench cache").
report::Report with_bench(report::Report report) {
  report.bench = report::BenchCosts{"/usr/lib/libomp.so.5", 2, 124e-9, 70e-9, 0, "2026-11-24T02:00:00Z", "", ""};
  for (auto& [t, s] : report.regions[0].tasks) {
    s.per_task_cost_s = 380e-9;
    s.bench_task_s = report.bench->task_s;
  }
  return report;
}

TEST(TaskColumns, ReportJsonNamesTheSourceOfEachPerTaskFigureAndKeepsTheBenchsFigures) {
  const nlohmann::ordered_json doc = report::to_json(with_bench(tasking_report()));
  const json& at2 = doc["regions"][0]["tasks"]["2"];
  EXPECT_DOUBLE_EQ(at2["per_task_cost_s"].get<double>(), 380e-9);
  EXPECT_EQ(at2["per_task_cost_source"], "measured in this run");
  EXPECT_DOUBLE_EQ(at2["bench_task_s"].get<double>(), 124e-9);
  EXPECT_EQ(at2["bench_task_source"], "ompscope bench on this machine");
  EXPECT_EQ(doc["bench"]["source"], "ompscope bench on this machine");
  EXPECT_EQ(doc["bench"]["runtime_library"], "/usr/lib/libomp.so.5");
  EXPECT_DOUBLE_EQ(doc["bench"]["dispatch_per_chunk_s"].get<double>(), 70e-9);

  const report::Report back = report::report_from_json(json::parse(doc.dump()), "report.json");
  ASSERT_TRUE(back.bench.has_value());
  EXPECT_EQ(back.bench->threads, 2);
  EXPECT_DOUBLE_EQ(back.bench->task_s, 124e-9);
  EXPECT_DOUBLE_EQ(back.regions[0].tasks.at(2).bench_task_s, 124e-9);

  // Without a cache: no bench object, and the bench's figure is null, not 0.
  const nlohmann::ordered_json plain = report::to_json(tasking_report());
  EXPECT_FALSE(plain.contains("bench"));
  EXPECT_TRUE(plain["regions"][0]["tasks"]["2"]["bench_task_s"].is_null());
  EXPECT_FALSE(plain["regions"][0]["tasks"]["2"].contains("bench_task_source"));
}

TEST(TaskColumns, TextAndHtmlSayWhereEachPerTaskFigureCameFrom) {
  const std::string text = render_text_report(with_bench(tasking_report()));
  EXPECT_TRUE(contains(text, "runtime's cost per task 380 ns measured in this run (under capture: the tool's own event "
                             "records included); a task 124 ns by ompscope bench on this machine"))
      << text;
  report::Report uncached = with_bench(tasking_report());
  uncached.bench.reset();
  for (auto& [t, s] : uncached.regions[0].tasks) s.bench_task_s = 0;
  EXPECT_TRUE(contains(render_text_report(uncached),
                       "measured in this run (under capture: the tool's own event records included); no ompscope "
                       "bench cached for this runtime (ompscope bench --calibrate)"));

  const std::string html = render_html_report(with_bench(tasking_report()));
  EXPECT_TRUE(contains(html, ">Per task (this run)</th>")) << html;
  EXPECT_TRUE(contains(html, ">Per task (ompscope bench)</th>")) << html;
  EXPECT_TRUE(contains(html, "<td class=\"num\">380 ns</td><td class=\"num\">124 ns</td>")) << html;
}

TEST(TaskColumns, CsvAppendsTheTaskGraphToTheRegionsRows) {
  const std::string csv = render_csv_report(tasking_report());
  EXPECT_TRUE(contains(csv, ",hint,tasks,task_work_s,task_span_s,task_parallelism,task_speedup_bound\n")) << csv;
  EXPECT_TRUE(contains(csv, "r1,parallel,tasks.c,12,main,2,,0.3,0.666666667,0.1,,,,,1000,0.45,0.4,1.125,1.125\n")) << csv;
  EXPECT_TRUE(contains(csv, ",task_creation_bottleneck,0.35,0.175,create tasks in parallel,1000,0.45,0.4,1.125,1.125\n"))
      << csv;
  EXPECT_TRUE(contains(csv, "r2,parallel,tasks.c,40,main,2,,0.3,0.666666667,0.1,,,,,,,,,\n")) << csv;
}

}  // namespace
}  // namespace ompscope::output
