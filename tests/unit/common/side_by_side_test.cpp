#include "common/side_by_side.h"

#include <gtest/gtest.h>

#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <latch>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace ompscope {
namespace {

TEST(SideBySide, EveryPieceRunsOnceOnAtMostTheWorkersAsked) {
  std::vector<int> runs(1000, 0);
  std::vector<std::thread::id> on(runs.size());
  side_by_side(runs.size(), 3, [&](size_t i) {
    ++runs[i];
    on[i] = std::this_thread::get_id();
  });
  for (int n : runs) EXPECT_EQ(n, 1);
  EXPECT_LE(std::set<std::thread::id>(on.begin(), on.end()).size(), 3u);
  side_by_side(0, 4, [](size_t) { FAIL() << "no piece to run"; });
  int alone = 0;
  side_by_side(2, 0, [&](size_t) { ++alone; });  // no worker asked: this thread
  EXPECT_EQ(alone, 2);
}

TEST(SideBySide, TheFirstFailureByIndexIsRethrownOnceAllEnded) {
  std::vector<int> runs(50, 0);
  try {
    side_by_side(runs.size(), 2, [&](size_t i) {
      ++runs[i];
      if (i == 7 || i == 30) throw std::runtime_error("piece " + std::to_string(i));
    });
    FAIL() << "nothing rethrown";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "piece 7");
  }
  for (int n : runs) EXPECT_EQ(n, 1);  // the others still ran
}

// scale's runs, the longest logs first: on one worker the pieces are taken in the order given,
// and the failure rethrown is still the first by index, not the first taken.
TEST(SideBySide, PiecesAreTakenInTheOrderGivenAndTheFirstFailureByIndexIsRethrown) {
  std::vector<size_t> taken;
  try {
    side_by_side(4, 1, [&](size_t i) {
      taken.push_back(i);
      if (i == 1 || i == 3) throw std::runtime_error("piece " + std::to_string(i));
    }, {3, 0, 2, 1});
    FAIL() << "nothing rethrown";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "piece 1");
  }
  EXPECT_EQ(taken, (std::vector<size_t>{3, 0, 2, 1}));
}

// Two pieces that each wait for the other run on two threads at once: the second on a helper,
// which counts the calls it served in a thread_local (a thread started anew counts 1).
int calls_served_by_the_helper_of_a_call() {
  std::latch both(2);
  int served = 0;
  const std::thread::id caller = std::this_thread::get_id();
  side_by_side(2, 2, [&](size_t) {
    both.arrive_and_wait();
    thread_local int calls = 0;
    if (std::this_thread::get_id() != caller) served = ++calls;
  });
  return served;
}

// The helpers are kept from one call to the next (a task-heavy log's figures are computed in
// hundreds of batches), a piece may itself run pieces side by side, and a helper never takes a
// signal meant for the process (it blocks them all).
TEST(SideBySide, HelpersAreKeptAcrossCallsMayNestAndBlockSignals) {
  int most = 0;
  for (int k = 0; k < 20; ++k) most = std::max(most, calls_served_by_the_helper_of_a_call());
  EXPECT_GT(most, 1);  // a helper served more than one call
  std::vector<int> inner(2 * 50, 0);
  std::vector<int> blocked(2, 0);
  const std::thread::id caller = std::this_thread::get_id();
  std::latch both(2);
  side_by_side(2, 2, [&](size_t i) {
    both.arrive_and_wait();
    side_by_side(50, 2, [&](size_t k) { ++inner[i * 50 + k]; });
    sigset_t mask;
    pthread_sigmask(SIG_BLOCK, nullptr, &mask);
    if (std::this_thread::get_id() != caller) blocked[i] = sigismember(&mask, SIGINT) && sigismember(&mask, SIGTERM) ? 1 : -1;
  });
  for (int n : inner) EXPECT_EQ(n, 1);
  EXPECT_EQ(blocked[0] + blocked[1], 1);  // the helper's piece saw every signal blocked
}

}  // namespace
}  // namespace ompscope
