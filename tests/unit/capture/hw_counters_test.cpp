// The counter group's mechanics (docs/lost-time.md, "Hardware counters"), checked with software
// events, which every Linux kernel counts (this VM has no PMU); and what the tool's hardware
// group does where it cannot open: it says why, and leaves nothing open.
#include "capture/hw_counters.h"

#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <time.h>

#include <cerrno>
#include <cstring>
#include <thread>

namespace ompscope::capture {
namespace {

double thread_cpu_s() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Burns at least `seconds` of this thread's CPU time.
void spin_for(double seconds) {
  const double until = thread_cpu_s() + seconds;
  volatile uint64_t sink = 0;
  while (thread_cpu_s() < until)
    for (int i = 0; i < 1000; ++i) sink = sink + static_cast<uint64_t>(i);
}

// Two task clocks: the cpu-clock event, tried as the second, read no change at all in one run
// in three (here, in the default and the TSan builds alike), which tested the kernel, not us.
const CounterSpec kClocks[2] = {{PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
                                {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK}};

TEST(CounterGroup, OneReadGivesEveryCounterOfTheGroupCountingOnlyItsOwnThread) {
  CounterGroup group;
  ASSERT_EQ(open_counter_group(kClocks, 2, &group), 0) << strerror(errno);
  ASSERT_EQ(group.count, 2);
  uint64_t before[2], after[2], later[2];
  ASSERT_TRUE(read_counter_group(group, before));
  spin_for(0.02);
  ASSERT_TRUE(read_counter_group(group, after));
  // Both clocks count the 20 ms this thread ran (in ns), read in the same read(); less than all
  // of it (exclude_kernel leaves out the kernel's part: CLOCK_THREAD_CPUTIME_ID, read in the
  // spin, is a system call), so at least a quarter of it.
  EXPECT_GE(after[0] - before[0], 5'000'000u);
  EXPECT_GE(after[1] - before[1], 5'000'000u);
  // Another thread's CPU time is not this thread's: the group barely moves while it runs 100 ms.
  std::thread other([] { spin_for(0.1); });
  other.join();
  ASSERT_TRUE(read_counter_group(group, later));
  EXPECT_LT(later[0] - after[0], 5'000'000u);
  close_counter_group(&group);
  EXPECT_FALSE(group.open());
  EXPECT_FALSE(read_counter_group(group, later));
}

TEST(CounterGroup, AGroupThatDoesNotOpenSaysWhyAndLeavesNothingOpen) {
  // An event type no kernel knows: the first counter opens (a software clock), the second
  // fails, and the group is closed again.
  const CounterSpec bad[2] = {{PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK}, {0xfffff, 0}};
  CounterGroup group;
  const int error = open_counter_group(bad, 2, &group);
  EXPECT_NE(error, 0);
  EXPECT_FALSE(group.open());
  EXPECT_GT(std::strlen(counter_failure_text(error)), 0u);
  EXPECT_EQ(open_counter_group(kClocks, 0, &group), EINVAL);
  EXPECT_EQ(open_counter_group(kClocks, kMaxCounters + 1, &group), EINVAL);
}

TEST(CounterGroup, TheToolsHardwareGroupOpensAndCountsOrSaysWhyNot) {
  CounterGroup group;
  const int error = open_counter_group(kHardwareCounters, 3, &group);
  if (error != 0) {
    // This VM: no PMU. The reason names it; nothing is left open.
    EXPECT_FALSE(group.open());
    EXPECT_STRNE(counter_failure_text(error), "");
    GTEST_SKIP() << "no usable hardware counters here: " << counter_failure_text(error);
  }
  uint64_t before[3], after[3];
  ASSERT_TRUE(read_counter_group(group, before));
  spin_for(0.01);
  ASSERT_TRUE(read_counter_group(group, after));
  EXPECT_GT(after[0], before[0]);  // cycles
  EXPECT_GT(after[1], before[1]);  // instructions
  close_counter_group(&group);
}

TEST(CounterGroup, NoPmuReasonsAreNamed) {
  EXPECT_STREQ(counter_failure_text(ENOENT), "ENOENT: no PMU, the CPU offers no such event");
  EXPECT_STREQ(counter_failure_text(EACCES), "EACCES: not permitted by perf_event_paranoid");
}

}  // namespace
}  // namespace ompscope::capture
