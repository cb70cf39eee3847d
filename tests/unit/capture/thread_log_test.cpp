// The capture core without a runtime: per-thread logs written concurrently by real threads
// through the writer thread (TSan checks the hand-offs), records read back in order, logs that
// are still open written out by the flushes at exit and on fatal signals, and a log that cannot
// grow counting its dropped events instead of failing.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <x86intrin.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <thread>
#include <vector>

#include "analysis/run_log.h"
#include "capture/dependence_records.h"
#include "capture/fatal_signal_flush.h"
#include "capture/thread_log.h"

namespace ompscope::capture {
namespace {
namespace fs = std::filesystem;

thread_local ThreadLog t_log;

void append_numbered(const LogConfig& config, uint32_t first, uint32_t count) {
  for (uint32_t i = first; i < first + count; ++i) {
    Event* e = reserve(t_log, config);
    *e = Event{1000 + i, 0, next_object_id(t_log), i, 0, 0, EventKind::Dispatch, 0};
  }
}

void write_events(const LogConfig& config, uint32_t count) {
  append_numbered(config, 0, count);
  close_thread_log(t_log, config);
}

// Checks that `file` holds events numbered 0..count-1 in order, as append_numbered wrote them.
void expect_numbered(const fs::path& file, uint32_t count) {
  const auto events = analysis::read_thread_events(file);
  ASSERT_EQ(events.events.size(), count) << file;
  for (uint32_t i = 0; i < count; ++i) {
    ASSERT_EQ(events.events[i].time, 1000 + i) << file << " event " << i;
    ASSERT_EQ(events.events[i].id2, i) << file << " event " << i;
  }
}

class ThreadLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ompscope-capture-test-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    dir_text_ = dir_.string();
  }
  void TearDown() override { fs::remove_all(dir_); }
  // Chunks of one page (128 events): every few events go through the writer thread.
  LogConfig page_chunks() const { return LogConfig{dir_text_.c_str(), static_cast<size_t>(sysconf(_SC_PAGESIZE))}; }
  fs::path only_file() const {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir_)) files.push_back(entry.path());
    return files.size() == 1 ? files.front() : fs::path();
  }

  fs::path dir_;
  std::string dir_text_;
};

TEST_F(ThreadLogTest, ConcurrentThreadsEachWriteTheirOwnFileAcrossManyChunks) {
  constexpr uint32_t kEvents = 5000;  // ~40 chunks of one page each
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) threads.emplace_back(write_events, page_chunks(), kEvents);
  for (auto& t : threads) t.join();

  std::vector<uint32_t> ids;
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    expect_numbered(entry.path(), kEvents);
    for (const Event& e : analysis::read_thread_events(entry.path()).events) ids.push_back(e.id);
    ++files;
  }
  EXPECT_EQ(files, 4);
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end()) << "object ids must be unique";
}

TEST_F(ThreadLogTest, ADependClauseIsWrittenTwoItemsARecordUnderOneTimestamp) {
  // Three items of task 77's clause: two records, both at the callback's time; the second
  // item's address in id2 (low) and arg (high), the types in arg2's two bytes.
  const LogConfig config = page_chunks();
  std::thread([&] {
    DependenceWriter clause(t_log, config, 5000, 77);
    clause.add(0x1000, 1);          // in
    clause.add(0x7fff00002008, 3);  // inout
    clause.add(0x3000, 2);          // out
    clause.finish();
    close_thread_log(t_log, config);
  }).join();
  const auto events = analysis::read_thread_events(only_file()).events;
  ASSERT_EQ(events.size(), 2u);
  for (const Event& e : events) {
    EXPECT_EQ(e.kind, EventKind::TaskDependences);
    EXPECT_EQ(e.time, 5000u);
    EXPECT_EQ(e.id, 77u);
  }
  EXPECT_EQ(events[0].detail, 2);
  EXPECT_EQ(events[0].codeptr, 0x1000u);
  EXPECT_EQ((uint64_t{events[0].arg} << 32) | events[0].id2, 0x7fff00002008u);
  EXPECT_EQ(events[0].arg2, 1 | (3 << 8));
  EXPECT_EQ(events[1].detail, 1);
  EXPECT_EQ(events[1].codeptr, 0x3000u);
  EXPECT_EQ(events[1].arg2, 2);
}

TEST_F(ThreadLogTest, ChunksFaultedInPieceByPieceHoldEveryEventInOrder) {
  // 1 MiB chunks (the tool's default) are populated 64 KiB first, then doubling: 100 000 events
  // (3 MiB) cross each step of the first chunk, two hand-offs and the steps of the next chunks.
  const LogConfig config{dir_text_.c_str()};
  constexpr uint32_t kEvents = 100000;
  std::thread(write_events, config, kEvents).join();
  expect_numbered(only_file(), kEvents);
}

TEST_F(ThreadLogTest, FlushAtExitWritesALogThatIsStillOpenAndItKeepsGrowing) {
  const LogConfig config = page_chunks();
  std::thread([&] {
    append_numbered(config, 0, 1000);  // 7 full chunks and a partial one, not closed
    flush_all_logs();
    expect_numbered(only_file(), 1000);
    append_numbered(config, 1000, 500);
    close_thread_log(t_log, config);
  }).join();
  expect_numbered(only_file(), 1500);
}

TEST_F(ThreadLogTest, AFatalSignalWritesEveryOpenLogBeforeTheProgramDies) {
  const LogConfig config = page_chunks();
  EXPECT_EXIT(
      {
        install_fatal_signal_flush(nullptr);
        append_numbered(config, 0, 1000);
        abort();
      },
      ::testing::KilledBySignal(SIGABRT), "");
  expect_numbered(only_file(), 1000);
}

TEST_F(ThreadLogTest, AFullDiskStopsTheLogAndCountsEveryDroppedEvent) {
  const LogConfig config = page_chunks();
  // A file size limit behaves like a full disk: writes past it fail (EFBIG), no root needed.
  const auto write_past_the_limit = [&] {
    signal(SIGXFSZ, SIG_IGN);
    rlimit limit{};
    limit.rlim_cur = limit.rlim_max = 16 * 4096;
    setrlimit(RLIMIT_FSIZE, &limit);
    write_events(config, 10000);
    const auto kept = analysis::read_thread_events(only_file()).events.size();
    // Whatever reached the file is a readable prefix; the rest is counted, nothing vanishes.
    const bool accounted = kept > 0 && kept + total_dropped_events() == 10000;
    if (!accounted) fprintf(stderr, "kept %zu dropped %llu\n", kept, static_cast<unsigned long long>(total_dropped_events()));
    exit(accounted ? 0 : 1);
  };
  EXPECT_EXIT(write_past_the_limit(), ::testing::ExitedWithCode(0), "");
}

TEST(ThreadLog, AnUnwritableDirectoryDropsAndCountsEvents) {
  const uint64_t before = total_dropped_events();
  const LogConfig config{"/proc/no-such-dir", 4096};
  std::thread([&] { write_events(config, 1000); }).join();
  EXPECT_EQ(total_dropped_events() - before, 1000u);
}


// Where the log's pages are faulted in, a record's store costs what a store costs: no fault, from
// the guest kernel or from a hypervisor that backs a guest page only at its first access (on a
// Firecracker VM MADV_POPULATE_WRITE alone left 4.6 us of the 10.7 us fault to the first store).
// A ratio within one run: the median first store into 256 faulted-in pages against the median
// first store into 256 fresh ones, interleaved; huge pages off in both, so that each fresh page
// takes its own fault.
TEST(FaultInPages, AFirstStoreIntoAFaultedInPageCostsFarLessThanAPageFault) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE)), pages = 256, bytes = pages * page;
  auto map = [&] {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(p, MAP_FAILED);
    madvise(p, bytes, MADV_NOHUGEPAGE);
    return static_cast<volatile char*>(p);
  };
  volatile char* prepared = map();
  volatile char* fresh = map();
  ASSERT_TRUE(fault_in_pages(const_cast<char*>(prepared), bytes));
  // In TSC ticks, not a clock call: where clock_gettime is a system call (a VM without a vDSO
  // clock) the call would take longer than the store it times.
  auto timed_store = [](volatile char* at) {
    unsigned aux;
    const uint64_t begin = __rdtsc();
    *at = 1;
    return static_cast<double>(__rdtscp(&aux) - begin);
  };
  std::vector<double> into_prepared, into_fresh;
  for (size_t i = 0; i < pages; ++i) {
    into_prepared.push_back(timed_store(prepared + i * page + 64));
    into_fresh.push_back(timed_store(fresh + i * page + 64));
  }
  auto median = [](std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  };
  const double prepared_ticks = median(into_prepared), fault_ticks = median(into_fresh);
  printf("first store: %.0f ticks into a faulted-in page, %.0f into a fresh one (margin x%.1f over the bound of a fifth)\n",
         prepared_ticks, fault_ticks, fault_ticks / 5 / prepared_ticks);
  EXPECT_LT(prepared_ticks, fault_ticks / 5);
  munmap(const_cast<char*>(prepared), bytes);
  munmap(const_cast<char*>(fresh), bytes);
}

}  // namespace
}  // namespace ompscope::capture
