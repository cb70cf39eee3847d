// How parts of a report read in every format: function names without their parameter lists,
// runs' outcomes, and notes of one kind as one sentence.
#include "output/report_view.h"

#include <gtest/gtest.h>

namespace ompscope::output {
namespace {

TEST(ShortFunction, DropsTheParameterListAndWhatFollowsIt) {
  EXPECT_EQ(short_function("solve(double*, int)"), "solve");
  EXPECT_EQ(short_function("ns::Grid::step(std::vector<double, std::allocator<double> >&) const"), "ns::Grid::step");
  EXPECT_EQ(short_function("void solve<std::vector<int>>(int)"), "void solve<std::vector<int>>");
  EXPECT_EQ(short_function("f(void (*)(int))"), "f");  // parentheses inside the parameters
  EXPECT_EQ(short_function("run()::$_0::operator()(int) const"), "run()::$_0::operator()");
}

TEST(ShortFunction, LeavesNamesThatAreNotSignaturesAlone) {
  EXPECT_EQ(short_function("main"), "main");
  EXPECT_EQ(short_function("(outside parallel regions)"), "(outside parallel regions)");
  EXPECT_EQ(short_function("MAIN__"), "MAIN__");
  EXPECT_EQ(short_function(""), "");
}

TEST(RunOutcome, SaysWhatEndedARun) {
  report::RunRecord run;
  EXPECT_EQ(run_outcome(run), "ok");
  run.exit_code = 3;
  EXPECT_EQ(run_outcome(run), "exit code 3");
  run.signal = 11;
  EXPECT_EQ(run_outcome(run), "killed by signal 11");
  run.signal = 9;
  run.status = "killed by SIGKILL (Killed); nothing captured before SIGKILL";
  EXPECT_EQ(run_outcome(run), "killed by signal 9; nothing captured before SIGKILL");
}

TEST(NoteSentence, NamesWhatANoteIsAboutUpToALimit) {
  const report::Note note{"sampled_instances", "adaptive sampling: recorded in part", {"r1: a", "r2: b", "r3: c"}};
  EXPECT_EQ(note_sentence(note), "adaptive sampling: recorded in part: r1: a; r2: b; r3: c");
  EXPECT_EQ(note_sentence(note, 2), "adaptive sampling: recorded in part: r1: a; r2: b; and 1 more (report.json)");
  EXPECT_EQ(note_sentence({"binding", "runs were bound", {}}), "runs were bound");
}

}  // namespace
}  // namespace ompscope::output
