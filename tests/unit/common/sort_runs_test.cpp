// stable_sort_runs (common/sort_runs.h): the order std::stable_sort gives, equal keys in their
// order, whatever the runs: one, two, an odd number, many (its fallback), none, epochs of two runs
// that follow each other in order; and the records
// moved along the permutation (stable_sort_runs_in_place) end where it puts them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "common/sort_runs.h"

namespace ompscope {
namespace {

struct Record {
  int key;
  int order;  // its place before sorting: equal keys must keep it
  bool operator==(const Record&) const = default;
};

bool by_key(const Record& a, const Record& b) { return a.key < b.key; }

// `runs` runs in order, of random lengths, keys from a small range (many ties).
std::vector<Record> runs_of(size_t runs, size_t each, uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<Record> out;
  for (size_t r = 0; r < runs; ++r) {
    std::vector<int> keys(1 + random() % (2 * each));
    for (int& k : keys) k = static_cast<int>(random() % 50);
    std::sort(keys.begin(), keys.end());
    for (int k : keys) out.push_back({k, static_cast<int>(out.size())});
  }
  return out;
}

void expect_as_stable_sort(std::vector<Record> records) {
  std::vector<Record> want = records;
  std::stable_sort(want.begin(), want.end(), by_key);
  stable_sort_runs(records.begin(), records.end(), by_key);
  EXPECT_EQ(records, want);
}

TEST(StableSortRuns, GivesStableSortsOrderForAnyNumberOfRuns) {
  for (size_t runs : {0, 1, 2, 3, 5, 8, 13}) {
    SCOPED_TRACE(runs);
    for (uint32_t seed = 1; seed <= 5; ++seed) expect_as_stable_sort(runs_of(runs, 200, seed));
  }
}

// A walk in epochs appends each epoch's records thread by thread: two runs an epoch, the epochs in
// order, a key shared across an epoch's end (equal keys keep their order where two runs already in
// order are left unmerged).
TEST(StableSortRuns, EpochsOfTwoRunsEachInOrder) {
  std::mt19937 random(5);
  std::vector<Record> records;
  size_t descents = 0;
  for (int epoch = 0; epoch < 300; ++epoch)
    for (int thread = 0; thread < 2; ++thread) {
      std::vector<int> keys(20 + random() % 20);  // more than 16 records a run: merged, not stable_sort's
      for (int& k : keys) k = epoch * 100 + static_cast<int>(random() % 101);
      std::sort(keys.begin(), keys.end());
      for (int k : keys) {
        descents += !records.empty() && k < records.back().key;
        records.push_back({k, static_cast<int>(records.size())});
      }
    }
  ASSERT_GT(descents, 200u);
  expect_as_stable_sort(records);
}

TEST(StableSortRuns, RecordsInNoOrderFallBackToStableSort) {
  std::mt19937 random(7);
  std::vector<Record> records(5000);
  for (size_t i = 0; i < records.size(); ++i) records[i] = {static_cast<int>(random() % 100), static_cast<int>(i)};
  expect_as_stable_sort(records);
  expect_as_stable_sort({{3, 0}, {1, 1}});
  expect_as_stable_sort({{1, 0}});
}

TEST(StableSortRunsInPlace, MovesEachRecordToWhereStableSortPutsIt) {
  for (size_t runs : {0, 1, 2, 3, 7}) {
    SCOPED_TRACE(runs);
    std::vector<Record> records = runs_of(runs, 300, 11);
    std::vector<Record> want = records;
    std::stable_sort(want.begin(), want.end(), by_key);
    stable_sort_runs_in_place(records, by_key);
    EXPECT_EQ(records, want);
  }
  std::mt19937 random(3);
  std::vector<Record> shuffled(2000);
  for (size_t i = 0; i < shuffled.size(); ++i) shuffled[i] = {static_cast<int>(random() % 30), static_cast<int>(i)};
  std::vector<Record> want = shuffled;
  std::stable_sort(want.begin(), want.end(), by_key);
  stable_sort_runs_in_place(shuffled, by_key);
  EXPECT_EQ(shuffled, want);
}

}  // namespace
}  // namespace ompscope
