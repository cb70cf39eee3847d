// Runs analysed at once (scale reads its runs' logs on every core, cli/measurement.h's
// analyse_runs): each analysis has its own Symbolizer, and the Symbolizers share each file's
// debug info (one libbacktrace state per file and process). Four threads analyse one sampled run
// whose samples lie in this test's own code, at once, and each result is the one analysed alone.
// The TSan stage runs this test (CMakePresets.json, tsan), so a race on the shared states is a
// failure there.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "analysis/elf_file.h"
#include "analysis/run_analysis.h"
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

}  // namespace
}  // namespace ompscope::analysis
