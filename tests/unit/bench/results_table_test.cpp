#include "bench/core/results_table.h"

#include <gtest/gtest.h>

#include "sample_results.h"

namespace ompscope::bench {
namespace {

TEST(ResultsTable, RuntimesSideBySideMediansInMicroseconds) {
  const std::vector<SeriesResult> results{
      testing::sample_series("barrier", "gnu", "epcc", "overhead", 2, {2.5e-7}),
      testing::sample_series("barrier", "llvm", "epcc", "overhead", 2, {1.9e-7}),
      testing::sample_series("barrier", "llvm", "direct", "min_cost", 2, {1.5e-7}),
      testing::sample_series("parallel", "llvm", "epcc", "overhead", 4, {3e-6}),
  };
  const std::string table = render_results_table(results, 2);
  // LLVM first whatever the input order; a missing measurement is a dash.
  EXPECT_LT(table.find("LLVM libomp"), table.find("GNU libgomp"));
  EXPECT_NE(table.find("barrier             2      0.190    0.150        -      0.250        -        -"),
            std::string::npos)
      << table;
  // parallel comes first (the order); 4 threads on 2 cores is marked.
  EXPECT_LT(table.find("parallel"), table.find("barrier  "));
  EXPECT_NE(table.find("4*"), std::string::npos);
  EXPECT_NE(table.find("* oversubscribed: more threads than the 2 cores"), std::string::npos);
}

TEST(ResultsTable, MarksDirectSeriesWhoseThreadsCouldNotEnterTogether) {
  std::vector<SeriesResult> results{testing::sample_series("atomic", "llvm", "direct", "min_cost", 2, {-3e-6})};
  results[0].details = {{"entries_unsynchronised", true}};
  const std::string table = render_results_table(results, 2);
  EXPECT_NE(table.find("  -3.000!"), std::string::npos) << table;
  EXPECT_NE(table.find("! threads could not enter together"), std::string::npos);
}

}  // namespace
}  // namespace ompscope::bench
