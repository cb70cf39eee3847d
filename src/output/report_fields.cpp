#include "output/report_fields.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace ompscope::output {

using nlohmann::json;

const json* field(const json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return nullptr;
  return &*found;
}

std::optional<double> number_field(const json& object, std::string_view key) {
  const json* value = field(object, key);
  if (value == nullptr || !value->is_number()) return std::nullopt;
  return value->get<double>();
}

std::string string_field(const json& object, std::string_view key) {
  const json* value = field(object, key);
  if (value == nullptr) return {};
  if (value->is_string()) return value->get<std::string>();
  return value->dump();
}

std::optional<double> at_threads(const json& object, std::string_view map_key, int threads) {
  const json* map = field(object, map_key);
  if (map == nullptr) return std::nullopt;
  return number_field(*map, std::to_string(threads));
}

namespace {

void add_counts_from_keys(const json& object, std::string_view map_key, std::set<int>& counts) {
  const json* map = field(object, map_key);
  if (map == nullptr || !map->is_object()) return;
  for (const auto& [key, value] : map->items()) {
    int threads = 0;
    const auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), threads);
    if (error == std::errc() && end == key.data() + key.size() && threads > 0) counts.insert(threads);
  }
}

std::set<int> integers_in(const json* list) {
  std::set<int> integers;
  if (list == nullptr || !list->is_array()) return integers;
  for (const json& item : *list)
    if (item.is_number_integer() && item.get<int>() > 0) integers.insert(item.get<int>());
  return integers;
}

}  // namespace

std::vector<int> thread_counts(const json& report) {
  std::set<int> counts = integers_in(field(report, "threads"));
  if (counts.empty()) {
    if (const json* program = field(report, "program")) add_counts_from_keys(*program, "time_s", counts);
    if (const json* regions = field(report, "regions"); regions != nullptr && regions->is_array())
      for (const json& region : *regions) add_counts_from_keys(region, "time_s", counts);
  }
  return {counts.begin(), counts.end()};
}

std::set<int> oversubscribed_threads(const json& report) {
  if (const json* listed = field(report, "oversubscribed_threads")) return integers_in(listed);
  std::set<int> above_cores;
  if (const auto cores = number_field(report, "cores"); cores && *cores > 0)
    for (int threads : thread_counts(report))
      if (threads > *cores) above_cores.insert(threads);
  return above_cores;
}

std::string region_location(const json& region) {
  std::string location = string_field(region, "file");
  if (const auto line = number_field(region, "line"); line && !location.empty())
    location += fmt::format(":{}", static_cast<long long>(*line));
  return location;
}

RunOutcome run_outcome(const json& run) {
  const auto exit_code = number_field(run, "exit_code");
  const auto signal = number_field(run, "signal");
  const std::string status = string_field(run, "status");
  if (signal && *signal != 0) return {true, fmt::format("killed by signal {}", static_cast<long long>(*signal))};
  if (exit_code && *exit_code != 0) return {true, fmt::format("exit code {}", static_cast<long long>(*exit_code))};
  if (!status.empty() && status != "ok") return {true, status};
  return {false, "ok"};
}

}  // namespace ompscope::output
