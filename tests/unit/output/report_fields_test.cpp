#include "output/report_fields.h"

#include <gtest/gtest.h>

namespace ompscope::output {
namespace {

using nlohmann::json;

TEST(ReportFields, AbsentNullAndMistypedFieldsReadAsAbsent) {
  const json object = {{"a", nullptr}, {"b", "text"}, {"c", 2.5}};
  EXPECT_EQ(field(object, "a"), nullptr);
  EXPECT_EQ(field(object, "missing"), nullptr);
  EXPECT_EQ(number_field(object, "b"), std::nullopt);
  EXPECT_EQ(number_field(object, "c"), 2.5);
  EXPECT_EQ(string_field(object, "b"), "text");
  EXPECT_EQ(string_field(object, "missing"), "");
  EXPECT_EQ(number_field(json::array(), "c"), std::nullopt);
}

TEST(ReportFields, PerThreadMapsAreKeyedByTheCountAsAString) {
  const json region = {{"time_s", {{"1", 1.1}, {"2", 0.75}}}};
  EXPECT_EQ(at_threads(region, "time_s", 2), 0.75);
  EXPECT_EQ(at_threads(region, "time_s", 4), std::nullopt);
  EXPECT_EQ(at_threads(region, "efficiency", 1), std::nullopt);
}

TEST(ThreadCounts, ComeFromTheThreadsListInAscendingOrder) {
  EXPECT_EQ(thread_counts(json{{"threads", {8, 1, 2, 2}}}), (std::vector<int>{1, 2, 8}));
}

TEST(ThreadCounts, FallBackToTheKeysOfTheTimeMaps) {
  const json report = {{"program", {{"time_s", {{"10", 1.0}, {"2", 2.0}}}}},
                       {"regions", {{{"time_s", {{"4", 1.0}, {"not-a-count", 1.0}}}}}}};
  EXPECT_EQ(thread_counts(report), (std::vector<int>{2, 4, 10}));
}

TEST(OversubscribedThreads, AreTheListedOnesWhenGiven) {
  EXPECT_EQ(oversubscribed_threads(json{{"threads", {1, 2, 4}}, {"cores", 1}, {"oversubscribed_threads", {4}}}),
            (std::set<int>{4}));
}

TEST(OversubscribedThreads, AreTheCountsAboveTheCoresOtherwise) {
  EXPECT_EQ(oversubscribed_threads(json{{"threads", {1, 2, 4, 8}}, {"cores", 2}}), (std::set<int>{4, 8}));
  EXPECT_TRUE(oversubscribed_threads(json{{"threads", {1, 2, 4}}}).empty());
}

TEST(RegionLocation, JoinsFileAndLine) {
  EXPECT_EQ(region_location(json{{"file", "src/solver.c"}, {"line", 42}}), "src/solver.c:42");
  EXPECT_EQ(region_location(json{{"file", "src/solver.c"}}), "src/solver.c");
  EXPECT_EQ(region_location(json{{"line", 42}}), "");
}

TEST(RunOutcome, SaysWhyARunFailed) {
  EXPECT_FALSE(run_outcome(json{{"exit_code", 0}, {"signal", nullptr}, {"status", "ok"}}).failed);
  EXPECT_FALSE(run_outcome(json::object()).failed);

  const RunOutcome exited = run_outcome(json{{"exit_code", 3}});
  EXPECT_TRUE(exited.failed);
  EXPECT_EQ(exited.description, "exit code 3");

  const RunOutcome killed = run_outcome(json{{"exit_code", nullptr}, {"signal", 11}, {"status", "signal"}});
  EXPECT_TRUE(killed.failed);
  EXPECT_EQ(killed.description, "killed by signal 11");

  const RunOutcome timed_out = run_outcome(json{{"exit_code", 0}, {"status", "timeout"}});
  EXPECT_TRUE(timed_out.failed);
  EXPECT_EQ(timed_out.description, "timeout");
}

}  // namespace
}  // namespace ompscope::output
