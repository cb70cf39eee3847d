#include "model/scale_report_reader.h"

#include <map>
#include <string>

namespace ompscope::model {

namespace {

std::vector<Measurement> by_thread_count(const std::map<int, double>& values) {
  std::vector<Measurement> points;
  for (const auto& [threads, value] : values) points.push_back({static_cast<double>(threads), {value}});
  return points;
}

std::string region_name(const report::RegionReport& region) {
  std::string name = region.id.empty() ? "region" : region.id;
  if (!region.function.empty()) name += " " + region.function;
  if (!region.file.empty()) {
    name += " (" + region.file;
    if (region.line > 0) name += ":" + std::to_string(region.line);
    name += ")";
  }
  return name;
}

// Every repetition's wall time when the runs are listed: the fit then sees the spread.
Series program_series(const report::Report& report) {
  Series series{"program", "time_s", SeriesKind::region_time, Summary::minimum, {}};
  if (!report.runs.empty()) {
    std::map<int, std::vector<double>> wall_times;
    for (const report::RunRecord& run : report.runs) wall_times[run.threads].push_back(run.wall_s);
    for (auto& [threads, values] : wall_times)
      series.points.push_back({static_cast<double>(threads), std::move(values)});
  } else {
    series.points = by_thread_count(report.program_time_s);
  }
  return series;
}

}  // namespace

bool looks_like_scale_report(const nlohmann::json& document) {
  return document.is_object() && document.contains("tool") && document["tool"] == "ompscope" &&
         document.contains("regions");
}

std::vector<Series> series_of_report(const report::Report& report) {
  std::vector<Series> result;
  Series program = program_series(report);
  if (!program.points.empty()) result.push_back(std::move(program));

  for (const report::RegionReport& region : report.regions) {
    const std::string name = region_name(region);
    result.push_back({name, "time_s", SeriesKind::region_time, Summary::minimum, by_thread_count(region.time_s)});

    std::map<std::string, std::map<int, double>> loss_by_kind;  // kind -> threads -> time_s
    std::vector<std::string> kinds;                             // in the order first diagnosed
    for (const report::Problem& problem : region.problems) {
      const std::string kind(problem.kind.name());
      if (!loss_by_kind.contains(kind)) kinds.push_back(kind);
      loss_by_kind[kind][problem.threads] += problem.time_s;
    }
    for (const std::string& kind : kinds)
      result.push_back({name, kind, SeriesKind::generic, Summary::minimum, by_thread_count(loss_by_kind[kind])});
  }
  return result;
}

}  // namespace ompscope::model
