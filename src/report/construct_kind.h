// The kinds of construct a region's construct tree holds (docs/source-locations.md, "Constructs
// inside a region"), with what the code reads of each: its name in report.json, the phrase a hint
// names it by, whether it shares out work or excludes other threads.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ompscope::report {

enum class ConstructKind : uint8_t {
  kLoop, kSections, kSingle, kWorkshare, kDistribute, kTaskloop, kScope, kMasked,  // worksharing
  kBarrier, kJoinBarrier, kTaskwait, kTaskgroup,                                   // synchronisation
  kCritical, kLock, kNestLock, kAtomic, kOrdered,                                  // mutual exclusion
  kTask,  // the tasks created at one site, under the barrier or taskwait they ran in
};

struct ConstructKindInfo {
  ConstructKind kind;
  std::string_view name;    // as report.json spells it
  std::string_view phrase;  // "the loop": how a hint names it
  bool worksharing;         // shares the region's work out (a team construct; masked and taskloop too)
  bool mutual_exclusion;    // one thread at a time (a lock's causes are its)
};

inline constexpr std::array kConstructKinds{
    ConstructKindInfo{ConstructKind::kLoop, "loop", "the loop", true, false},
    ConstructKindInfo{ConstructKind::kSections, "sections", "the sections", true, false},
    ConstructKindInfo{ConstructKind::kSingle, "single", "the single construct", true, false},
    ConstructKindInfo{ConstructKind::kWorkshare, "workshare", "the workshare", true, false},
    ConstructKindInfo{ConstructKind::kDistribute, "distribute", "the distribute loop", true, false},
    ConstructKindInfo{ConstructKind::kTaskloop, "taskloop", "the taskloop", true, false},
    ConstructKindInfo{ConstructKind::kScope, "scope", "the scope", true, false},
    ConstructKindInfo{ConstructKind::kMasked, "masked", "the masked construct", true, false},
    ConstructKindInfo{ConstructKind::kBarrier, "barrier", "the barrier", false, false},
    ConstructKindInfo{ConstructKind::kJoinBarrier, "join_barrier", "the barrier at the region's end", false, false},
    ConstructKindInfo{ConstructKind::kTaskwait, "taskwait", "the taskwait", false, false},
    ConstructKindInfo{ConstructKind::kTaskgroup, "taskgroup", "the taskgroup", false, false},
    ConstructKindInfo{ConstructKind::kCritical, "critical", "the critical section", false, true},
    ConstructKindInfo{ConstructKind::kLock, "lock", "the lock taken", false, true},
    ConstructKindInfo{ConstructKind::kNestLock, "nest_lock", "the nest lock taken", false, true},
    ConstructKindInfo{ConstructKind::kAtomic, "atomic", "the atomic", false, true},
    ConstructKindInfo{ConstructKind::kOrdered, "ordered", "the ordered construct", false, true},
    ConstructKindInfo{ConstructKind::kTask, "task", "the tasks created", false, false},
};

// In the enum's order: info() indexes by kind.
static_assert([] {
  for (size_t i = 0; i < kConstructKinds.size(); ++i)
    if (static_cast<size_t>(kConstructKinds[i].kind) != i) return false;
  return true;
}());

constexpr const ConstructKindInfo& info(ConstructKind kind) { return kConstructKinds[static_cast<size_t>(kind)]; }
constexpr std::string_view to_string(ConstructKind kind) { return info(kind).name; }

// The kind spelled `name`; none for any other text.
constexpr std::optional<ConstructKind> construct_kind_from_string(std::string_view name) {
  for (const ConstructKindInfo& k : kConstructKinds)
    if (k.name == name) return k.kind;
  return std::nullopt;
}

}  // namespace ompscope::report
