// The bench cache (docs/tasks.md, "The bench cache"): where it lives, what a bench run puts in
// it, and that a cache measured for another build of the runtime, another CPU, or a corrupt file
// is ignored with one line, never used and never a crash.
#include "bench/core/bench_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace ompscope::bench {
namespace {

namespace fs = std::filesystem;

SeriesResult overhead(const std::string& construct, int threads, std::vector<double> samples,
                      const std::string& library = "/lib/libomp.so.5", bool oversubscribed = false) {
  SeriesResult r;
  r.construct = construct;
  r.runtime = "llvm";
  r.method = "epcc";
  r.metric = "overhead";
  r.threads = threads;
  r.oversubscribed = oversubscribed;
  r.samples_s = std::move(samples);
  r.measured_at = "2026-11-24T02:00:00Z";
  if (!library.empty()) r.details["runtime_library"] = library;
  return r;
}

class BenchCacheFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ompscope-bench-cache-test-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    file_ = dir_ / "ompscope" / "bench.json";
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write_text(const std::string& text) {
    fs::create_directories(file_.parent_path());
    std::ofstream(file_) << text;
  }
  fs::path dir_, file_;
  const CacheKey key_{"/lib/libomp.so.5", "build-id 0123abcd", "AMD EPYC 7B13", "machine-id 0a1b"};
  CachedCosts entry(const CacheKey& key, double task_s) const { return {key, 2, task_s, 70e-9, 180e-9, "2026-11-24T02:00:00Z", 0.1}; }
};

TEST(BenchCachePlace, XdgCacheHomeThenHomeDotCacheAndARelativeXdgPathIsIgnored) {
  EXPECT_EQ(bench_cache_file("/var/cache/me", "/home/me"), fs::path("/var/cache/me/ompscope/bench.json"));
  EXPECT_EQ(bench_cache_file(nullptr, "/home/me"), fs::path("/home/me/.cache/ompscope/bench.json"));
  EXPECT_EQ(bench_cache_file("relative/cache", "/home/me"), fs::path("/home/me/.cache/ompscope/bench.json"));
  EXPECT_TRUE(bench_cache_file(nullptr, nullptr).empty());
  EXPECT_TRUE(bench_cache_file("", "").empty());
}

TEST(BenchCacheCosts, TaskAndDispatchPerChunkAtTheSmallestTeamOfTwoOrMore) {
  BenchDocument doc;
  // At 1 thread, and oversubscribed at 8: not cached.
  doc.results.push_back(overhead("task", 1, {50e-9, 50e-9, 50e-9}));
  doc.results.push_back(overhead("for_static", 1, {500e-9}));
  doc.results.push_back(overhead("for_dynamic", 1, {600e-9}));
  // At 2 threads: a task 124 ns (median of three: nothing filtered), dynamic 280 ns above static
  // over the 4 chunks each thread takes: 70 ns per chunk.
  doc.results.push_back(overhead("task", 2, {100e-9, 124e-9, 200e-9}));
  doc.results.push_back(overhead("for_static", 2, {1000e-9, 1000e-9, 1000e-9}));
  doc.results.push_back(overhead("for_dynamic", 2, {1280e-9, 1280e-9, 1280e-9}));
  doc.results.push_back(overhead("task_tree", 2, {170e-9, 182e-9, 190e-9}));  // a recursive tree's task deferred
  doc.results.push_back(overhead("task", 4, {300e-9}));
  doc.results.push_back(overhead("for_static", 4, {1000e-9}));
  doc.results.push_back(overhead("for_dynamic", 4, {2000e-9}));
  doc.results.push_back(overhead("task", 8, {1e-6}, "/lib/libgomp.so.1", true));
  const std::vector<CachedCosts> costs = costs_of_bench(doc);
  ASSERT_EQ(costs.size(), 1u);
  EXPECT_EQ(costs[0].key.library, "/lib/libomp.so.5");
  EXPECT_EQ(costs[0].threads, 2);
  EXPECT_DOUBLE_EQ(costs[0].task_s, 124e-9);
  EXPECT_NEAR(costs[0].dispatch_per_chunk_s, 70e-9, 1e-18);
  EXPECT_DOUBLE_EQ(costs[0].task_tree_s, 182e-9);
  EXPECT_EQ(costs[0].measured_at, "2026-11-24T02:00:00Z");
}

TEST(BenchCacheCosts, NothingWithoutAllThreeConstructsAndNoNegativeDispatch) {
  BenchDocument partial;
  partial.results.push_back(overhead("task", 2, {124e-9}));
  partial.results.push_back(overhead("for_static", 2, {1000e-9}));
  EXPECT_TRUE(costs_of_bench(partial).empty());

  BenchDocument unnamed;  // a bench program that did not say which library it loaded
  for (const char* c : {"task", "for_static", "for_dynamic"}) unnamed.results.push_back(overhead(c, 2, {1e-7}, ""));
  EXPECT_TRUE(costs_of_bench(unnamed).empty());

  BenchDocument noisy;  // the dynamic loop measured cheaper than the static one: no dispatch cost
  noisy.results.push_back(overhead("task", 2, {124e-9}));
  noisy.results.push_back(overhead("for_static", 2, {1000e-9}));
  noisy.results.push_back(overhead("for_dynamic", 2, {900e-9}));
  const auto costs = costs_of_bench(noisy);
  ASSERT_EQ(costs.size(), 1u);
  EXPECT_EQ(costs[0].dispatch_per_chunk_s, 0);
  EXPECT_EQ(costs[0].task_tree_s, 0);  // a calibration without the tree (an older one): not measured
}

TEST_F(BenchCacheFile, AMissingCacheIsNoEntryAndNoNote) {
  std::string note = "stale";
  EXPECT_FALSE(read_cached_costs(file_, key_, note).has_value());
  EXPECT_EQ(note, "");
}

TEST_F(BenchCacheFile, WrittenThenReadForTheSameKeyOnly) {
  write_cached_costs(file_, {entry(key_, 124e-9)});
  std::string note;
  const auto got = read_cached_costs(file_, key_, note);
  ASSERT_TRUE(got.has_value()) << note;
  EXPECT_EQ(got->key, key_);
  EXPECT_EQ(got->threads, 2);
  EXPECT_DOUBLE_EQ(got->task_s, 124e-9);
  EXPECT_DOUBLE_EQ(got->dispatch_per_chunk_s, 70e-9);
  EXPECT_DOUBLE_EQ(got->task_tree_s, 180e-9);
  EXPECT_EQ(note, "");
  // Another library: no entry, nothing to say.
  EXPECT_FALSE(read_cached_costs(file_, {"/opt/llvm19/lib/libomp.so", key_.build, key_.cpu_model, key_.machine}, note));
  EXPECT_EQ(note, "");
  // Written atomically: no temporary file is left beside it.
  EXPECT_EQ(std::distance(fs::directory_iterator(file_.parent_path()), fs::directory_iterator()), 1);
}

TEST_F(BenchCacheFile, AnEntryForAnotherBuildOfTheLibraryOrAnotherCpuIsStaleAndSaidOnce) {
  write_cached_costs(file_, {entry(key_, 124e-9)});
  std::string note;
  CacheKey rebuilt = key_;
  rebuilt.build = "build-id 99999999";
  EXPECT_FALSE(read_cached_costs(file_, rebuilt, note).has_value());
  EXPECT_NE(note.find("another build of it (build-id 0123abcd, now build-id 99999999)"), std::string::npos) << note;
  EXPECT_EQ(note.find('\n'), std::string::npos) << "one line";
  CacheKey moved = key_;
  moved.cpu_model = "Intel Xeon";
  EXPECT_FALSE(read_cached_costs(file_, moved, note).has_value());
  EXPECT_NE(note.find("another CPU (AMD EPYC 7B13)"), std::string::npos) << note;
}

TEST_F(BenchCacheFile, ACorruptOrForeignFileIsIgnoredWithOneLine) {
  std::string note;
  for (const std::string text : {std::string("{\"tool\": \"ompscope-bench-cache\", \"format\": 1, \"entries\": [{\"libr"),
                                 std::string("{\"tool\": \"ompscope\", \"format\": 1, \"entries\": []}"),
                                 std::string("{\"tool\": \"ompscope-bench-cache\", \"format\": 7, \"entries\": []}"),
                                 std::string("{\"tool\": \"ompscope-bench-cache\", \"format\": \"1\"}"),
                                 std::string("[1, 2]"), std::string("")}) {
    write_text(text);
    EXPECT_FALSE(read_cached_costs(file_, key_, note).has_value()) << text;
    EXPECT_NE(note.find("ignoring the bench cache " + file_.string() + ": "), std::string::npos) << note;
    EXPECT_EQ(note.find('\n'), std::string::npos) << note;
  }
  // Figures no bench could measure: a negative task, a thread count of zero.
  for (const std::string bad : {std::string("\"threads\": 2, \"task_s\": -1e-7"), std::string("\"threads\": 0, \"task_s\": 1e-7")}) {
    write_text("{\"tool\": \"ompscope-bench-cache\", \"format\": 1, \"entries\": [{\"library\": \"/lib/libomp.so.5\", "
               "\"build\": \"build-id 0123abcd\", \"cpu_model\": \"AMD EPYC 7B13\", " + bad +
               ", \"dispatch_per_chunk_s\": 7e-8, \"measured_at\": \"x\"}]}");
    EXPECT_FALSE(read_cached_costs(file_, key_, note).has_value()) << bad;
    EXPECT_NE(note.find("ignoring the bench cache"), std::string::npos) << note;
  }
}

TEST_F(BenchCacheFile, WritingReplacesTheSameLibrarysEntryKeepsOthersAndRepairsACorruptFile) {
  write_text("not json");
  const CacheKey other{"/lib/libgomp.so.1", "build-id ffff", key_.cpu_model, key_.machine};
  write_cached_costs(file_, {entry(key_, 124e-9), entry(other, 300e-9)});
  write_cached_costs(file_, {entry(key_, 130e-9)});
  std::string note;
  const auto mine = read_cached_costs(file_, key_, note);
  ASSERT_TRUE(mine.has_value()) << note;
  EXPECT_DOUBLE_EQ(mine->task_s, 130e-9);
  const auto kept = read_cached_costs(file_, other, note);
  ASSERT_TRUE(kept.has_value()) << note;
  EXPECT_DOUBLE_EQ(kept->task_s, 300e-9);
}

TEST_F(BenchCacheFile, OneEntryPerMachineOfASharedHomeAndAnOlderUnnamedEntryIsAnotherMachines) {
  // Two machines of one CPU model share a home directory: each writes its own entry, and each
  // reads its own (issue 24: the hinted chunk changed because another process rewrote the cache).
  CacheKey there = key_;
  there.machine = "machine-id 9f9f";
  write_cached_costs(file_, {entry(key_, 124e-9)});
  write_cached_costs(file_, {entry(there, 500e-9)});
  std::string note;
  const auto here = read_cached_costs(file_, key_, note);
  ASSERT_TRUE(here.has_value()) << note;
  EXPECT_DOUBLE_EQ(here->task_s, 124e-9);
  EXPECT_EQ(note, "");
  const auto theirs = read_cached_costs(file_, there, note);
  ASSERT_TRUE(theirs.has_value()) << note;
  EXPECT_DOUBLE_EQ(theirs->task_s, 500e-9);
  // A third machine has none: the others' entries are said, once, and not used.
  CacheKey third = key_;
  third.machine = "host c";
  EXPECT_FALSE(read_cached_costs(file_, third, note).has_value());
  EXPECT_NE(note.find("another machine (machine-id"), std::string::npos) << note;
  // An entry written before entries named their machine is no machine's.
  write_text("{\"tool\": \"ompscope-bench-cache\", \"format\": 1, \"entries\": [{\"library\": \"/lib/libomp.so.5\", "
             "\"build\": \"build-id 0123abcd\", \"cpu_model\": \"AMD EPYC 7B13\", \"threads\": 2, \"task_s\": 1e-7, "
             "\"dispatch_per_chunk_s\": 7e-8, \"measured_at\": \"x\"}]}");
  EXPECT_FALSE(read_cached_costs(file_, key_, note).has_value());
  EXPECT_NE(note.find("another machine (not named: an older cache)"), std::string::npos) << note;
}

TEST(BenchCacheCosts, EachEntrySaysHowWideItsOwnSamplesSpread) {
  // The task's kept samples (the middle half of 8) span 100..300 ns around a median of 200 ns:
  // a spread of 1.0; the loops' are tight. On a busy machine the spread is what gives it away.
  BenchDocument doc;
  doc.results.push_back(overhead("task", 2, {10e-9, 20e-9, 100e-9, 150e-9, 250e-9, 300e-9, 900e-9, 990e-9}));
  doc.results.push_back(overhead("for_static", 2, {1000e-9, 1000e-9, 1000e-9}));
  doc.results.push_back(overhead("for_dynamic", 2, {1280e-9, 1280e-9, 1280e-9}));
  const std::vector<CachedCosts> costs = costs_of_bench(doc);
  ASSERT_EQ(costs.size(), 1u);
  EXPECT_NEAR(costs[0].spread, 1.0, 1e-12);
  EXPECT_FALSE(costs[0].spread > kMaxCachedSpread);  // at the limit: still cached
  doc.results[0].samples_s = {10e-9, 20e-9, 100e-9, 150e-9, 250e-9, 400e-9, 900e-9, 990e-9};
  EXPECT_TRUE(costs_of_bench(doc)[0].spread > kMaxCachedSpread);
}

TEST_F(BenchCacheFile, AnUnwritableDirectoryIsAnErrorNamingTheFileAndLeavesNoFile) {
  fs::create_directories(dir_);
  std::ofstream(dir_ / "ompscope") << "a file where the directory should be";
  EXPECT_THROW(write_cached_costs(file_, {entry(key_, 124e-9)}), std::runtime_error);
  EXPECT_FALSE(fs::exists(file_));
}

}  // namespace
}  // namespace ompscope::bench
