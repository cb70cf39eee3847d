// The CPU-time sampler (capture/pc_sampler.h) on a real thread, without a runtime: a thread that
// computes for 300 ms of its CPU is sampled, the samples reach its log as Sample records (with
// their SampleFrames) when it drains, their weights add up to the CPU time it used (the kernel's
// tick may be coarser than the period: the overrun counts the periods), and their program
// counters lie in the function that computed. A thread that sleeps takes no sample. No PMU is
// needed (the VMs this runs on have none).
#include <gtest/gtest.h>

#include <algorithm>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <thread>

#include "analysis/run_log.h"
#include "capture/recorder.h"

namespace ompscope::capture {
namespace {
namespace fs = std::filesystem;

double thread_cpu_s() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + t.tv_nsec * 1e-9;
}

double wall_s() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + t.tv_nsec * 1e-9;
}

// Computes until `seconds` of this thread's CPU time passed, reading the clock every ~100 µs of
// arithmetic: under TSan the clock's interceptor is slow enough that a read every ~1 µs put half
// the samples in TSan's runtime (34 of 75 in compute_for in one CI run). The arithmetic stays in
// a register (an empty asm keeps it from being folded away): a `volatile` accumulator is a memory
// access, which TSan instruments with a call into its runtime at every iteration, and that put
// 41 of 75 samples there again (34 of 75 in compute_for, 2026-11-27).
__attribute__((noinline)) double compute_for(double seconds) {
  const double until = thread_cpu_s() + seconds;
  double x = 1;
  while (thread_cpu_s() < until)
    for (int i = 0; i < 100000; ++i) {
      x = x * 1.0000001 + 1e-9;
      asm volatile("" : "+x"(x));
    }
  return x;
}
__attribute__((noinline)) void compute_end() {}

struct Drained {
  uint64_t samples = 0, frames_records = 0, in_compute = 0;
  double weight_s = 0, cpu_s = 0, wall_s = 0;
  double largest_s = 0;  // the heaviest sample: the longest stretch of CPU no tick found the thread in
  // The CPU time the weights may miss: a stretch at each end that no sample closed, each at most
  // the longest stretch between samples, and never less than two ticks of 10 ms (100 Hz).
  double tolerance_s() const { return std::max(0.03, 2 * largest_s); }
};

Drained sample_one_thread(const fs::path& dir, void (*work)(Drained&)) {
  Drained d;
  std::thread([&] {
    append_event(t_log, g_config, g_clock, Event{0, 0, 0, 0, 0, 0, EventKind::ThreadBegin, 0});
    begin_thread_sampling();
    work(d);
    end_thread_sampling(t_log, g_config);  // drains
    close_thread_log(t_log, g_config);
  }).join();
  for (const auto& entry : fs::directory_iterator(dir)) {
    const analysis::ThreadEvents events = analysis::read_thread_events(entry.path());
    const auto lo = reinterpret_cast<uint64_t>(&compute_for), hi = reinterpret_cast<uint64_t>(&compute_end);
    for (const Event& e : events.events) {
      if (e.kind == EventKind::SampleFrames) ++d.frames_records;
      if (e.kind != EventKind::Sample) continue;
      ++d.samples;
      d.weight_s += e.arg * 1e-3;  // periods of 1 ms
      d.largest_s = std::max(d.largest_s, e.arg * 1e-3);
      // compute_for's own code, or the clock it reads (vDSO): either is inside it on the stack.
      d.in_compute += e.codeptr >= lo && e.codeptr < hi;
    }
  }
  return d;
}

class PcSamplerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ompscope-pc-sampler-test-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    dir_text_ = dir_.string();
    g_config.directory = dir_text_.c_str();
    setenv("OMPSCOPE_SAMPLE_HZ", "1000", 1);
    open_pc_sampling(g_clock, &g_paused);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  std::string dir_text_;
};

TEST_F(PcSamplerTest, AComputingThreadsSamplesAddUpToItsCpuTimeAndLieInTheFunctionThatComputed) {
  const Drained d = sample_one_thread(dir_, [](Drained& out) {
    const double before = thread_cpu_s(), began = wall_s();
    compute_for(0.3);
    out.cpu_s = thread_cpu_s() - before;
    out.wall_s = wall_s() - began;
  });
  std::printf("%llu samples weighing %.3f s for %.3f s of CPU in %.3f s; %llu in compute_for; %llu frame records\n",
              static_cast<unsigned long long>(d.samples), d.weight_s, d.cpu_s, d.wall_s,
              static_cast<unsigned long long>(d.in_compute), static_cast<unsigned long long>(d.frames_records));
  // At most one sample per period. The kernel fires a CPU-time timer at a tick that finds the
  // thread on its CPU, so on a busy machine fewer ticks do (9 samples for 0.2 s of CPU beside a
  // build, 20-45 beside two busy loops, 2 beside four, against 50-60 alone at 250 Hz); each sample then carries
  // the periods that passed (its overrun), and the weights stand for the CPU time but for a
  // stretch at each end (Drained::tolerance_s) however few samples carry them.
  EXPECT_GE(d.samples, 1u);
  EXPECT_LE(d.samples, 320u);
  EXPECT_LE(d.weight_s, d.cpu_s + d.tolerance_s());  // never more than the CPU time
  // The stretch after the last sample is no sample's where its expiry was not yet a signal when
  // the sampling ended, and a tick that finds the thread on its CPU may come long after: beside 4
  // busy loops on 2 vCPUs the thread had 40% of a CPU, and 1 run of 8 weighed 0.167 s of 0.300
  // (11 samples; a bare timer_create program lost up to 78 ms of 300 there, docs/sampling.md).
  // Where the thread had its CPU, no tick is far and the weights add up.
  if (d.cpu_s >= 0.9 * d.wall_s)
    EXPECT_GE(d.weight_s, d.cpu_s - d.tolerance_s());
  else
    std::printf("the thread had %.0f%% of a CPU (another process on it): the stretch after its last sample is not "
                "judged\n", 100 * d.cpu_s / d.wall_s);
  // Where the clock read is a system call rather than the vDSO, samples land in the kernel's
  // return path, outside compute_for: most are still in it.
  EXPECT_GE(d.in_compute, d.samples / 2);
}

TEST_F(PcSamplerTest, ASleepingThreadTakesNoSample) {
  const Drained d = sample_one_thread(dir_, [](Drained&) { usleep(200000); });
  EXPECT_LE(d.samples, 1u);  // the thread's start-up CPU may reach one period
}

// A program that starts its own profiler after the tool loaded (its SIGPROF handler, as gprof or
// setitimer(ITIMER_PROF) users install) gets none of the tool's timer signals, and the tool keeps
// sampling: the tool's timers signal a real-time signal of their own.
volatile sig_atomic_t g_program_sigprofs = 0;
void program_sigprof(int) { g_program_sigprofs = g_program_sigprofs + 1; }

TEST_F(PcSamplerTest, AProgramsOwnSigprofHandlerInstalledAfterTheToolGetsNoneOfItsSignals) {
  struct sigaction mine {}, before {};
  mine.sa_handler = program_sigprof;
  sigemptyset(&mine.sa_mask);
  ASSERT_EQ(sigaction(SIGPROF, &mine, &before), 0);
  g_program_sigprofs = 0;
  const Drained d = sample_one_thread(dir_, [](Drained& out) {
    const double before = thread_cpu_s();
    compute_for(0.2);
    out.cpu_s = thread_cpu_s() - before;
  });
  const int received = g_program_sigprofs;
  sigaction(SIGPROF, &before, nullptr);
  std::printf("program's SIGPROF handler: %d signals; tool: %llu samples weighing %.3f s for %.3f s of CPU\n", received,
              static_cast<unsigned long long>(d.samples), d.weight_s, d.cpu_s);
  EXPECT_EQ(received, 0);
  // The tool kept sampling (however few samples on a busy machine, as above; their weights are the
  // test before this one's).
  EXPECT_GE(d.samples, 1u);
}

}  // namespace
}  // namespace ompscope::capture
