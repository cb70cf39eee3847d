// The bench cache's key on this machine (docs/tasks.md, "The bench cache"): a runtime library is
// known by its build id, or by its size and modification time where it has none; the CPU by its
// model name.
#include "cli/bench_costs.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace ompscope::cli {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  return fs::temp_directory_path() / ("ompscope-bench-costs-test-" + std::to_string(getpid()) + "-" + name);
}

TEST(BenchCacheKey, ALibraryWithABuildIdIsKnownByIt) {
  // This test program is linked with a build id (the toolchain's default here).
  const std::string id = library_identity("/proc/self/exe");
  ASSERT_TRUE(id.starts_with("build-id ")) << id;
  EXPECT_EQ(id.size(), std::string("build-id ").size() + 40) << "20 bytes in hex: " << id;
}

TEST(BenchCacheKey, AFileWithoutOneIsKnownBySizeAndTimeAndChangesWithThem) {
  const fs::path file = scratch("plain");
  std::ofstream(file) << "12345";
  fs::last_write_time(file, fs::file_time_type(std::chrono::seconds(1700000000)));
  const std::string before = library_identity(file);
  EXPECT_TRUE(before.starts_with("size 5 mtime ")) << before;
  std::ofstream(file, std::ios::app) << "6";
  fs::last_write_time(file, fs::file_time_type(std::chrono::seconds(1700000000)));
  EXPECT_NE(library_identity(file), before);
  fs::remove(file);
  EXPECT_EQ(library_identity(file), "");
}

TEST(BenchCacheKey, TheCpuIsItsModelName) {
  const fs::path file = scratch("cpuinfo");
  std::ofstream(file) << "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13 64-Core Processor\n"
                         "processor\t: 1\nmodel name\t: AMD EPYC 7B13 64-Core Processor\n";
  EXPECT_EQ(cpu_model(file), "AMD EPYC 7B13 64-Core Processor");
  std::ofstream(file) << "processor\t: 0\nCPU implementer\t: 0x41\n";  // no model name (some ARM kernels)
  EXPECT_EQ(cpu_model(file), "unknown CPU");
  fs::remove(file);
}

TEST(BenchCacheKey, TheLibraryIsKeyedByItsResolvedPath) {
  const fs::path target = scratch("libomp.so"), link = scratch("libomp.so.5");
  std::ofstream(target) << "x";
  fs::remove(link);
  fs::create_symlink(target, link);
  EXPECT_EQ(bench_cache_key(link.string()).library, fs::canonical(target).string());
  fs::remove(link);
  fs::remove(target);
}

}  // namespace
}  // namespace ompscope::cli
