// The capture core without a runtime: per-thread logs written concurrently by real threads
// (TSan checks there is no shared mutable state), records read back in order, and a log
// that cannot grow counts its dropped events instead of failing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <thread>
#include <vector>

#include "analysis/run_log.h"
#include "capture/thread_log.h"

namespace ompscope::capture {
namespace {
namespace fs = std::filesystem;

thread_local ThreadLog t_log;

void write_events(const LogConfig& config, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    Event* e = reserve(t_log, config);
    *e = Event{1000 + i, 0, next_object_id(t_log), i, 0, 0, EventKind::Dispatch, 0};
  }
  close_thread_log(t_log, config);
}

TEST(ThreadLog, ConcurrentThreadsEachWriteTheirOwnFileAcrossManyChunks) {
  const fs::path dir = fs::temp_directory_path() / ("ompscope-capture-test-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  static std::string dir_text = dir.string();
  const LogConfig config{dir_text.c_str(), static_cast<size_t>(sysconf(_SC_PAGESIZE))};
  constexpr uint32_t kEvents = 5000;  // ~40 chunks of one page each
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) threads.emplace_back(write_events, config, kEvents);
  for (auto& t : threads) t.join();

  std::vector<uint32_t> ids;
  for (int t = 0; t < 4; ++t) {
    const auto events = analysis::read_thread_events(dir / ("thread-000" + std::to_string(t) + ".evt"));
    ASSERT_EQ(events.events.size(), kEvents);
    for (uint32_t i = 0; i < kEvents; ++i) {
      EXPECT_EQ(events.events[i].time, 1000 + i);
      EXPECT_EQ(events.events[i].id2, i);
      ids.push_back(events.events[i].id);
    }
  }
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end()) << "object ids must be unique";
  fs::remove_all(dir);
}

TEST(ThreadLog, AnUnwritableDirectoryDropsAndCountsEvents) {
  const uint64_t before = total_dropped_events();
  const LogConfig config{"/proc/no-such-dir", 4096};
  std::thread([&] { write_events(config, 1000); }).join();
  EXPECT_EQ(total_dropped_events() - before, 1000u);
}

}  // namespace
}  // namespace ompscope::capture
