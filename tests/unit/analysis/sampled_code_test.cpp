// CPU-time samples (capture/pc_sampler.h) through the analysis: read from a hand-built log with
// their own times and frames, placed in the region instance their thread was working in (or in
// serial code, or nowhere), and summed per line; omp_control_tool's pause leaves its time out of
// the program's. Every number here is known.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "analysis/elf_file.h"
#include "analysis/region_profile.h"
#include "analysis/sampled_code.h"
#include "analysis/sampled_findings.h"
#include "analysis/symbolizer.h"
#include "analysis/timeline.h"
#include "event_log_builder.h"

namespace ompscope::analysis {
namespace {

using testing::LogBuilder;
using testing::us;

// Two threads: serial code 0–100 µs, a region 100–300 µs (thread 1 joins at 110), serial code
// again, a pause from 380 to 500 µs, serial code to 600. Samples every 10 µs of period, drained
// late (their records' times are the drains').
LogBuilder sampled_run() {
  LogBuilder b(2, 600);
  b.sample_period_us(10);
  b.thread(0)
      .thread_begin(0)
      .sample(90, 50, 0x1000, 2, {0x2000, 0x3000, 0x4000})  // serial, two periods, three frames
      .parallel_begin(100, 1, 0, 2, 0x500)
      .implicit_begin(100, 1, 10, 2, 0)
      .sample(200, 150, 0x1100)                             // in the region
      .sync_begin(280, ompt_sync_region_barrier_implicit_parallel)
      .sync_end(300, ompt_sync_region_barrier_implicit_parallel)
      .implicit_end(300, 1, 10, 0)
      .parallel_end(300, 1, 0, 0x500)
      .tool_control(380, 2)
      .sample(450, 400, 0x1200)                             // paused: the handler takes none; none counts
      .tool_control(500, 1)
      .sample(590, 550, 0x1300, 3);                         // serial again
  b.thread(1)
      .thread_begin(110, ompt_thread_worker)
      .implicit_begin(110, 1, 11, 2, 1)
      .sample(250, 120, 0x1100)                             // in the region
      .sync_begin(290, ompt_sync_region_barrier_implicit_parallel)
      .sync_end(300, ompt_sync_region_barrier_implicit_parallel)
      .implicit_end(300, 1, 11, 1)
      .sample(400, 350, 0x1400);                            // between regions: the runtime's idle wait
  return b;
}

TEST(Samples, AreReadWithTheirOwnTimeWeightAndFramesWhateverTheTimeOfTheirRecords) {
  const Timeline t = build_timeline(sampled_run().log());
  ASSERT_EQ(t.samples.size(), 6u);
  const CpuSample& first = t.samples[0];
  EXPECT_EQ(first.thread, 0u);
  EXPECT_US(first.time, 50);
  EXPECT_US(first.cpu_s, 20);  // two periods of 10 µs
  EXPECT_EQ(first.pc, 0x1000u);
  EXPECT_EQ(first.frames, (std::vector<uint64_t>{0x2000, 0x3000, 0x4000}));
  EXPECT_TRUE(t.samples[1].frames.empty());
  // The samples moved no clock of the walk: the region still ends at 300 µs, the run at 600.
  ASSERT_EQ(t.regions.size(), 1u);
  EXPECT_US(t.regions[0].end, 300);
  ASSERT_EQ(t.paused.size(), 1u);
  EXPECT_US(t.paused[0].first, 380);
  EXPECT_US(t.paused[0].second, 500);
}

TEST(Samples, GoToTheInstanceTheirThreadWorkedInElseSerialCodeOnTheInitialThreadElseNowhere) {
  const Timeline t = build_timeline(sampled_run().log());
  Symbolizer symbols({});
  RunSamples region, serial;
  DescribedSamples described(t, symbols);
  place_samples(t, described, [&](const RegionInstance& inst) { return inst.parallel_id == 1 ? &region : nullptr; },
                serial);
  EXPECT_US(region.cpu_s, 20);  // one sample of each thread
  EXPECT_US(serial.cpu_s, 50);  // 20 µs before the region, 30 after the pause; none in it
  // No symbols: each sample counts at its module's unknown function, line 0.
  ASSERT_EQ(serial.lines.size(), 1u);
  EXPECT_US(serial.lines.begin()->second.cpu_s, 50);
  EXPECT_EQ(serial.lines.begin()->second.line, 0);
}

TEST(Samples, APauseNeverStartedAgainLastsToTheRunsEnd) {
  LogBuilder b(1, 600);
  b.thread(0).thread_begin(0).tool_control(200, 4);
  const Timeline t = build_timeline(b.log());
  ASSERT_EQ(t.paused.size(), 1u);
  EXPECT_US(t.paused[0].second, 600);
}

TEST(Samples, ThePausedTimeIsNoneOfTheProgramsNorOfItsSerialCode) {
  const ProgramProfile p = profile_program(build_timeline(sampled_run().log()));
  EXPECT_US(p.wall_s, 600 - 120);
  EXPECT_US(p.in_regions_s, 200);
  EXPECT_US(p.serial_s, 600 - 120 - 200);
}

report::SampledLine line(const char* file, int number, double cpu_s) { return {file, number, "f", "prog", cpu_s}; }

RunSamples samples_of(std::vector<report::SampledLine> lines) {
  RunSamples r;
  for (const report::SampledLine& l : lines) {
    r.lines[{l.file, l.line}] = l;
    r.cpu_s += l.cpu_s;
  }
  return r;
}

TEST(Samples, LinesAreMeansOverTheRepeatsAndGrowthIsTheirDifferenceFromTheBase) {
  const RunSamples a = samples_of({line("a.c", 10, 0.4), line("a.c", 20, 0.2)});
  const RunSamples b = samples_of({line("a.c", 10, 0.6)});  // line 20 not sampled in this repeat
  const report::SampledCode code = summarize_samples({&a, &b}, 5);
  EXPECT_DOUBLE_EQ(code.cpu_s, 0.6);
  ASSERT_EQ(code.lines.size(), 2u);
  EXPECT_EQ(code.lines[0].line, 10);
  EXPECT_DOUBLE_EQ(code.lines[0].cpu_s, 0.5);
  EXPECT_DOUBLE_EQ(code.lines[1].cpu_s, 0.1);
  EXPECT_EQ(summarize_samples({&a, &b}, 1).lines.size(), 1u);

  const RunSamples now = samples_of({line("a.c", 10, 0.5), line("a.c", 20, 0.9), line("a.c", 30, 0.05)});
  const std::vector<report::SampledLine> grown = grown_lines({&a, &b}, {&now}, 5);
  ASSERT_EQ(grown.size(), 2u);  // line 10 did not grow (0.5 → 0.5)
  EXPECT_EQ(grown[0].line, 20);
  EXPECT_DOUBLE_EQ(grown[0].cpu_s, 0.8);
  EXPECT_EQ(grown[1].line, 30);
  EXPECT_DOUBLE_EQ(grown[1].cpu_s, 0.05);
  EXPECT_TRUE(grown_lines({}, {&now}, 5).empty());
}

TEST(Samples, StacksAreMeansOverTheRepeatsLargestFirst) {
  RunSamples a, b;
  a.stacks["main;solve;kernel"] = 0.3;
  a.stacks["main;io"] = 0.1;
  b.stacks["main;solve;kernel"] = 0.1;
  const auto stacks = top_stacks({&a, &b}, 10);
  ASSERT_EQ(stacks.size(), 2u);
  EXPECT_EQ(stacks[0].first, "main;solve;kernel");
  EXPECT_DOUBLE_EQ(stacks[0].second, 0.2);
  EXPECT_DOUBLE_EQ(stacks[1].second, 0.05);
  EXPECT_EQ(top_stacks({&a, &b}, 1).size(), 1u);
}

// The line a work_inflation hint names grew out of proportion to the region's other lines, not
// merely most: the kmeans shape, a distance loop holding 72% of the time that slowed x1.2 with the
// rest of the machine, and per-thread counters sharing a cache line that grew x15.
report::RegionReport inflated_region() {
  report::RegionReport region;
  region.problems.push_back({"work_inflation", 2, 0.5, 0.25, "the team's work grew", {}});
  return region;
}

double detail(const report::Problem& p, const std::string& key) {
  for (const auto& [k, v] : p.details)
    if (k == key) return v;
  return -1;
}

TEST(GrownLines, TheNamedLineGrewOutOfProportionToTheOthersNotMerelyMost) {
  // 1 thread: distance 0.60 s, counter 0.02 s, rest 0.20 s; 2 threads: 0.96 (+0.36, x1.6), 0.32
  // (+0.30, x16), 0.32 (+0.12, x1.6). The distance loop grew most, but only as the others did: its
  // growth beyond the others' x2.9 (0.22 → 0.64) is below zero; the counter's beyond their x1.6
  // (0.80 → 1.28) is 0.32 − 0.02 × 1.6 = 0.288 s.
  const RunSamples t1 = samples_of({line("k.c", 109, 0.60), line("k.c", 206, 0.02), line("k.c", 90, 0.20)});
  const RunSamples t2 = samples_of({line("k.c", 109, 0.96), line("k.c", 206, 0.32), line("k.c", 90, 0.32)});
  report::RegionReport region = inflated_region();
  name_grown_lines(region, {{1, {&t1}}, {2, {&t2}}});
  const report::Problem& p = region.problems[0];
  EXPECT_NE(p.hint.find("k.c:206 (f)"), std::string::npos) << p.hint;
  EXPECT_NE(p.hint.find("x16.0 where the region's other lines grew x1.60"), std::string::npos) << p.hint;
  EXPECT_DOUBLE_EQ(detail(p, "grown_line_s"), 0.30);
  EXPECT_NEAR(detail(p, "sampled_growth_s"), 0.78, 1e-12);
  // The grown lines stay ordered by growth: the distance loop first.
  ASSERT_EQ(region.grown_lines.size(), 3u);
  EXPECT_EQ(region.grown_lines[0].line, 109);
  EXPECT_EQ(region.grown_lines[1].line, 206);
}

TEST(GrownLines, EveryLineSlowingAlikeNamesNone) {
  const RunSamples t1 = samples_of({line("k.c", 109, 0.60), line("k.c", 206, 0.10), line("k.c", 90, 0.20)});
  const RunSamples t2 = samples_of({line("k.c", 109, 0.78), line("k.c", 206, 0.13), line("k.c", 90, 0.26)});
  report::RegionReport region = inflated_region();
  name_grown_lines(region, {{1, {&t1}}, {2, {&t2}}});
  EXPECT_EQ(region.problems[0].hint, "the team's work grew");
  EXPECT_EQ(detail(region.problems[0], "grown_line_s"), -1);
}

TEST(GrownLines, ALoopThatIsAllOneLineNamesItsLineByItsOwnGrowth) {
  // False sharing: the counter's line holds 95% of the base; the others (0.01 s) are too little to
  // compare with, so the line is measured against its own time.
  const RunSamples t1 = samples_of({line("fs.c", 12, 0.19), line("fs.c", 11, 0.01)});
  const RunSamples t2 = samples_of({line("fs.c", 12, 0.50), line("fs.c", 11, 0.04)});
  report::RegionReport region = inflated_region();
  name_grown_lines(region, {{1, {&t1}}, {2, {&t2}}});
  EXPECT_NE(region.problems[0].hint.find("fs.c:12 (f)"), std::string::npos) << region.problems[0].hint;
  EXPECT_NE(region.problems[0].hint.find("where the region's other lines grew x1.00"), std::string::npos);
}

extern "C" __attribute__((noinline, used)) int ompscope_sampled_code_test_function(int x) { return x * 5 + 1; }

// A sample in ompscope's own library (libompscope*.so, is_tool_library) is the capture's: no line,
// "(ompscope's capture)" for its function and for its frames in the stack, two of them in a row
// one frame, however the library's functions were inlined, and its debug info never read (its
// symbol table names it). Here the tool library is a copy of this test's executable under such a
// name, mapped where the executable is, called from libc's qsort.
TEST(Samples, InOmpscopesOwnLibraryAreTheCapturesWithOneFrameForItsCalls) {
  const std::filesystem::path self = std::filesystem::canonical("/proc/self/exe");
  const std::filesystem::path tool =
      std::filesystem::temp_directory_path() / ("libompscope-sampled-code-test-" + std::to_string(getpid()) + ".so");
  std::filesystem::copy_file(self, tool, std::filesystem::copy_options::overwrite_existing);
  ASSERT_TRUE(is_tool_library(tool.string()));
  EXPECT_TRUE(is_tool_library("/usr/lib/x86_64-linux-gnu/libompscope_gomp.so"));
  EXPECT_FALSE(is_tool_library(self.string()));
  void* handle = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(handle, nullptr);
  void* qsort_in_libc = dlsym(handle, "qsort");  // libc's, not a sanitizer's interceptor in this test
  ASSERT_NE(qsort_in_libc, nullptr);
  Dl_info libc{};
  ASSERT_NE(dladdr(qsort_in_libc, &libc), 0);
  dlclose(handle);
  const uint64_t libc_bias = reinterpret_cast<uint64_t>(libc.dli_fbase);
  const uint64_t own_bias = own_executable_load_bias();
  ASSERT_LT(own_bias, libc_bias);  // a PIE below its libraries, as Linux maps them
  Symbolizer symbols({{own_bias, 1, libc_bias, tool.string()},
                      {libc_bias, libc_bias, libc_bias + (1ull << 30), std::filesystem::canonical(libc.dli_fname).string()}});
  const uint64_t in_tool = reinterpret_cast<uint64_t>(&ompscope_sampled_code_test_function);
  CpuSample sample;
  sample.cpu_s = 0.004;
  sample.pc = in_tool;
  sample.frames = {in_tool + 2, reinterpret_cast<uint64_t>(qsort_in_libc) + 2};  // return addresses
  const DescribedSample d = describe_sample(sample, symbols);
  std::filesystem::remove(tool);
  EXPECT_EQ(d.folded, "qsort;(ompscope's capture)");
  EXPECT_EQ(d.line.function, "(ompscope's capture)");
  EXPECT_TRUE(d.line.file.empty()) << d.line.file;
  EXPECT_EQ(d.line.line, 0);
  EXPECT_EQ(d.line.cpu_s, 0.004);
  // Its location is named by the symbol table, with no file or line read.
  const SourceLocation& where = symbols.resolve(in_tool + 1);
  EXPECT_EQ(where.function, "ompscope_sampled_code_test_function");
  EXPECT_TRUE(where.file.empty()) << where.file;
}

}  // namespace
}  // namespace ompscope::analysis
