// Runs analysed at once (scale reads its runs' logs on every core, cli/measurement.h's
// analyse_runs): each analysis has its own Symbolizer, and the Symbolizers share each file's
// debug info (one libbacktrace state per file and process). Four threads analyse one sampled run
// whose samples lie in this test's own code, at once, and each result is the one analysed alone.
// The TSan stage runs this test (CMakePresets.json, tsan), so a race on the shared states is a
// failure there. A run's region instances have their task figures computed side by side
// (run_analysis.cpp) and added in order: the same figures, bit for bit, as one thread's.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "analysis/elf_file.h"
#include "analysis/constructs.h"
#include "analysis/run_analysis.h"
#include "analysis/task_figures.h"
#include "analysis/timeline.h"
#include "event_log_builder.h"

namespace ompscope::analysis {
namespace {

__attribute__((noinline)) int sampled_here(int x) { return x * 3 + 1; }


// Serial code sampled twice inside sampled_here, then a region; this executable is the run's
// one module.
RunLog sampled_log() {
  const auto pc = reinterpret_cast<uint64_t>(&sampled_here);
  testing::LogBuilder b(1, 400);
  b.sample_period_us(10);
  b.thread(0)
      .thread_begin(0)
      .sample(50, 40, pc + 1)
      .sample(90, 80, pc + 2)
      .parallel_begin(100, 1, 0, 1, 0x500)
      .implicit_begin(100, 1, 10, 1, 0)
      .implicit_end(300, 1, 10, 0)
      .parallel_end(300, 1, 0, 0x500);
  RunLog log = b.log();
  log.meta.modules.push_back(
      {own_executable_load_bias(), pc - 4096, pc + 4096, std::filesystem::canonical("/proc/self/exe").string()});
  return log;
}

std::string serial_lines(const RunAnalysis& a) {
  std::string out;
  for (const auto& [key, line] : a.serial_samples.lines)
    out += line.function + "@" + line.file + ":" + std::to_string(line.line) + "=" + std::to_string(line.cpu_s) + ";";
  return out;
}

TEST(ParallelAnalysis, RunsAnalysedAtOnceShareEachFilesDebugInfoAndGiveWhatEachGivesAlone) {
  const RunLog log = sampled_log();
  const Timeline timeline = build_timeline(log);
  std::string alone;
  {
    Symbolizer symbols(log.meta.modules);
    alone = serial_lines(analyze_run(timeline, log.meta, symbols));
  }
  ASSERT_NE(alone.find("sampled_here(int)@"), std::string::npos) << alone;  // symbolised from this file
  std::vector<std::string> at_once(4);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < at_once.size(); ++i)
    threads.emplace_back([&, i] {
      Symbolizer symbols(log.meta.modules);
      at_once[i] = serial_lines(analyze_run(timeline, log.meta, symbols));
    });
  for (std::thread& t : threads) t.join();
  for (const std::string& lines : at_once) EXPECT_EQ(lines, alone);
}

// 300 (or `kInstances`) instances of one 2-thread region, 100 µs apart, each with two tasks the master creates
// (task A at +1, B at +2), A run by the worker in the single's barrier (+5 → +25 + k % 7) and B
// by the master (+6 → +30), then the join barrier; more instances than one batch of task figures.
RunLog many_task_instances_log(uint32_t kInstances = 300) {
  constexpr auto kSingle = ompt_sync_region_barrier_implicit_workshare;
  constexpr auto kJoin = ompt_sync_region_barrier_implicit_parallel;
  testing::LogBuilder b(2, 100 * kInstances + 100);
  testing::Stream master = b.thread(0), worker = b.thread(1);
  master.thread_begin(0).initial_task(0, 1, 2);
  worker.thread_begin(0, ompt_thread_worker);
  for (uint32_t k = 0; k < kInstances; ++k) {
    const uint64_t at = 100 * k;
    const uint32_t id = 1000 + 10 * k, a = id + 3, b_task = id + 4;
    master.parallel_begin(at, id, 2, 2, 0x6000)
        .implicit_begin(at, id, id + 1, 2, 0)
        .task_create(at + 1, a, id + 1, 0x6010)
        .task_create(at + 2, b_task, id + 1, 0x6010)
        .sync_begin(at + 3, kSingle)
        .task_schedule(at + 6, id + 1, ompt_task_switch, b_task)
        .task_schedule(at + 30, b_task, ompt_task_complete, id + 1)
        .sync_end(at + 40, kSingle)
        .sync_begin(at + 40, kJoin)
        .sync_end(at + 50, kJoin)
        .implicit_end(at + 50, id, id + 1, 0)
        .parallel_end(at + 50, id, 2, 0x6000);
    worker.implicit_begin(at, id, id + 2, 2, 1)
        .sync_begin(at, kSingle)
        .task_schedule(at + 5, id + 2, ompt_task_switch, a)
        .task_schedule(at + 25 + k % 7, a, ompt_task_complete, id + 2)
        .sync_end(at + 40, kSingle)
        .sync_begin(at + 40, kJoin)
        .sync_end(at + 50, kJoin)
        .implicit_end(at + 50, id, id + 2, 1);
  }
  return b.log();
}

std::string task_figures_of(const RunAnalysis& a) {
  std::string out;
  const auto list = [&out](const char* name, const std::vector<double>& v) {
    out += name;
    for (double x : v) out += fmt::format(" {:a}", x);  // exact: the same doubles, summed in the same order
    out += ";";
  };
  for (const auto& [key, r] : a.regions) {
    const TaskFigures& f = r.tasks;
    out += fmt::format("{}: tasks {} recorded {} body {:a} work {:a} span {:a} starvation {:a} per task {:a};", key.text,
                       f.tasks, f.recorded_tasks, f.body_s, f.work_s, f.span_s, f.starvation_s, f.replay_per_task_s);
    for (const auto& [count, s] : f.replay_s) out += fmt::format(" replay {} {:a}", count, s);
    list("dispatch", f.dispatch_gaps());
    list("taskwait", f.taskwait_gaps);
    list("immediate", f.immediate_starts);
    list("creation", f.creation_gaps());
  }
  return out;
}

TEST(ParallelAnalysis, InstancesTaskFiguresComputedSideBySideAddUpAsOneThreadAddsThem) {
  const RunLog log = many_task_instances_log();
  const Timeline timeline = build_timeline(log);
  ASSERT_EQ(timeline.regions.size(), 300u);
  Symbolizer symbols(log.meta.modules);
  const std::string one = task_figures_of(analyze_run(timeline, log.meta, symbols, {.workers = 1}));
  const std::string two = task_figures_of(analyze_run(timeline, log.meta, symbols, {.workers = 2}));
  ASSERT_NE(one.find("tasks 600 recorded 600"), std::string::npos) << one.substr(0, 300);
  ASSERT_NE(one.find("replay 2 "), std::string::npos);
  EXPECT_EQ(two, one);
}

// More instances than the replay samples (kReplayedInstances): a stated sample of one in each
// block of consecutive ones, its replayed times scaled by the wall time of all over its own. The
// instances differ (task A ends 0-6 ticks later in turn), so the estimate is not the sum itself:
// it stays within a thousandth of it here, the sum taken by replaying every instance alone.
TEST(ParallelAnalysis, ARegionOfMoreInstancesThanTheSampleReplaysASampleScaledToAll) {
  constexpr uint32_t kInstances = 9000;
  const RunLog log = many_task_instances_log(kInstances);
  const Timeline timeline = build_timeline(log);
  ASSERT_EQ(timeline.regions.size(), kInstances);
  Symbolizer symbols(log.meta.modules);
  const RunAnalysis sampled = analyze_run(timeline, log.meta, symbols, {.workers = 2});
  ASSERT_EQ(sampled.regions.size(), 1u);
  const TaskFigures& f = sampled.regions.begin()->second.tasks;
  EXPECT_EQ(f.task_instances, kInstances);
  const size_t block = (kInstances + kReplayedInstances - 1) / kReplayedInstances;  // 3
  ASSERT_EQ(block, 3u);
  EXPECT_EQ(f.replayed_instances, (kInstances + block - 1) / block);
  EXPECT_LT(f.replayed_wall_s, f.task_instances_wall_s);
  // Every instance replayed, one by one, and summed.
  const ConstructInputs inputs(timeline);
  std::map<int, double> all;
  for (const RegionInstance& inst : timeline.regions)
    for (const auto& [t, time] : task_figures(inst, inputs.tasks.find(inst.parallel_id)).replay_s) all[t] += time;
  ASSERT_EQ(f.replay_s.size(), all.size());
  for (const auto& [t, time] : all) {
    const double error = std::abs(f.replay_s.at(t) - time) / time;
    std::printf("replay at %d threads: sampled %.6g s, every instance %.6g s, %.4f%% off\n", t, f.replay_s.at(t), time,
                100 * error);
    EXPECT_LT(error, 1e-3) << t;
  }
  // The 2-thread team's count is the instances' own time: the estimate there is the recorded sum.
  EXPECT_NEAR(f.replay_s.at(2), all.at(2), 1e-3 * all.at(2));
}

}  // namespace
}  // namespace ompscope::analysis
