#include "model/scale_report_reader.h"

#include <map>

#include "model/json_access.h"

namespace ompscope::model {

namespace ja = json_access;
using nlohmann::json;

namespace {

// {"1": 1.2, "2": 0.8}: values keyed by thread count.
std::vector<Measurement> by_thread_count(const json& map, const ja::Where& at) {
  std::vector<Measurement> points;
  for (const auto& [key, value] : ja::object(map, at).items()) {
    const double threads = ja::number(json(key), at[key]);
    if (!(threads >= 1)) at[key].fail("'" + key + "' is not a thread count (>= 1)");
    points.push_back({threads, {ja::number(value, at[key])}});
  }
  return points;
}

std::string region_name(const json& region, const ja::Where& at) {
  std::string name = region.contains("id") ? ja::string(region["id"], at["id"]) : "region";
  if (region.contains("function") && region["function"].is_string())
    name += " " + region["function"].get<std::string>();
  if (region.contains("file") && region["file"].is_string()) {
    name += " (" + region["file"].get<std::string>();
    if (region.contains("line") && region["line"].is_number_integer())
      name += ":" + std::to_string(region["line"].get<long long>());
    name += ")";
  }
  return name;
}

Series program_series(const json& document, const ja::Where& top) {
  Series series{"program", "time_s", SeriesKind::region_time, Summary::minimum, {}};
  if (document.contains("runs") && !document["runs"].empty()) {
    std::map<double, std::vector<double>> wall_times;
    const json& runs = ja::array(document["runs"], top["runs"]);
    for (std::size_t k = 0; k < runs.size(); ++k) {
      const ja::Where at = top["runs"][k];
      const double threads = ja::number(ja::member(runs[k], "threads", at), at["threads"]);
      wall_times[threads].push_back(ja::number(ja::member(runs[k], "wall_s", at), at["wall_s"]));
    }
    for (auto& [threads, values] : wall_times) series.points.push_back({threads, std::move(values)});
  } else if (document.contains("program")) {
    const ja::Where at = top["program"]["time_s"];
    series.points = by_thread_count(ja::member(document["program"], "time_s", top["program"]), at);
  }
  return series;
}

}  // namespace

bool looks_like_scale_report(const json& document) {
  return document.is_object() && document.contains("tool") && document["tool"] == "ompscope" &&
         document.contains("regions");
}

std::vector<Series> read_scale_report(const json& document, const std::string& source_name) {
  const ja::Where top{source_name, ""};
  ja::object(document, top);
  std::vector<Series> result;
  Series program = program_series(document, top);
  if (!program.points.empty()) result.push_back(std::move(program));

  const ja::Where regions_at = top["regions"];
  const json& regions = ja::array(ja::member(document, "regions", top), regions_at);
  for (std::size_t k = 0; k < regions.size(); ++k) {
    const ja::Where at = regions_at[k];
    const json& region = ja::object(regions[k], at);
    const std::string name = region_name(region, at);
    Series time{name, "time_s", SeriesKind::region_time, Summary::minimum,
                by_thread_count(ja::member(region, "time_s", at), at["time_s"])};
    result.push_back(std::move(time));

    if (!region.contains("problems")) continue;
    std::map<std::string, std::map<double, double>> loss_by_kind;  // kind -> threads -> time_s
    std::vector<std::string> kinds;
    const json& problems = ja::array(region["problems"], at["problems"]);
    for (std::size_t p = 0; p < problems.size(); ++p) {
      const ja::Where problem_at = at["problems"][p];
      const std::string kind = ja::string(ja::member(problems[p], "kind", problem_at), problem_at["kind"]);
      const double threads = ja::number(ja::member(problems[p], "threads", problem_at), problem_at["threads"]);
      const double seconds = ja::number(ja::member(problems[p], "time_s", problem_at), problem_at["time_s"]);
      if (!loss_by_kind.contains(kind)) kinds.push_back(kind);
      loss_by_kind[kind][threads] += seconds;
    }
    for (const std::string& kind : kinds) {
      Series loss{name, kind, SeriesKind::generic, Summary::minimum, {}};
      for (const auto& [threads, seconds] : loss_by_kind[kind]) loss.points.push_back({threads, {seconds}});
      result.push_back(std::move(loss));
    }
  }
  return result;
}

}  // namespace ompscope::model
