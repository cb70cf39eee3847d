#include "model/bench_json_reader.h"

#include <map>
#include <tuple>

#include "model/json_access.h"

namespace ompscope::model {

namespace ja = json_access;
using nlohmann::json;

bool looks_like_bench_json(const json& document) {
  // Not value("tool", ""): it throws when "tool" is not a string (found by tests/fuzz).
  return document.is_object() && document.contains("tool") && document["tool"] == "ompscope-bench";
}

std::vector<Series> read_bench_json(const json& document, const std::string& source_name) {
  const ja::Where top{source_name, ""};
  if (!looks_like_bench_json(document)) top.fail("not ompscope bench output (\"tool\" is not \"ompscope-bench\")");
  if (document.contains("version")) {
    const std::string version = ja::string(document["version"], top["version"]);
    if (version.rfind("0.", 0) != 0)
      top["version"].fail("bench output version " + version + " is newer than this ompscope reads (0.x)");
  }
  using Key = std::tuple<std::string, std::string, std::string, std::string>;
  std::map<Key, Series> series;
  std::vector<Key> order;
  const ja::Where results_at = top["results"];
  const json& results = ja::array(ja::member(document, "results", top), results_at);
  for (std::size_t k = 0; k < results.size(); ++k) {
    const ja::Where at = results_at[k];
    const json& result = ja::object(results[k], at);
    const std::string construct = ja::string(ja::member(result, "construct", at), at["construct"]);
    const std::string runtime = ja::string(ja::member(result, "runtime", at), at["runtime"]);
    const std::string method = ja::string(ja::member(result, "method", at), at["method"]);
    const std::string metric = ja::string(ja::member(result, "metric", at), at["metric"]);
    const double threads = ja::number(ja::member(result, "threads", at), at["threads"]);
    if (!(threads >= 1)) at["threads"].fail("not a thread count (>= 1)");

    Measurement measurement{threads, {}};
    if (result.contains("raw") && !result["raw"].empty()) {
      const json& raw = ja::array(result["raw"], at["raw"]);
      for (std::size_t r = 0; r < raw.size(); ++r)
        measurement.values.push_back(ja::number(raw[r], at["raw"][r]));
    } else {
      const ja::Where statistics_at = at["statistics"];
      const json& statistics = ja::member(result, "statistics", at);
      measurement.values.push_back(
          ja::number(ja::member(statistics, "median", statistics_at), statistics_at["median"]));
    }

    const Key key{construct, runtime, method, metric};
    auto [it, inserted] = series.try_emplace(key);
    if (inserted) {
      order.push_back(key);
      Series& s = it->second;
      s.region = construct + " [" + runtime + ", " + method + "]";
      s.metric = metric;
      s.kind = SeriesKind::construct;
      // An EPCC overhead is a difference of two timings: its noise goes both ways, and the
      // smallest repetition would be the most disturbed one, so take the median there.
      s.summary = metric == "overhead" ? Summary::median : Summary::minimum;
    }
    it->second.points.push_back(std::move(measurement));
  }
  if (order.empty()) results_at.fail("no results: nothing to model");
  std::vector<Series> ordered;
  for (const Key& key : order) ordered.push_back(std::move(series.at(key)));
  return ordered;
}

}  // namespace ompscope::model
