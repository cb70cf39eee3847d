// cpu_busy.h: /proc/stat text built by hand, where every second is known.
#include "cli/cpu_busy.h"

#include <gtest/gtest.h>

namespace ompscope::cli {
namespace {

// cpu0: user 100 nice 10 system 40 idle 800 iowait 20 irq 5 softirq 5 steal 20 → busy 180 ticks.
// cpu1: user 300 nice 0 system 100 idle 500 iowait 0 irq 0 softirq 0 steal 0 → busy 400 ticks.
// cpu2 has no steal field (an old kernel): busy 7 ticks.
constexpr const char* kStat =
    "cpu  407 10 140 1300 20 5 5 20 0 0\n"
    "cpu0 100 10 40 800 20 5 5 20 0 0\n"
    "cpu1 300 0 100 500 0 0 0 0 0 0\n"
    "cpu2 1 2 3 4 5 0 1\n"
    "intr 12345 0 0\n"
    "ctxt 999\n";

TEST(CpuBusy, CountsTheBusyTimeOfTheMaskedCpusOnly) {
  unsigned char only0[128] = {0x01};
  unsigned char both[128] = {0x03};
  unsigned char only2[128] = {0x04};
  unsigned char none_there[128] = {0x08};
  EXPECT_DOUBLE_EQ(busy_seconds_of(kStat, only0, 100), 1.80);  // the "cpu " total line is not a CPU
  EXPECT_DOUBLE_EQ(busy_seconds_of(kStat, both, 100), 5.80);
  EXPECT_DOUBLE_EQ(busy_seconds_of(kStat, only2, 100), 0.07);
  EXPECT_DOUBLE_EQ(busy_seconds_of(kStat, none_there, 100), -1);
  EXPECT_DOUBLE_EQ(busy_seconds_of("garbage\ncpu0 x y\n", only0, 100), -1);
}

TEST(CpuBusy, OthersShareIsTheBusyTimeBeyondOurChildrenOverTheCapacity) {
  CpuBusySnapshot before{true, 2, 100.0, 10.0, 1000.0, 0.01};
  // 4 s on 2 CPUs: 8 CPU-seconds; busy 6 of them, our children 5: others 1 s, less a tick per CPU
  // at each end (0.04 s): 0.96 of 8.
  CpuBusySnapshot after{true, 2, 106.0, 15.0, 1004.0, 0.01};
  EXPECT_DOUBLE_EQ(others_share(before, after), 0.12);
  // Our children alone: nothing left for others (a tick's rounding never goes below 0).
  after.children_s = 16.5;
  EXPECT_DOUBLE_EQ(others_share(before, after), 0.0);
  // Not read, or no time passed: nothing is claimed.
  CpuBusySnapshot unread = after;
  unread.read = false;
  EXPECT_DOUBLE_EQ(others_share(before, unread), 0.0);
  EXPECT_DOUBLE_EQ(others_share(before, before), 0.0);
}

TEST(CpuBusy, ReadsThisMachine) {
  const CpuBusySnapshot now = cpu_busy_now();
  ASSERT_TRUE(now.read);  // Linux: /proc/stat and an affinity mask are always there
  EXPECT_GE(now.cpus, 1);
  EXPECT_GT(now.busy_s, 0);
  EXPECT_GT(now.tick_s, 0);
}

}  // namespace
}  // namespace ompscope::cli
