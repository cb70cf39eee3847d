#include "bench/core/window_sync.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <thread>
#include <vector>

#include "bench/core/clock_offset.h"
#include "skewed_clock.h"

namespace ompscope::bench {
namespace {

TEST(WindowArithmetic, LocalAndMasterTimeConvertBothWays) {
  EXPECT_EQ(master_to_local(1000, 250), 1250u);
  EXPECT_EQ(master_to_local(1000, -250), 750u);
  EXPECT_EQ(local_to_master(master_to_local(123456789, -42), -42), 123456789u);
}

TEST(ConstructCost, FirstExitAndMeanExitAgainstTheLastEntry) {
  const std::vector<uint64_t> entries{100, 104, 102};
  const std::vector<uint64_t> exits{110, 112, 117};
  const ConstructCost c = construct_cost(entries, exits);
  EXPECT_DOUBLE_EQ(c.minimum, 6);   // 110 - 104
  EXPECT_DOUBLE_EQ(c.average, 9);   // (6 + 8 + 13) / 3
}

TEST(ConstructCost, ForkHasOneEntry) {
  const std::vector<uint64_t> fork{1000};
  const std::vector<uint64_t> thread_entries{1003, 1011};
  const ConstructCost c = construct_cost(fork, thread_entries);
  EXPECT_DOUBLE_EQ(c.minimum, 3);
  EXPECT_DOUBLE_EQ(c.average, 7);
}

TEST(ConstructCost, CanBeNegativeWhenAThreadLeftBeforeAnotherCame) {
  const std::vector<uint64_t> entries{100, 150};
  const std::vector<uint64_t> exits{120, 160};
  EXPECT_DOUBLE_EQ(construct_cost(entries, exits).minimum, -30);
}

TEST(ConstructCost, RefusesEmptyTimestamps) {
  EXPECT_THROW(construct_cost(std::vector<uint64_t>{}, std::vector<uint64_t>{1}), std::invalid_argument);
}

TEST(StartWindow, DoublesOnAMissUpToItsLimit) {
  StartWindow w(100, 350);
  EXPECT_EQ(w.start_after(1000), 1100u);
  EXPECT_TRUE(w.record(true));
  EXPECT_EQ(w.length(), 100u);
  EXPECT_FALSE(w.record(false));
  EXPECT_EQ(w.length(), 200u);
  EXPECT_FALSE(w.record(false));
  EXPECT_EQ(w.length(), 350u);
  EXPECT_FALSE(w.record(false));
  EXPECT_EQ(w.length(), 350u);
  EXPECT_EQ(w.missed(), 3);
}

TEST(StartWindow, ShrinksBackAfterARunOfSamplesInTime) {
  StartWindow w(100, 1000);
  w.record(false);
  w.record(false);
  ASSERT_EQ(w.length(), 400u);
  for (int i = 0; i < StartWindow::kShrinkAfter - 1; ++i) w.record(true);
  EXPECT_EQ(w.length(), 400u);
  w.record(true);
  EXPECT_EQ(w.length(), 200u);
  for (int i = 0; i < 4 * StartWindow::kShrinkAfter; ++i) w.record(true);
  EXPECT_EQ(w.length(), 100u);  // never below the initial length
  w.record(false);              // a miss restarts the count
  for (int i = 0; i < StartWindow::kShrinkAfter - 1; ++i) w.record(true);
  EXPECT_EQ(w.length(), 200u);
}

// Timestamps taken on skewed clocks, converted with the offsets, give the true cost.
TEST(ConstructCost, SkewedTimestampsGiveTheTrueCostAfterConversion) {
  const std::vector<int64_t> offsets{0, 5'000'000, -7'000'000};
  const std::vector<uint64_t> true_entries{10'000, 10'020, 10'010};
  const std::vector<uint64_t> true_exits{10'300, 10'320, 10'350};
  std::vector<uint64_t> entries, exits;
  for (std::size_t k = 0; k < offsets.size(); ++k) {
    const uint64_t local_entry = true_entries[k] + static_cast<uint64_t>(offsets[k]);
    const uint64_t local_exit = true_exits[k] + static_cast<uint64_t>(offsets[k]);
    entries.push_back(local_to_master(local_entry, offsets[k]));
    exits.push_back(local_to_master(local_exit, offsets[k]));
  }
  const ConstructCost c = construct_cost(entries, exits);
  EXPECT_DOUBLE_EQ(c.minimum, 280);  // 10300 - 10020
  EXPECT_DOUBLE_EQ(c.average, 910.0 / 3);  // (280 + 300 + 330) / 3
}

// The whole synchronised start on simulated skewed clocks: calibrate each worker against the
// master, let every thread wait for the agreed instant on its own clock, and check in true time
// that nobody left before it and nobody waited the skew out. Uncorrected, the thread 250 ms
// ahead would leave 250 ms early and the one 120 ms behind would leave 120 ms late.
TEST(SynchronisedStart, ThreadsWithSkewedClocksLeaveTogether) {
  const std::vector<int64_t> injected{0, 250'000'000, -120'000'000};
  const std::size_t team = injected.size();
  std::vector<OffsetEstimate> estimates(team);
  for (std::size_t k = 1; k < team; ++k) {
    PingPongChannel channel;
    testing::SkewedClock worker_clock{injected[k]};
    std::thread worker([&] { channel.run_worker(worker_clock, 100); });
    estimates[k] = estimate_offset(channel.run_master(testing::SkewedClock{0}, 100));
    worker.join();
  }

  constexpr uint64_t kWindowNs = 20'000'000;
  const uint64_t start_master = testing::SkewedClock{0}() + kWindowNs;  // master clock = true time
  std::vector<uint64_t> released_true(team);
  std::vector<std::thread> threads;
  for (std::size_t k = 0; k < team; ++k)
    threads.emplace_back([&, k] {
      const testing::SkewedClock mine{injected[k]};
      const uint64_t my_start = master_to_local(start_master, estimates[k].offset);
      spin_until([&] { return mine() >= my_start; });
      released_true[k] = testing::true_ns();
    });
  for (std::thread& t : threads) t.join();

  for (std::size_t k = 0; k < team; ++k) {
    const int64_t late = static_cast<int64_t>(released_true[k] - start_master);
    EXPECT_GE(late, -estimates[k].uncertainty - 1) << "thread " << k << " left before the agreed instant";
    // Generous: the machine is shared, a waiting thread may lose its CPU for a while.
    EXPECT_LT(late, 50'000'000) << "thread " << k << " waited far past the agreed instant";
  }
}

}  // namespace
}  // namespace ompscope::bench
