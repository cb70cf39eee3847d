// The table of causes: every cause of lost time the analysis can diagnose, with how readers see
// it and how its predicted gain is bounded. Diagnoses name a cause by its kind; renderers take its
// label and colour from here. Adding a cause is one entry below plus its detector: a detector
// that names a kind missing here does not compile (CauseKind's constructor is consteval).
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <ostream>
#include <string_view>

namespace ompscope::report {

// How a cause's gain is bounded (docs/design.md, "Causes and their gains").
enum class CauseCap {
  // With the region's other causes: together they are scaled down to the region's time lost plus
  // its overheads (the causes that cost at any thread count), and never above the region's time.
  kRegionLoss,
  // On its own: the program's serial time × (1 − 1/t), what running that code in parallel could win.
  kSerialTime,
  // Like kRegionLoss, but an overhead capped so brings no allowance of its own: its gain counts
  // against the region's time lost only, so that the loss still adds up (gains + unexplained).
  // What it would save beyond the loss (it costs at t0 too) stays in its details.
  kTimeLost,
};

// What a cause is about: the code that reads causes by family (a construct's task causes, the
// lock causes' sampling note, the settings `verify` tries) asks the table, never a list of kinds.
enum class CauseFamily { kSynchronisation, kLock, kTask, kWork, kSerial };

struct Cause {
  std::string_view kind;   // as report.json spells it, e.g. "load_imbalance"
  std::string_view label;  // for readers, e.g. "load imbalance"
  std::string_view color;  // CSS colour of its bars, legend swatch and hint rows
  CauseFamily family;
  bool overhead;           // costs time at any thread count, 1 included (so it may exceed the time lost)
  CauseCap cap;
  // What Problem::time_s (the Y of "gain X of Y") measures: the region's wall time, or thread
  // time summed over the team (which can exceed the region's time). Gains are always wall time.
  bool time_in_thread_seconds = false;
  // Its time is work that grew from the smallest count: its hint names the sampled line that grew
  // out of proportion (analysis/sampled_findings.h).
  bool names_grown_line = false;
};

// In the order bars stack them: synchronisation first, then tasks, then work, then serial code.
// Colours: Tableau 10 (distinct on white and for most colour-vision deficiencies), then Tableau 20.
inline constexpr std::array kCauses{
    Cause{"load_imbalance", "load imbalance", "#e15759", CauseFamily::kSynchronisation, false, CauseCap::kRegionLoss},
    Cause{"too_few_iterations", "too few iterations", "#ffbe7d", CauseFamily::kSynchronisation, false, CauseCap::kRegionLoss},
    Cause{"barrier_overhead", "barrier overhead", "#f28e2b", CauseFamily::kSynchronisation, true, CauseCap::kRegionLoss},
    Cause{"fork_join_overhead", "fork/join overhead", "#edc948", CauseFamily::kSynchronisation, true, CauseCap::kRegionLoss},
    Cause{"thread_creation", "thread creation", "#d4a6c8", CauseFamily::kSynchronisation, true, CauseCap::kRegionLoss},
    Cause{"lock_contention", "lock contention", "#b07aa1", CauseFamily::kLock, false, CauseCap::kRegionLoss, true},
    Cause{"lock_overhead", "lock overhead", "#ff9da7", CauseFamily::kLock, true, CauseCap::kRegionLoss, true},
    Cause{"fine_grained_tasks", "fine-grained tasks", "#4e79a7", CauseFamily::kTask, true, CauseCap::kTimeLost, true},
    Cause{"coarse_grained_tasks", "coarse-grained tasks", "#76b7b2", CauseFamily::kTask, false, CauseCap::kRegionLoss, true},
    Cause{"task_creation_bottleneck", "task creation bottleneck", "#59a14f", CauseFamily::kTask, false, CauseCap::kRegionLoss, true},
    Cause{"work_inflation", "work inflation", "#b6992d", CauseFamily::kWork, false, CauseCap::kRegionLoss, true, true},
    Cause{"serial_code", "serial code", "#9c755f", CauseFamily::kSerial, false, CauseCap::kSerialTime},
    Cause{"dependency_bound", "dependency-bound tasks", "#499894", CauseFamily::kTask, false, CauseCap::kRegionLoss, true},
    Cause{"task_inflation", "task inflation", "#d37295", CauseFamily::kTask, false, CauseCap::kRegionLoss, true, true},
    Cause{"page_faults", "page faults", "#a0cbe8", CauseFamily::kWork, true, CauseCap::kRegionLoss, true},
    Cause{"replicated_work", "replicated work", "#86bcb6", CauseFamily::kWork, false, CauseCap::kRegionLoss, true, true},
    Cause{"serial_blocked", "waiting outside regions", "#79706e", CauseFamily::kSerial, false, CauseCap::kSerialTime},
};

// The colour of what no cause explains (kept apart from every cause's colour).
inline constexpr std::string_view kUnexplainedColor = "#bab0ac";

// A kind of cause that is known to be in the table. From a string literal it is checked at compile
// time (Problem{"load_imbalance", ...}); from text read at run time, through from_name.
class CauseKind {
 public:
  consteval CauseKind(const char* kind) : index_(index_of(kind)) {}  // NOLINT: implicit on purpose

  static std::optional<CauseKind> from_name(std::string_view kind) {
    for (std::size_t i = 0; i < kCauses.size(); ++i)
      if (kCauses[i].kind == kind) return CauseKind(i);
    return std::nullopt;
  }

  constexpr const Cause& cause() const { return kCauses[index_]; }
  constexpr std::string_view name() const { return kCauses[index_].kind; }

  friend constexpr bool operator==(CauseKind a, std::string_view b) { return a.name() == b; }
  friend std::ostream& operator<<(std::ostream& os, CauseKind k) { return os << k.name(); }

 private:
  explicit constexpr CauseKind(std::size_t index) : index_(index) {}
  static consteval std::size_t index_of(std::string_view kind) {
    for (std::size_t i = 0; i < kCauses.size(); ++i)
      if (kCauses[i].kind == kind) return i;
    throw "a cause kind missing from kCauses in report/causes.h";  // a compile error in a consteval call
  }
  std::size_t index_;
};

// The entry of a kind read as text (report.json); null where this version has no such cause.
inline const Cause* find_cause(std::string_view kind) {
  const auto k = CauseKind::from_name(kind);
  return k ? &k->cause() : nullptr;
}

}  // namespace ompscope::report
