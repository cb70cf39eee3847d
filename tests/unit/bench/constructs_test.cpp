#include "bench/core/constructs.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace ompscope::bench {
namespace {

TEST(Constructs, TheTwelveNamesOfTheIssueInItsOrderThenTheTaskTree) {
  EXPECT_EQ(construct_names_joined(","),
            "parallel,barrier,single,for_static,for_dynamic,for_guided,firstprivate,critical,lock,atomic,"
            "reduction,task,task_tree");
  for (const ConstructInfo& info : all_constructs()) EXPECT_EQ(&construct_info(info.id), &info);
}

TEST(ParseConstructList, KeepsTheGivenOrderWithoutDuplicates) {
  EXPECT_EQ(parse_construct_list("task, barrier,task,"),
            (std::vector<Construct>{Construct::Task, Construct::Barrier}));
}

TEST(ParseConstructList, AllMeansEveryConstruct) {
  EXPECT_EQ(parse_construct_list("all").size(), all_constructs().size());
}

TEST(ParseConstructList, NamesTheUnknownEntryAndTheKnownOnes) {
  try {
    parse_construct_list("barrier,ordered");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'ordered'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("for_guided"), std::string::npos);
  }
  EXPECT_THROW(parse_construct_list(" , "), std::invalid_argument);
}

}  // namespace
}  // namespace ompscope::bench
