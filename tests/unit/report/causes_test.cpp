// The table of causes (report/causes.h): one entry per cause, each with its own kind, label and
// colour, and a kind read as text finds its entry or nothing. That every kind a diagnosis emits
// has an entry is checked when the diagnosis compiles: cause_kind_must_be_in_table (below, in
// CMake) keeps that check from being weakened.
#include "report/causes.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace ompscope::report {
namespace {

TEST(Causes, KindsLabelsAndColoursAreEachUsedOnce) {
  std::set<std::string_view> kinds, labels, colors;
  for (const Cause& c : kCauses) {
    EXPECT_TRUE(kinds.insert(c.kind).second) << "kind " << c.kind;
    EXPECT_TRUE(labels.insert(c.label).second) << "label " << c.label;
    EXPECT_TRUE(colors.insert(c.color).second) << "colour " << c.color << " of " << c.kind;
    EXPECT_NE(c.color, kUnexplainedColor) << c.kind;
    EXPECT_FALSE(c.label.empty()) << c.kind;
  }
}

TEST(Causes, EveryKindReadAsTextFindsItsOwnEntry) {
  for (const Cause& c : kCauses) {
    const auto kind = CauseKind::from_name(c.kind);
    ASSERT_TRUE(kind.has_value()) << c.kind;
    EXPECT_EQ(kind->name(), c.kind);
    EXPECT_EQ(&kind->cause(), &c);
    EXPECT_EQ(find_cause(c.kind), &c);
  }
  EXPECT_FALSE(CauseKind::from_name("no_such_cause").has_value());
  EXPECT_EQ(find_cause(""), nullptr);
}

TEST(Causes, AKindNamedInCodeIsItsTableEntry) {
  const CauseKind k = "lock_contention";
  EXPECT_EQ(k, "lock_contention");
  EXPECT_EQ(k.cause().label, "lock contention");
  EXPECT_FALSE(k.cause().overhead);
  EXPECT_TRUE(CauseKind("fork_join_overhead").cause().overhead);
}

// The kinds the detectors of this version emit (docs/design.md, "Causes"), each with an entry;
// the issue-13 work inflation is in the table ahead of its detector.
TEST(Causes, TheDiagnosedKindsAreInTheTableWithTheirCaps) {
  for (std::string_view kind : {"load_imbalance", "barrier_overhead", "fork_join_overhead", "lock_contention",
                                "lock_overhead", "coarse_grained_tasks", "task_creation_bottleneck",
                                "work_inflation", "thread_creation", "dependency_bound", "task_inflation"}) {
    const Cause* c = find_cause(kind);
    ASSERT_NE(c, nullptr) << kind;
    EXPECT_EQ(c->cap, CauseCap::kRegionLoss) << kind;
  }
  // The runtime's per-task cost is an overhead whose gain counts against the time lost only.
  ASSERT_NE(find_cause("fine_grained_tasks"), nullptr);
  EXPECT_TRUE(find_cause("fine_grained_tasks")->overhead);
  EXPECT_EQ(find_cause("fine_grained_tasks")->cap, CauseCap::kTimeLost);
  ASSERT_NE(find_cause("serial_code"), nullptr);
  EXPECT_EQ(find_cause("serial_code")->cap, CauseCap::kSerialTime);
}

}  // namespace
}  // namespace ompscope::report
