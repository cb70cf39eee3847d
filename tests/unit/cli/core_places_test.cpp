// One OpenMP place per core, built from the kernel's sibling lists (cli/core_places.h).
#include "cli/core_places.h"

#include <gtest/gtest.h>

namespace ompscope::cli {
namespace {

TEST(CpuList, ReadsSingleCpusAndRanges) {
  EXPECT_EQ(parse_cpu_list("0-3,8,10-11\n"), (std::set<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(parse_cpu_list("5"), (std::set<int>{5}));
}

TEST(CpuList, RefusesMalformedText) {
  EXPECT_TRUE(parse_cpu_list("").empty());
  EXPECT_TRUE(parse_cpu_list("3-1").empty());
  EXPECT_TRUE(parse_cpu_list("0;1").empty());
  EXPECT_TRUE(parse_cpu_list("a").empty());
}

TEST(CorePlaces, EachCpuWithoutSiblingsIsItsOwnPlace) {
  // The 2-vCPU VM whose CPUID libomp decodes as one core with two hyperthreads.
  EXPECT_EQ(core_places({0, 1}, {"0", "1"}), "{0},{1}");
}

TEST(CorePlaces, HyperthreadsOfOneCoreShareAPlaceOrderedByFirstCpu) {
  EXPECT_EQ(core_places({0, 1, 2, 3}, {"0,2", "1,3", "0,2", "1,3"}), "{0,2},{1,3}");
  EXPECT_EQ(core_places({0, 1, 16, 17}, {"0,16", "1,17", "0,16", "1,17"}), "{0,16},{1,17}");
}

TEST(CorePlaces, KeepsOnlyTheCpusTheProcessMayRunOn) {
  // taskset -c 2,3 on a machine whose cores are {0,2} and {1,3}: one CPU of each core.
  EXPECT_EQ(core_places({2, 3}, {"0,2", "1,3"}), "{2},{3}");
  EXPECT_EQ(core_places({0, 4, 5}, {"0-3", "4-7", "4-7"}), "{0},{4,5}");
}

TEST(CorePlaces, GivesNothingWhenTheTopologyCannotBeTrusted) {
  EXPECT_EQ(core_places({}, {}), "");
  EXPECT_EQ(core_places({0, 1}, {"0"}), "");
  EXPECT_EQ(core_places({0, 1}, {"0", "garbage"}), "");
  EXPECT_EQ(core_places({0, 1}, {"1", "0"}), "");  // a CPU missing from its own sibling list
}

TEST(CorePlaces, ThisMachineHasOnePlacePerCoreAtMost) {
  const std::string places = core_places_of_this_machine();
  if (places.empty()) GTEST_SKIP() << "no sysfs CPU topology here";
  EXPECT_EQ(places.front(), '{');
  EXPECT_EQ(places.back(), '}');
}

// The CPUs a process can use (core_places.h, usable_cpus): its affinity mask, fewer under a
// smaller cgroup quota, rounded up; never below one.
TEST(UsableCpus, TheAffinityMaskAndTheQuotaBoundThem) {
  EXPECT_EQ(usable_cpus(2, 0), 2);    // no quota
  EXPECT_EQ(usable_cpus(1, 0), 1);    // taskset -c 0
  EXPECT_EQ(usable_cpus(2, 1.0), 1);  // cpu.max "100000 100000"
  EXPECT_EQ(usable_cpus(2, 1.5), 2);  // one and a half CPUs: two threads still run at once
  EXPECT_EQ(usable_cpus(4, 0.5), 1);
  EXPECT_EQ(usable_cpus(0, 0), 1);
}

TEST(UsableCpus, CgroupQuotaFilesParse) {
  EXPECT_DOUBLE_EQ(cpu_quota_v2("max 100000"), 0);
  EXPECT_DOUBLE_EQ(cpu_quota_v2("150000 100000"), 1.5);
  EXPECT_DOUBLE_EQ(cpu_quota_v2("50000 100000\n"), 0.5);
  EXPECT_DOUBLE_EQ(cpu_quota_v2(""), 0);
  EXPECT_DOUBLE_EQ(cpu_quota_v2("x 100000"), 0);
  EXPECT_DOUBLE_EQ(cpu_quota_v1("-1", "100000"), 0);
  EXPECT_DOUBLE_EQ(cpu_quota_v1("100000", "100000"), 1);
  EXPECT_DOUBLE_EQ(cpu_quota_v1("", "100000"), 0);
}

}  // namespace
}  // namespace ompscope::cli
