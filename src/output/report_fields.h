// Tolerant reading of report.json for the writers: apart from tool, threads and regions, any
// field may be missing (a profile has one thread count, an old report lacks the extensions), so
// each accessor says "absent" instead of throwing, and the writers render what is there.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ompscope::output {

// The field if it is present and not null, else nullptr.
const nlohmann::json* field(const nlohmann::json& object, std::string_view key);

std::optional<double> number_field(const nlohmann::json& object, std::string_view key);
std::string string_field(const nlohmann::json& object, std::string_view key);

// A value of a per-thread-count map such as "time_s": {"1": 1.2, "2": 0.8} (string keys).
std::optional<double> at_threads(const nlohmann::json& object, std::string_view map_key, int threads);

// The measured thread counts, ascending: the "threads" list, or else every count that a
// per-thread-count map of the program or a region mentions.
std::vector<int> thread_counts(const nlohmann::json& report);

// Counts run with more threads than cores: "oversubscribed_threads" if given, else the counts
// above "cores" when that is known.
std::set<int> oversubscribed_threads(const nlohmann::json& report);

// "src/solver.c:42", "src/solver.c", or "" when the region has no source location.
std::string region_location(const nlohmann::json& region);

// What a run ended with: failed when it exited non-zero, died by a signal, or its status says so.
struct RunOutcome {
  bool failed = false;
  std::string description;  // "ok", "exit code 3", "killed by signal 11", or the status text
};
RunOutcome run_outcome(const nlohmann::json& run);

}  // namespace ompscope::output
