// The table of causes (report/causes.h): one entry per cause, each with its own kind, label and
// colour, and a kind read as text finds its entry or nothing. That every kind a diagnosis emits
// has an entry is checked when the diagnosis compiles: cause_kind_must_be_in_table (below, in
// CMake) keeps that check from being weakened.
#include "report/causes.h"

#include <gtest/gtest.h>

#include <map>
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

// The code that reads causes by family (a construct's task causes, the lock-sampling note, the
// settings verify tries, the sampled line a hint names) asks the table: each family is what its
// name says, and a cause whose time is grown work names the line that grew.
TEST(Causes, FamiliesAreTheTables) {
  std::map<CauseFamily, std::set<std::string_view>> families;
  std::set<std::string_view> grown;
  for (const Cause& c : kCauses) {
    families[c.family].insert(c.kind);
    if (c.names_grown_line) grown.insert(c.kind);
  }
  EXPECT_EQ(families[CauseFamily::kLock], (std::set<std::string_view>{"lock_contention", "lock_overhead"}));
  EXPECT_EQ(families[CauseFamily::kTask],
            (std::set<std::string_view>{"fine_grained_tasks", "coarse_grained_tasks", "task_creation_bottleneck",
                                        "dependency_bound", "task_inflation"}));
  EXPECT_EQ(families[CauseFamily::kSerial], (std::set<std::string_view>{"serial_code", "serial_blocked"}));
  EXPECT_EQ(families[CauseFamily::kWork], (std::set<std::string_view>{"work_inflation", "replicated_work", "page_faults"}));
  EXPECT_EQ(grown, (std::set<std::string_view>{"work_inflation", "replicated_work", "task_inflation"}));
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
  for (std::string_view kind : {"load_imbalance", "too_few_iterations", "barrier_overhead", "fork_join_overhead",
                                "lock_contention", "lock_overhead", "coarse_grained_tasks", "task_creation_bottleneck",
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
