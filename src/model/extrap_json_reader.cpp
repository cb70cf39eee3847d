#include "model/extrap_json_reader.h"

#include <map>

#include "common/error.h"
#include "model/json_access.h"

namespace ompscope::model {

namespace ja = json_access;
using nlohmann::json;

namespace {

void require_one_parameter(std::size_t count, const ja::Where& where) {
  if (count != 1)
    where.fail("ompscope models one parameter (the thread count), but this file has " +
               std::to_string(count));
}

double thread_count(const json& coordinate, const ja::Where& where) {
  const json& values = coordinate.is_array() ? coordinate : json::array({coordinate});
  require_one_parameter(values.size(), where);
  const double threads = ja::number(values[0], where[0]);
  if (!(threads >= 1)) where.fail("point " + std::to_string(threads) + " is not a thread count (>= 1)");
  return threads;
}

// Both Extra-P shapes nest {callpath: {metric: [point, ...]}} under "measurements"; they
// differ in how one point is written, which `read_point` knows.
template <typename ReadPoint>
std::vector<Series> read_measurements(const json& document, const ja::Where& top, Summary summary,
                                      ReadPoint read_point) {
  std::vector<Series> result;
  const ja::Where measurements_at = top["measurements"];
  for (const auto& [callpath, metrics] :
       ja::object(ja::member(document, "measurements", top), measurements_at).items()) {
    const ja::Where callpath_at = measurements_at[callpath];
    for (const auto& [metric, points] : ja::object(metrics, callpath_at).items()) {
      const ja::Where metric_at = callpath_at[metric];
      Series series{callpath, metric, SeriesKind::generic, summary, {}};
      const json& list = ja::array(points, metric_at);
      for (std::size_t k = 0; k < list.size(); ++k) series.points.push_back(read_point(list[k], metric_at[k]));
      result.push_back(std::move(series));
    }
  }
  return result;
}

// Extra-P 4 experiment: statistics per point, no repetitions.
std::vector<Series> read_experiment(const json& document, const ja::Where& top) {
  if (document.contains("parameters"))
    require_one_parameter(ja::array(document["parameters"], top["parameters"]).size(), top["parameters"]);
  return read_measurements(document, top, Summary::median, [](const json& entry, const ja::Where& point_at) {
    const json& point = ja::object(entry, point_at);
    const char* statistic = point.contains("median") ? "median" : "mean";
    return Measurement{thread_count(ja::member(point, "coordinate", point_at), point_at["coordinate"]),
                       {ja::number(ja::member(point, statistic, point_at), point_at[statistic])}};
  });
}

// {"parameters": [...], "measurements": {callpath: {metric: [{point, values}]}}}
std::vector<Series> read_input_format(const json& document, const ja::Where& top) {
  const json& parameters = ja::array(ja::member(document, "parameters", top), top["parameters"]);
  require_one_parameter(parameters.size(), top["parameters"]);
  return read_measurements(document, top, Summary::minimum, [](const json& entry, const ja::Where& point_at) {
    Measurement measurement{thread_count(ja::member(entry, "point", point_at), point_at["point"]), {}};
    const ja::Where values_at = point_at["values"];
    const json& values = ja::member(entry, "values", point_at);
    if (values.is_array()) {
      for (std::size_t v = 0; v < values.size(); ++v) measurement.values.push_back(ja::number(values[v], values_at[v]));
    } else {
      measurement.values.push_back(ja::number(values, values_at));
    }
    if (measurement.values.empty()) values_at.fail("no values");
    return measurement;
  });
}

std::map<long long, std::string> names_by_id(const json& document, const char* key,
                                             const ja::Where& top) {
  std::map<long long, std::string> names;
  const ja::Where list_at = top[key];
  const json& list = ja::array(ja::member(document, key, top), list_at);
  for (std::size_t k = 0; k < list.size(); ++k) {
    const json& id = ja::member(list[k], "id", list_at[k]);
    if (!id.is_number_integer()) list_at[k]["id"].fail("expected an integer id");
    names[id.get<long long>()] = ja::string(ja::member(list[k], "name", list_at[k]), list_at[k]["name"]);
  }
  return names;
}

// The older format: everything in arrays, linked by ids.
std::vector<Series> read_id_format(const json& document, const ja::Where& top) {
  const auto parameters = names_by_id(document, "parameters", top);
  require_one_parameter(parameters.size(), top["parameters"]);
  const auto callpaths = names_by_id(document, "callpaths", top);
  const auto metrics = names_by_id(document, "metrics", top);

  std::map<long long, double> threads_by_coordinate;
  const ja::Where coordinates_at = top["coordinates"];
  const json& coordinates = ja::array(ja::member(document, "coordinates", top), coordinates_at);
  for (std::size_t k = 0; k < coordinates.size(); ++k) {
    const ja::Where at = coordinates_at[k];
    const json& pairs = ja::array(ja::member(coordinates[k], "parameter_value_pairs", at),
                                  at["parameter_value_pairs"]);
    require_one_parameter(pairs.size(), at["parameter_value_pairs"]);
    const ja::Where pair_at = at["parameter_value_pairs"][0];
    const json& id = ja::member(coordinates[k], "id", at);
    if (!id.is_number_integer()) at["id"].fail("expected an integer id");
    threads_by_coordinate[id.get<long long>()] = thread_count(
        json::array({ja::member(pairs[0], "parameter_value", pair_at)}), pair_at["parameter_value"]);
  }

  std::map<std::pair<long long, long long>, Series> series;  // (callpath, metric)
  std::vector<std::pair<long long, long long>> order;
  const ja::Where measurements_at = top["measurements"];
  const json& measurements = ja::array(ja::member(document, "measurements", top), measurements_at);
  const auto id_of = [](const json& value, const ja::Where& at) {
    if (!value.is_number_integer()) at.fail("expected an integer id");
    return value.get<long long>();
  };
  for (std::size_t k = 0; k < measurements.size(); ++k) {
    const ja::Where at = measurements_at[k];
    const json& m = measurements[k];
    const long long callpath = id_of(ja::member(m, "callpath_id", at), at["callpath_id"]);
    const long long metric = id_of(ja::member(m, "metric_id", at), at["metric_id"]);
    const long long coordinate = id_of(ja::member(m, "coordinate_id", at), at["coordinate_id"]);
    if (!callpaths.contains(callpath)) at["callpath_id"].fail("no callpath with this id");
    if (!metrics.contains(metric)) at["metric_id"].fail("no metric with this id");
    if (!threads_by_coordinate.contains(coordinate)) at["coordinate_id"].fail("no coordinate with this id");
    const std::pair key{callpath, metric};
    auto [it, inserted] = series.try_emplace(key);
    if (inserted) {
      order.push_back(key);
      it->second = Series{callpaths.at(callpath), metrics.at(metric), SeriesKind::generic,
                          Summary::minimum, {}};
    }
    it->second.points.push_back(
        {threads_by_coordinate.at(coordinate), {ja::number(ja::member(m, "value", at), at["value"])}});
  }
  std::vector<Series> result;
  for (const auto& key : order) result.push_back(std::move(series.at(key)));
  return result;
}

}  // namespace

bool looks_like_extrap_json(const json& document) {
  return document.is_object() &&
         (document.contains("Extra-P") ||
          (document.contains("parameters") && document.contains("measurements")));
}

std::vector<Series> read_extrap_json(const json& document, const std::string& source_name) {
  const ja::Where top{source_name, ""};
  ja::object(document, top);
  std::vector<Series> result;
  if (document.contains("Extra-P")) {
    result = read_experiment(document, top);
  } else if (document.contains("measurements") && document["measurements"].is_array()) {
    result = read_id_format(document, top);
  } else {
    result = read_input_format(document, top);
  }
  if (result.empty()) top.fail("no measurements: nothing to model");
  return result;
}

}  // namespace ompscope::model
