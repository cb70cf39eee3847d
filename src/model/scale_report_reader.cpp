#include "model/scale_report_reader.h"

#include <map>
#include <string>

#include "model/scale_report_models.h"

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

// A time series of the report as `scale` fitted it (analysis/scaling_models.h): the report's
// medians, the counts without a core per thread left out where enough others remain, and no
// verdict where they do not, so `model` and `scale` agree on every verdict of one report.
Series time_series(const report::Report& report, std::string name, const std::map<int, double>& time_s) {
  Series series{std::move(name), "time_s", SeriesKind::region_time, Summary::minimum, {}};
  std::map<int, double> own_cores;
  std::vector<std::string> oversubscribed;
  for (const auto& [threads, seconds] : time_s)
    if (!report.oversubscribed(threads)) own_cores.emplace(threads, seconds);
    else oversubscribed.push_back(std::to_string(threads));
  if (own_cores.size() >= kScaleMinimumThreadCounts || oversubscribed.empty()) {
    series.points = by_thread_count(own_cores);
    return series;
  }
  series.points = by_thread_count(time_s);
  std::string counts;
  for (const std::string& t : oversubscribed) counts += (counts.empty() ? "" : ", ") + t;
  series.withheld = "fitted on counts without a core per thread (" + counts + " on " + std::to_string(report.cores) +
                    " cores), which measure time-sharing";
  return series;
}

}  // namespace

bool looks_like_scale_report(const nlohmann::json& document) {
  return document.is_object() && document.contains("tool") && document["tool"] == "ompscope" &&
         document.contains("regions");
}

std::vector<Series> series_of_report(const report::Report& report) {
  std::vector<Series> result;
  Series program = time_series(report, "program", report.program_time_s);
  if (!program.points.empty()) result.push_back(std::move(program));

  for (const report::RegionReport& region : report.regions) {
    const std::string name = region_name(region);
    result.push_back(time_series(report, name, region.time_s));

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
