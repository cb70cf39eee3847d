#include "bench/core/bench_json.h"

#include <cmath>
#include <stdexcept>

#include "bench/core/statistics.h"

#ifndef OMPSCOPE_VERSION_STRING
#error "OMPSCOPE_VERSION_STRING must be defined by the build"
#endif

namespace ompscope::bench {
namespace {

using nlohmann::json;

json summary_json(const Summary& s) {
  return {{"mean", s.mean}, {"sd", s.sd}, {"min", s.min}, {"median", s.median},
          {"max", s.max}, {"count", s.count}};
}

json series_json(const SeriesResult& r) {
  for (double v : r.samples_s)
    if (!std::isfinite(v))
      throw std::invalid_argument("series " + r.construct + "/" + r.metric + " holds a non-finite sample");
  const std::vector<double> kept = drop_best_and_worst_quarter(r.samples_s);
  json j = {{"construct", r.construct},
            {"runtime", r.runtime},
            {"method", r.method},
            {"metric", r.metric},
            {"threads", r.threads},
            {"oversubscribed", r.oversubscribed},
            {"unit", "s"},
            {"filter", kOutlierFilterDescription},
            {"statistics", summary_json(summarize(kept))},
            {"raw", kept},
            {"statistics_unfiltered", summary_json(summarize(r.samples_s))},
            {"raw_unfiltered", r.samples_s},
            {"measured_at", r.measured_at},
            {"details", r.details}};
  return j;
}

template <class T>
T field(const json& j, const char* name, const char* where) {
  auto it = j.find(name);
  if (it == j.end()) throw std::invalid_argument(std::string(where) + " lacks \"" + name + "\"");
  try {
    return it->get<T>();
  } catch (const json::exception&) {
    throw std::invalid_argument(std::string(where) + " has a \"" + name + "\" of the wrong type");
  }
}

SeriesResult series_from_json(const json& j) {
  if (!j.is_object()) throw std::invalid_argument("a result is not an object");
  SeriesResult r;
  r.construct = field<std::string>(j, "construct", "result");
  r.runtime = field<std::string>(j, "runtime", "result");
  r.method = field<std::string>(j, "method", "result");
  r.metric = field<std::string>(j, "metric", "result");
  r.threads = field<int>(j, "threads", "result");
  r.oversubscribed = field<bool>(j, "oversubscribed", "result");
  // Older or hand-written files may carry only the filtered series.
  r.samples_s = field<std::vector<double>>(j, j.contains("raw_unfiltered") ? "raw_unfiltered" : "raw", "result");
  if (r.samples_s.empty()) throw std::invalid_argument("result " + r.construct + " has no samples");
  if (j.contains("measured_at")) r.measured_at = field<std::string>(j, "measured_at", "result");
  if (j.contains("details")) r.details = j.at("details");
  return r;
}

}  // namespace

json to_json(const BenchDocument& doc) {
  json results = json::array();
  for (const SeriesResult& r : doc.results) results.push_back(series_json(r));
  return {{"tool", "ompscope-bench"},
          {"version", OMPSCOPE_VERSION_STRING},
          {"runtime", doc.runtime},
          {"cores", doc.cores},
          {"binding", {{"OMP_PROC_BIND", doc.proc_bind}, {"OMP_PLACES", doc.places}}},
          {"clock", doc.clock},
          {"filter", kOutlierFilterDescription},
          {"results", std::move(results)}};
}

BenchDocument bench_document_from_json(const json& j) {
  if (!j.is_object() || j.value("tool", "") != "ompscope-bench")
    throw std::invalid_argument("not an ompscope-bench document (\"tool\" is not \"ompscope-bench\")");
  BenchDocument doc;
  doc.runtime = field<std::string>(j, "runtime", "document");
  doc.cores = field<int>(j, "cores", "document");
  if (auto b = j.find("binding"); b != j.end() && b->is_object()) {
    doc.proc_bind = b->value("OMP_PROC_BIND", "");
    doc.places = b->value("OMP_PLACES", "");
  }
  doc.clock = j.value("clock", "");
  const json& results = j.contains("results") ? j.at("results") : json();
  if (!results.is_array()) throw std::invalid_argument("document lacks a \"results\" array");
  for (const json& r : results) doc.results.push_back(series_from_json(r));
  return doc;
}

}  // namespace ompscope::bench
