#include "report/report_json.h"

#include <fmt/format.h>

#include <charconv>
#include <fstream>

#include "common/error.h"
#include "common/json_depth.h"
#include "common/safe_file.h"
#include "common/version.h"
#include "report/findings.h"

namespace ompscope::report {
namespace {

using json = nlohmann::ordered_json;

template <typename T>
json by_threads(const std::map<int, T>& values) {
  json out = json::object();
  for (const auto& [t, v] : values) out[std::to_string(t)] = v;
  return out;
}

json lines_json(const std::vector<SampledLine>& lines) {
  json out = json::array();
  for (const SampledLine& l : lines) {
    json j = {{"file", l.file}, {"line", l.line}, {"function", l.function}, {"cpu_s", l.cpu_s}};
    if (!l.module.empty()) j["module"] = l.module;
    out.push_back(std::move(j));
  }
  return out;
}

json sampled_json(const std::map<int, SampledCode>& sampled) {
  json out = json::object();
  for (const auto& [t, code] : sampled) out[std::to_string(t)] = {{"cpu_s", code.cpu_s}, {"lines", lines_json(code.lines)}};
  return out;
}

json split_json(const ThreadSplit& s, bool program) {
  json j = {{"thread", s.thread},           {"work_s", s.work_s},           {"task_s", s.task_s},
            {"barrier_wait_s", s.barrier_wait_s}, {"lock_wait_s", s.lock_wait_s}, {"fork_join_s", s.fork_join_s},
            {"tasks", s.tasks}};
  if (program) j["outside_s"] = s.outside_s;
  if (s.mpi_s > 0) j["mpi_s"] = s.mpi_s;  // a region's: MPI calls inside it (docs/mpi.md)
  // The kernel's accounting of the part of work_s it was read over (region instances recorded
  // in full), scaled like the other figures.
  if (s.usage.wall_s > 0)
    j["work_usage"] = {{"read_over_s", s.usage.wall_s},         {"cpu_s", s.usage.cpu_s},
                       {"system_s", s.usage.system_s},          {"minor_faults", s.usage.minor_faults},
                       {"major_faults", s.usage.major_faults},  {"involuntary_switches", s.usage.switches},
                       {"voluntary_switches", s.usage.voluntary_switches}, {"readings", s.usage.readings}};
  if (s.usage.counted_s > 0)
    j["work_usage"].update({{"counted_s", s.usage.counted_s},
                            {"cycles", s.usage.cycles},
                            {"instructions", s.usage.instructions},
                            {"llc_misses", s.usage.llc_misses}});
  if (s.task_usage.wall_s > 0)
    j["task_usage"] = {{"tasks_s", s.task_usage_tasks_s},
                       {"cpu_s", s.task_usage.cpu_s},
                       {"off_cpu_s", s.task_usage.off_cpu_s()},
                       {"system_s", s.task_usage.system_s},
                       {"minor_faults", s.task_usage.minor_faults},
                       {"major_faults", s.task_usage.major_faults},
                       {"involuntary_switches", s.task_usage.switches},
                       {"voluntary_switches", s.task_usage.voluntary_switches},
                       {"readings", s.task_usage.readings}};
  return j;
}

json splits_json(const std::map<int, std::vector<ThreadSplit>>& splits, bool program) {
  json out = json::object();
  for (const auto& [t, list] : splits) {
    json arr = json::array();
    for (const auto& s : list) arr.push_back(split_json(s, program));
    out[std::to_string(t)] = arr;
  }
  return out;
}

json tasks_json(const std::map<int, TaskSummary>& tasks) {
  json out = json::object();
  for (const auto& [t, s] : tasks) {
    json j = {{"count", s.tasks},
              {"recorded", s.recorded_tasks},
              {"hidden_subtree_tasks", s.hidden_subtree_tasks},
              {"mean_body_s", s.mean_body_s},
              {"work_s", s.work_s},
              {"span_s", s.span_s},
              {"parallelism", s.parallelism},
              {"speedup_bound", s.speedup_bound},
              {"starvation_s", s.starvation_s},
              {"tail_idle_s", s.tail_idle_s},
              {"end_idle_s", s.end_idle_s}};
    j["measured_speedup"] = s.measured_speedup > 0 ? json(s.measured_speedup) : json(nullptr);
    j["superlinear"] = s.superlinear;
    j["dispatch_s"] = s.dispatch_s > 0 ? json(s.dispatch_s) : json(nullptr);
    // OMPT marks a creation with one event: the cost is bounded from above by the intervals
    // between two creations with nothing run between them, never measured directly.
    j["creation_s"] = s.creation_s > 0 ? json(s.creation_s) : json(nullptr);
    j["taskwait_s"] = s.taskwait_s > 0 ? json(s.taskwait_s) : json(nullptr);
    j["immediate_start_s"] = s.immediate_start_s > 0 ? json(s.immediate_start_s) : json(nullptr);
    j["per_task_cost_s"] = s.per_task_cost_s > 0 ? json(s.per_task_cost_s) : json(nullptr);
    // Where each per-task figure comes from (docs/tasks.md, "The bench cache").
    j["per_task_cost_source"] = "measured in this run";
    j["bench_task_s"] = s.bench_task_s > 0 ? json(s.bench_task_s) : json(nullptr);
    if (s.bench_task_s > 0) j["bench_task_source"] = "ompscope bench on this machine";
    j["creation_estimated"] = true;
    // The runtime's cost per task at each creation site (docs/tasks.md).
    json sites = json::array();
    for (const report::TaskSiteCost& c : s.sites) {
      const auto seconds = [](double v) { return v > 0 ? json(v) : json(nullptr); };
      sites.push_back({{"site", c.site},
                       {"tasks", c.tasks},
                       {"mean_body_s", c.mean_body_s},
                       {"creation_s", seconds(c.creation_s)},
                       {"dispatch_s", seconds(c.dispatch_s)},
                       {"release_s", seconds(c.release_s)},
                       {"depend_items", c.depend_items}});
    }
    j["sites"] = std::move(sites);
    out[std::to_string(t)] = j;
  }
  return out;
}

json model_json(const ScalingModel& m) {
  json terms = json::array();
  for (const auto& term : m.terms)
    terms.push_back({{"coefficient", term.coefficient}, {"i", term.i}, {"exponent", term.exponent}, {"j", term.j}});
  json curve = json::array();
  for (const auto& [t, s] : m.speedup_curve) curve.push_back({t, s});
  return {{"function", m.function},
          {"constant", m.constant},
          {"terms", terms},
          {"adj_r2", m.adj_r2},
          {"smape", m.smape},
          {"growth", m.growth ? to_string(*m.growth) : ""},
          {"growth_of", m.growth_of_thread_seconds ? "thread_seconds" : "value"},
          {"stops_paying_off_at", m.stops_paying_off_at ? json(*m.stops_paying_off_at) : json(nullptr)},
          {"extrapolated", m.extrapolated},
          {"oversubscribed_threads", m.oversubscribed_threads},
          {"verdict_withheld", m.verdict_withheld},
          {"speedup_curve", curve}};
}

// --- reading -------------------------------------------------------------------------------

// Every reading error below ends up as one line naming the file (report_from_json).
struct Bad : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const json* member(const json& object, const char* key) {
  if (!object.is_object()) throw Bad("expected an object");
  const auto it = object.find(key);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

template <typename T>
T get(const json& object, const char* key, T fallback) {
  const json* value = member(object, key);
  if (value == nullptr) return fallback;
  try {
    return value->get<T>();
  } catch (const json::exception&) {
    throw Bad(fmt::format("\"{}\" has the wrong type ({})", key, value->type_name()));
  }
}

int thread_key(const std::string& key) {
  int t = 0;
  const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), t);
  if (ec != std::errc() || end != key.data() + key.size() || t < 1)
    throw Bad(fmt::format("\"{}\" is not a thread count", key));
  return t;
}

template <typename T>
std::map<int, T> read_by_threads(const json& object, const char* key) {
  std::map<int, T> out;
  const json* map = member(object, key);
  if (map == nullptr) return out;
  if (!map->is_object()) throw Bad(fmt::format("\"{}\" is not an object keyed by thread count", key));
  for (const auto& [k, v] : map->items()) {
    if (v.is_null()) continue;
    try {
      out[thread_key(k)] = v.template get<T>();
    } catch (const json::exception&) {
      throw Bad(fmt::format("\"{}\" at {} has the wrong type ({})", key, k, v.type_name()));
    }
  }
  return out;
}

const json& array_at(const json& object, const char* key) {
  static const json empty = json::array();
  const json* value = member(object, key);
  if (value == nullptr) return empty;
  if (!value->is_array()) throw Bad(fmt::format("\"{}\" is not a list", key));
  return *value;
}

std::map<int, std::vector<ThreadSplit>> read_splits(const json& object) {
  std::map<int, std::vector<ThreadSplit>> out;
  const json* map = member(object, "per_thread");
  if (map == nullptr) return out;
  if (!map->is_object()) throw Bad("\"per_thread\" is not an object keyed by thread count");
  for (const auto& [k, rows] : map->items()) {
    if (!rows.is_array()) throw Bad(fmt::format("\"per_thread\" at {} is not a list", k));
    std::vector<ThreadSplit>& list = out[thread_key(k)];
    for (const json& row : rows) {
      ThreadSplit split{get<uint32_t>(row, "thread", static_cast<uint32_t>(list.size())), get(row, "work_s", 0.0),
                        get(row, "task_s", 0.0), get(row, "barrier_wait_s", 0.0), get(row, "lock_wait_s", 0.0),
                        get(row, "fork_join_s", 0.0), get(row, "outside_s", 0.0), get(row, "tasks", 0.0), {},
                        get(row, "mpi_s", 0.0)};
      if (const json* u = member(row, "work_usage"); u != nullptr && u->is_object())
        split.usage = {get(*u, "read_over_s", 0.0),  get(*u, "cpu_s", 0.0),        get(*u, "system_s", 0.0),
                       get(*u, "minor_faults", 0.0), get(*u, "major_faults", 0.0), get(*u, "involuntary_switches", 0.0),
                       get(*u, "counted_s", 0.0),    get(*u, "cycles", 0.0),       get(*u, "instructions", 0.0),
                       get(*u, "llc_misses", 0.0),   get(*u, "readings", 0.0),     get(*u, "voluntary_switches", 0.0)};
      if (const json* u = member(row, "task_usage"); u != nullptr && u->is_object()) {
        split.task_usage = {get(*u, "cpu_s", 0.0) + get(*u, "off_cpu_s", 0.0), get(*u, "cpu_s", 0.0),
                            get(*u, "system_s", 0.0), get(*u, "minor_faults", 0.0), get(*u, "major_faults", 0.0),
                            get(*u, "involuntary_switches", 0.0)};
        split.task_usage.readings = get(*u, "readings", 0.0);
        split.task_usage.voluntary_switches = get(*u, "voluntary_switches", 0.0);
        split.task_usage_tasks_s = get(*u, "tasks_s", 0.0);
      }
      list.push_back(split);
    }
  }
  return out;
}

std::map<int, TaskSummary> read_tasks(const json& region) {
  std::map<int, TaskSummary> out;
  const json* map = member(region, "tasks");
  if (map == nullptr) return out;
  if (!map->is_object()) throw Bad("\"tasks\" is not an object keyed by thread count");
  for (const auto& [k, s] : map->items()) {
    TaskSummary t;
    t.tasks = get(s, "count", 0.0);
    t.recorded_tasks = get(s, "recorded", t.tasks);
    t.hidden_subtree_tasks = get(s, "hidden_subtree_tasks", 0.0);
    t.mean_body_s = get(s, "mean_body_s", 0.0);
    t.dispatch_s = get(s, "dispatch_s", 0.0);
    t.creation_s = get(s, "creation_s", -1.0);
    t.taskwait_s = get(s, "taskwait_s", 0.0);
    t.immediate_start_s = get(s, "immediate_start_s", 0.0);
    t.per_task_cost_s = get(s, "per_task_cost_s", 0.0);
    t.bench_task_s = get(s, "bench_task_s", 0.0);
    t.work_s = get(s, "work_s", 0.0);
    t.span_s = get(s, "span_s", 0.0);
    t.parallelism = get(s, "parallelism", 0.0);
    t.speedup_bound = get(s, "speedup_bound", 0.0);
    t.measured_speedup = get(s, "measured_speedup", 0.0);
    // Reports written before the field: the rule they were rendered with.
    t.superlinear = get(s, "superlinear", exceeds_task_bound(t.measured_speedup, t.speedup_bound));
    t.starvation_s = get(s, "starvation_s", 0.0);
    t.tail_idle_s = get(s, "tail_idle_s", 0.0);
    t.end_idle_s = get(s, "end_idle_s", 0.0);
    for (const json& c : array_at(s, "sites"))
      t.sites.push_back({get<std::string>(c, "site", ""), get(c, "tasks", 0.0), get(c, "mean_body_s", 0.0),
                         get(c, "creation_s", 0.0), get(c, "dispatch_s", 0.0), get(c, "release_s", 0.0),
                         get(c, "depend_items", 0.0)});
    out[thread_key(k)] = t;
  }
  return out;
}

std::optional<ScalingModel> read_model(const json& owner) {
  const json* m = member(owner, "model");
  if (m == nullptr) return std::nullopt;
  ScalingModel model;
  model.function = get<std::string>(*m, "function", "");
  model.constant = get(*m, "constant", 0.0);
  for (const json& term : array_at(*m, "terms"))
    model.terms.push_back({get(term, "coefficient", 0.0), get(term, "i", 0.0), get<std::string>(term, "exponent", ""),
                           get(term, "j", 0)});
  model.adj_r2 = get(*m, "adj_r2", 0.0);
  model.smape = get(*m, "smape", 0.0);
  if (const std::string growth = get<std::string>(*m, "growth", ""); !growth.empty()) {
    model.growth = growth_from_string(growth);
    if (!model.growth) throw Bad(fmt::format("a model's \"growth\" is \"{}\": no growth this version knows", growth));
  }
  model.growth_of_thread_seconds = get<std::string>(*m, "growth_of", "") == "thread_seconds";
  if (member(*m, "stops_paying_off_at")) model.stops_paying_off_at = get(*m, "stops_paying_off_at", 0.0);
  model.extrapolated = get(*m, "extrapolated", false);
  model.oversubscribed_threads = get(*m, "oversubscribed_threads", std::vector<int>{});
  model.verdict_withheld = get<std::string>(*m, "verdict_withheld", "");
  for (const json& point : array_at(*m, "speedup_curve")) {
    if (!point.is_array() || point.size() != 2 || !point[0].is_number() || !point[1].is_number())
      throw Bad("a point of \"speedup_curve\" is not [threads, speedup]");
    model.speedup_curve.emplace_back(point[0].get<double>(), point[1].get<double>());
  }
  return model;
}

Problem read_problem(const json& p) {
  const std::string kind = get<std::string>(p, "kind", "");
  const auto cause = CauseKind::from_name(kind);
  if (!cause) throw Bad(fmt::format("a problem names a cause this version does not know: \"{}\"", kind));
  Problem problem{*cause, get(p, "threads", 0), get(p, "time_s", 0.0), get(p, "gain_s", 0.0),
                  get<std::string>(p, "hint", ""), {}};
  if (const json* details = member(p, "details")) {
    if (!details->is_object()) throw Bad("\"details\" of a problem is not an object");
    for (const auto& [k, v] : details->items()) {
      if (!v.is_number()) throw Bad(fmt::format("detail \"{}\" is not a number", k));
      problem.details.emplace_back(k, v.get<double>());
    }
  }
  return problem;
}

std::optional<SourceExcerpt> read_source(const json& owner) {
  const json* s = member(owner, "source");
  if (s == nullptr) return std::nullopt;
  if (!s->is_object()) throw Bad("\"source\" is not an object");
  SourceExcerpt excerpt;
  excerpt.file = get<std::string>(*s, "file", "");
  excerpt.line = get(*s, "line", 0);
  excerpt.first_line = get(*s, "first_line", 0);
  excerpt.lines = get(*s, "lines", std::vector<std::string>{});
  excerpt.missing = get<std::string>(*s, "missing", "");
  return excerpt;
}

Finding read_finding(const json& f) {
  const std::string kind = get<std::string>(f, "kind", "");
  const auto cause = CauseKind::from_name(kind);
  if (!cause) throw Bad(fmt::format("a finding names a cause this version does not know: \"{}\"", kind));
  Finding finding{*cause};
  finding.region = get<std::string>(f, "region", "");
  finding.threads = get(f, "threads", 0);
  finding.file = get<std::string>(f, "file", "");
  finding.line = get(f, "line", 0);
  finding.function = get<std::string>(f, "function", "");
  finding.gain_s = get(f, "gain_s", 0.0);
  finding.time_s = get(f, "time_s", 0.0);
  finding.run_share = get(f, "run_share", 0.0);
  finding.action = get<std::string>(f, "action", "");
  finding.hint = get<std::string>(f, "hint", "");
  finding.repeats = get(f, "repeats", 1);
  finding.spread_s = get(f, "spread_s", 0.0);
  finding.certainty = get<std::string>(f, "certainty", certainty_of(finding.gain_s, finding.spread_s, finding.repeats));
  finding.source = read_source(f);
  return finding;
}

// A construct and what is inside it; a tree deeper than any program's nesting is refused.
std::vector<SampledLine> read_lines(const json& object, const char* key) {
  std::vector<SampledLine> lines;
  for (const json& l : array_at(object, key))
    lines.push_back({get(l, "file", std::string()), get(l, "line", 0), get(l, "function", std::string()),
                     get(l, "module", std::string()), get(l, "cpu_s", 0.0)});
  return lines;
}

std::map<int, SampledCode> read_sampled(const json& object) {
  std::map<int, SampledCode> out;
  const json* sampled = member(object, "sampled");
  if (!sampled) return out;
  if (!sampled->is_object()) throw Bad("\"sampled\" is not an object keyed by thread count");
  for (const auto& [k, v] : sampled->items()) out[thread_key(k)] = {get(v, "cpu_s", 0.0), read_lines(v, "lines")};
  return out;
}

ConstructReport read_construct(const json& c, int depth) {
  if (depth > 64) throw Bad("\"constructs\" are nested more than 64 deep");
  ConstructReport construct;
  const std::string kind = get<std::string>(c, "kind", "");
  const std::optional<ConstructKind> known = construct_kind_from_string(kind);
  if (!known) throw Bad(fmt::format("a construct's \"kind\" is \"{}\": no construct this version knows", kind));
  construct.kind = *known;
  construct.file = get<std::string>(c, "file", "");
  construct.line = get(c, "line", 0);
  construct.function = get<std::string>(c, "function", "");
  construct.instances = get<uint64_t>(c, "instances", 0);
  construct.time_s = read_by_threads<double>(c, "time_s");
  for (const json& p : array_at(c, "problems")) construct.problems.push_back(read_problem(p));
  for (const json& inner : array_at(c, "constructs")) construct.constructs.push_back(read_construct(inner, depth + 1));
  construct.source = read_source(c);
  construct.sampled = read_sampled(c);
  return construct;
}

RegionReport read_region(const json& r) {
  RegionReport region;
  region.id = get<std::string>(r, "id", "");
  if (const std::string kind = get<std::string>(r, "kind", "parallel"); kind == "serial")
    region.kind = RegionKind::kSerial;
  else if (kind != "parallel")
    throw Bad(fmt::format("a region's \"kind\" is \"{}\": neither \"parallel\" nor \"serial\"", kind));
  region.file = get<std::string>(r, "file", "");
  region.line = get(r, "line", 0);
  region.function = get<std::string>(r, "function", "");
  region.module = get<std::string>(r, "module", "");
  region.module_offset = get<uint64_t>(r, "module_offset", 0);
  region.nested = get(r, "nested", false);
  region.instances = get<uint64_t>(r, "instances", 0);
  region.instances_at = read_by_threads<uint64_t>(r, "instances_at");
  region.recorded_instances_at = read_by_threads<uint64_t>(r, "recorded_instances_at");
  region.time_s = read_by_threads<double>(r, "time_s");
  region.speedup = read_by_threads<double>(r, "speedup");
  region.efficiency = read_by_threads<double>(r, "efficiency");
  region.time_lost_s = read_by_threads<double>(r, "time_lost_s");
  region.unexplained_s = read_by_threads<double>(r, "unexplained_s");
  region.per_thread = read_splits(r);
  region.tasks = read_tasks(r);
  for (const json& p : array_at(r, "problems")) region.problems.push_back(read_problem(p));
  region.model = read_model(r);
  for (const json& c : array_at(r, "constructs")) region.constructs.push_back(read_construct(c, 1));
  region.outside_constructs_s = read_by_threads<double>(r, "outside_constructs_s");
  for (const json& k : array_at(r, "ranks")) {
    RankTime rank{get(k, "rank", 0), read_by_threads<double>(k, "time_s"), {}, read_by_threads<double>(k, "mpi_s")};
    for (const json& p : array_at(k, "problems")) rank.problems.push_back(read_problem(p));
    region.ranks.push_back(std::move(rank));
  }
  region.rank_imbalance_s = read_by_threads<double>(r, "rank_imbalance_s");
  region.sampled = read_sampled(r);
  region.grown_lines = read_lines(r, "grown_lines");
  for (const json& s : array_at(r, "stacks")) region.stacks.emplace_back(get(s, "stack", std::string()), get(s, "cpu_s", 0.0));
  if (const json* replay = member(r, "task_replay")) {
    RegionReport::TaskReplay t;
    t.from_threads = get(*replay, "from_threads", 0);
    t.per_task_s = get(*replay, "per_task_s", 0.0);
    t.predicted_time_s = read_by_threads<double>(*replay, "predicted_time_s");
    t.body_growth = get(*replay, "body_growth", 1.0);
    t.body_growth_at = get(*replay, "body_growth_at", 0);
    t.instances = get(*replay, "instances", uint64_t{0});
    t.replayed_instances = get(*replay, "replayed_instances", uint64_t{0});
    region.task_replay = t;
  }
  region.time_spread_s = read_by_threads<double>(r, "time_spread_s");
  region.repeat_times_s = read_by_threads<std::vector<double>>(r, "repeat_times_s");
  if (!member(r, "speedup") && region.kind == RegionKind::kParallel) region.speedup = speedups(region.time_s);  // schema 1
  return region;
}

Note read_note(const json& n) {
  if (n.is_string()) return {"", n.get<std::string>(), {}};  // schema 1: notes were sentences
  return {get<std::string>(n, "kind", ""), get<std::string>(n, "text", ""),
          get(n, "items", std::vector<std::string>{})};
}

RunRecord read_run(const json& r) {
  RunRecord run;
  run.threads = get(r, "threads", 0);
  run.threads_requested = get(r, "threads_requested", 0);
  run.threads_measured = get(r, "threads_measured", true);
  run.repeat = get(r, "repeat", 0);
  run.wall_s = get(r, "wall_s", 0.0);
  run.exit_code = get(r, "exit_code", 0);
  run.signal = get(r, "signal", 0);
  run.status = get<std::string>(r, "status", "ok");
  run.observed = get(r, "observed", true);
  run.finalized = get(r, "finalized", run.observed);
  run.events = get<uint64_t>(r, "events", 0);
  run.dropped_events = get<uint64_t>(r, "dropped_events", 0);
  run.others_cpu_share = get(r, "others_cpu_share", 0.0);
  run.cpu_quota = get(r, "cpu_quota", 0.0);
  run.log = get<std::string>(r, "log", "");
  run.rank = get(r, "rank", -1);
  return run;
}

}  // namespace

namespace {

json problems_json(const std::vector<Problem>& problems) {
  json out = json::array();
  for (const auto& p : problems) {
    json problem = {{"kind", p.kind.name()},
                    {"threads", p.threads},
                    {"time_s", p.time_s},
                    {"gain_s", p.gain_s},
                    {"hint", p.hint}};
    if (!p.details.empty()) {
      json details = json::object();
      for (const auto& [k, v] : p.details) details[k] = v;
      problem["details"] = details;
    }
    out.push_back(problem);
  }
  return out;
}

json source_json(const SourceExcerpt& s) {
  json out = {{"file", s.file}, {"line", s.line}};
  if (s.found()) {
    out["first_line"] = s.first_line;
    out["lines"] = s.lines;
  } else {
    out["missing"] = s.missing;
  }
  return out;
}

json constructs_json(const std::vector<ConstructReport>& constructs) {
  json out = json::array();
  for (const ConstructReport& c : constructs) {
    json construct = {{"kind", to_string(c.kind)},     {"file", c.file},
                      {"line", c.line},     {"function", c.function},
                      {"instances", c.instances}, {"time_s", by_threads(c.time_s)},
                      {"problems", problems_json(c.problems)}};
    if (!c.sampled.empty()) construct["sampled"] = sampled_json(c.sampled);
    if (!c.constructs.empty()) construct["constructs"] = constructs_json(c.constructs);
    if (c.source) construct["source"] = source_json(*c.source);
    out.push_back(construct);
  }
  return out;
}

}  // namespace

json to_json(const Report& report) {
  json doc;
  doc["tool"] = "ompscope";
  doc["version"] = report.version.empty() ? std::string(kVersion) : report.version;
  doc["schema_version"] = kSchemaVersion;
  doc["command"] = report.command;
  doc["threads"] = report.threads;
  doc["scaling"] = report.weak ? "weak" : "strong";
  doc["cores"] = report.cores;
  json over = json::array();
  for (int t : report.threads)
    if (report.oversubscribed(t)) over.push_back(t);
  doc["oversubscribed_threads"] = over;
  if (!report.runtime.empty()) doc["runtime"] = report.runtime;
  // The runtime's costs `ompscope bench` measured on this machine, from its cache (docs/tasks.md).
  if (report.bench)
    doc["bench"] = {{"source", "ompscope bench on this machine"},
                    {"runtime_library", report.bench->runtime_library},
                    {"threads", report.bench->threads},
                    {"task_s", report.bench->task_s},
                    {"dispatch_per_chunk_s", report.bench->dispatch_per_chunk_s > 0
                                                 ? json(report.bench->dispatch_per_chunk_s)
                                                 : json(nullptr)},
                    {"task_tree_s", report.bench->task_tree_s > 0 ? json(report.bench->task_tree_s) : json(nullptr)},
                    {"measured_at", report.bench->measured_at},
                    {"cache_file", report.bench->cache_file},
                    {"machine", report.bench->machine}};

  json runs = json::array();
  for (const auto& r : report.runs) {
    runs.push_back({{"threads", r.threads},
                    {"threads_requested", r.threads_requested > 0 ? json(r.threads_requested) : json(nullptr)},
                    {"threads_measured", r.threads_measured},
                    {"repeat", r.repeat},
                    {"wall_s", r.wall_s},
                    {"exit_code", r.exit_code},
                    {"signal", r.signal ? json(r.signal) : json(nullptr)},
                    {"status", r.status},
                    {"observed", r.observed},
                    {"finalized", r.finalized},
                    {"oversubscribed", report.oversubscribed(r.threads)},
                    {"events", r.events},
                    {"dropped_events", r.dropped_events},
                    {"others_cpu_share", r.others_cpu_share},
                    {"cpu_quota", r.cpu_quota},
                    {"log", r.log}});
    if (r.rank >= 0) runs.back()["rank"] = r.rank;
  }
  doc["runs"] = runs;

  json program = {{"time_s", by_threads(report.program_time_s)},
                  {"speedup", by_threads(report.program_speedup)},
                  {"efficiency", by_threads(report.program_efficiency)},
                  {"serial_s", by_threads(report.serial_s)},
                  {"time_lost_s", by_threads(report.program_time_lost_s)},
                  {"unexplained_s", by_threads(report.program_unexplained_s)},
                  {"given_back_s", by_threads(report.program_given_back_s)},
                  {"per_thread", splits_json(report.program_threads, true)}};
  if (!report.program_time_range_s.empty()) program["time_range_s"] = by_threads(report.program_time_range_s);
  if (!report.mpi_s.empty()) program["mpi_s"] = by_threads(report.mpi_s);
  if (!report.serial_blocked_s.empty()) program["serial_blocked_s"] = by_threads(report.serial_blocked_s);
  if (!report.serial_runqueue_s.empty()) program["serial_runqueue_s"] = by_threads(report.serial_runqueue_s);
  if (!report.serial_before_runtime_s.empty()) program["serial_before_runtime_s"] = by_threads(report.serial_before_runtime_s);
  if (report.amdahl_speedup_bound > 0) program["amdahl_speedup_bound"] = report.amdahl_speedup_bound;
  if (report.program_model) program["model"] = model_json(*report.program_model);
  if (!report.ranks.empty()) {
    json ranks = json::array();
    for (const RankSplit& k : report.ranks) {
      ranks.push_back({{"rank", k.rank},
                       {"time_s", by_threads(k.time_s)},
                       {"parallel_s", by_threads(k.parallel_s)},
                       {"serial_s", by_threads(k.serial_s)},
                       {"mpi_s", by_threads(k.mpi_s)}});
      if (k.pid) ranks.back()["pid"] = k.pid;
      if (!k.command.empty()) ranks.back()["command"] = k.command;
    }
    program["ranks"] = ranks;
    if (report.ranks_are_processes) program["ranks_are"] = "processes";
    program["rank_imbalance_s"] = by_threads(report.rank_imbalance_s);
    program["merged_from_rank"] = report.merged_from_rank;
  }
  doc["program"] = program;

  json regions = json::array();
  for (const auto& r : report.regions) {
    json region = {{"id", r.id},
                   {"kind", to_string(r.kind)},
                   {"file", r.file},
                   {"line", r.line},
                   {"function", r.function},
                   {"instances", r.instances},
                   {"instances_at", by_threads(r.instances_at)},
                   {"time_s", by_threads(r.time_s)},
                   {"speedup", by_threads(r.speedup)},
                   {"efficiency", by_threads(r.efficiency)},
                   {"time_lost_s", by_threads(r.time_lost_s)},
                   {"unexplained_s", by_threads(r.unexplained_s)},
                   {"per_thread", splits_json(r.per_thread, false)}};
    if (!r.recorded_instances_at.empty()) region["recorded_instances_at"] = by_threads(r.recorded_instances_at);
    if (!r.module.empty()) {
      region["module"] = r.module;
      region["module_offset"] = r.module_offset;
    }
    if (r.nested) region["nested"] = true;
    if (!r.tasks.empty()) region["tasks"] = tasks_json(r.tasks);
    if (r.task_replay)
      region["task_replay"] = {{"from_threads", r.task_replay->from_threads},
                               {"per_task_s", r.task_replay->per_task_s},
                               {"predicted_time_s", by_threads(r.task_replay->predicted_time_s)},
                               {"body_growth", r.task_replay->body_growth},
                               {"body_growth_at", r.task_replay->body_growth_at},
                               {"instances", r.task_replay->instances},
                               {"replayed_instances", r.task_replay->replayed_instances}};
    if (!r.sampled.empty()) region["sampled"] = sampled_json(r.sampled);
    if (!r.grown_lines.empty()) region["grown_lines"] = lines_json(r.grown_lines);
    if (!r.stacks.empty()) {
      json stacks = json::array();
      for (const auto& [stack, s] : r.stacks) stacks.push_back({{"stack", stack}, {"cpu_s", s}});
      region["stacks"] = std::move(stacks);
    }
    region["problems"] = problems_json(r.problems);
    if (r.model) region["model"] = model_json(*r.model);
    if (!r.constructs.empty()) {
      region["constructs"] = constructs_json(r.constructs);
      region["outside_constructs_s"] = by_threads(r.outside_constructs_s);
    }
    if (!r.ranks.empty()) {
      json ranks = json::array();
      for (const RankTime& k : r.ranks) {
        ranks.push_back({{"rank", k.rank}, {"time_s", by_threads(k.time_s)}, {"problems", problems_json(k.problems)}});
        if (!k.mpi_s.empty()) ranks.back()["mpi_s"] = by_threads(k.mpi_s);
      }
      region["ranks"] = ranks;
      region["rank_imbalance_s"] = by_threads(r.rank_imbalance_s);
    }
    if (!r.time_spread_s.empty()) region["time_spread_s"] = by_threads(r.time_spread_s);
    if (!r.repeat_times_s.empty()) region["repeat_times_s"] = by_threads(r.repeat_times_s);
    regions.push_back(region);
  }
  doc["regions"] = regions;
  doc["summary_threads"] = report.summary_threads;
  json findings = json::array();
  for (const Finding& f : report.findings) {
    json finding = {{"kind", f.kind.name()},   {"region", f.region},       {"threads", f.threads},
                    {"file", f.file},           {"line", f.line},           {"function", f.function},
                    {"gain_s", f.gain_s},       {"time_s", f.time_s},       {"run_share", f.run_share},
                    {"action", f.action},       {"hint", f.hint},           {"repeats", f.repeats},
                    {"spread_s", f.spread_s},   {"certainty", f.certainty}};
    if (f.source) finding["source"] = source_json(*f.source);
    findings.push_back(finding);
  }
  doc["findings"] = findings;
  json notes = json::array();
  for (const Note& n : report.notes) notes.push_back({{"kind", n.kind}, {"text", n.text}, {"items", n.items}});
  doc["notes"] = notes;
  return doc;
}

Report report_from_json(const json& doc, const std::string& source) {
  if (!doc.is_object() || !doc.contains("tool") || doc["tool"] != "ompscope")
    throw Error(fmt::format("{}: not an ompscope report (corrupt JSON or another tool's file)", source));
  try {
    const int schema = get(doc, "schema_version", 1);
    if (schema > kSchemaVersion)
      throw Error(fmt::format("{}: report schema version {} is newer than this ompscope ({}) reads (versions 1 to {}): "
                              "render it with the ompscope that wrote it",
                              source, schema, kVersion, kSchemaVersion));
    if (schema < 1) throw Bad(fmt::format("schema version {} does not exist", schema));
    if (!doc.contains("regions") || !doc["regions"].is_array()) throw Bad("the report has no regions list");
    Report report;
    report.version = get<std::string>(doc, "version", "");
    report.command = get(doc, "command", std::vector<std::string>{});
    report.threads = get(doc, "threads", std::vector<int>{});
    report.weak = get<std::string>(doc, "scaling", "strong") == "weak";
    report.cores = get(doc, "cores", 0);
    report.runtime = get<std::string>(doc, "runtime", "");
    if (const json* bench = member(doc, "bench")) {
      report::BenchCosts b;
      b.runtime_library = get<std::string>(*bench, "runtime_library", "");
      b.threads = get(*bench, "threads", 0);
      b.task_s = get(*bench, "task_s", 0.0);
      b.dispatch_per_chunk_s = get(*bench, "dispatch_per_chunk_s", 0.0);
      b.task_tree_s = get(*bench, "task_tree_s", 0.0);
      b.measured_at = get<std::string>(*bench, "measured_at", "");
      b.cache_file = get<std::string>(*bench, "cache_file", "");
      b.machine = get<std::string>(*bench, "machine", "");
      report.bench = b;
    }
    for (const json& r : array_at(doc, "runs")) report.runs.push_back(read_run(r));
    if (const json* program = member(doc, "program")) {
      report.program_time_s = read_by_threads<double>(*program, "time_s");
      report.program_speedup = read_by_threads<double>(*program, "speedup");
      report.program_efficiency = read_by_threads<double>(*program, "efficiency");
      report.serial_s = read_by_threads<double>(*program, "serial_s");
      report.mpi_s = read_by_threads<double>(*program, "mpi_s");
      report.serial_blocked_s = read_by_threads<double>(*program, "serial_blocked_s");
      report.serial_runqueue_s = read_by_threads<double>(*program, "serial_runqueue_s");
      report.serial_before_runtime_s = read_by_threads<double>(*program, "serial_before_runtime_s");
      report.program_time_lost_s = read_by_threads<double>(*program, "time_lost_s");
      report.program_unexplained_s = read_by_threads<double>(*program, "unexplained_s");
      report.program_given_back_s = read_by_threads<double>(*program, "given_back_s");
      report.program_time_range_s = read_by_threads<std::pair<double, double>>(*program, "time_range_s");
      report.program_threads = read_splits(*program);
      report.amdahl_speedup_bound = get(*program, "amdahl_speedup_bound", 0.0);
      report.program_model = read_model(*program);
      for (const json& k : array_at(*program, "ranks"))
        report.ranks.push_back({get(k, "rank", 0), read_by_threads<double>(k, "time_s"),
                                read_by_threads<double>(k, "parallel_s"), read_by_threads<double>(k, "serial_s"),
                                read_by_threads<double>(k, "mpi_s"), get(k, "pid", 0), get(k, "command", std::string())});
      report.ranks_are_processes = get(*program, "ranks_are", std::string()) == "processes";
      report.rank_imbalance_s = read_by_threads<double>(*program, "rank_imbalance_s");
      report.merged_from_rank = get(*program, "merged_from_rank", -1);
      if (!member(*program, "speedup")) report.program_speedup = speedups(report.program_time_s);  // schema 1
    }
    for (const json& r : array_at(doc, "regions")) report.regions.push_back(read_region(r));
    report.summary_threads = member(doc, "summary_threads") ? get(doc, "summary_threads", std::vector<int>{})
                                                             : summary_counts(report);  // schema 1
    for (const json& n : array_at(doc, "notes")) report.notes.push_back(read_note(n));
    // Reports written before the findings list: built from their own figures, as the analysis does.
    if (member(doc, "findings"))
      for (const json& f : array_at(doc, "findings")) report.findings.push_back(read_finding(f));
    else
      report.findings = build_findings(report);
    return report;
  } catch (const Bad& bad) {
    throw Error(fmt::format("{}: not a valid ompscope report: {}", source, bad.what()));
  } catch (const json::exception& e) {
    throw Error(fmt::format("{}: not a valid ompscope report: {}", source, e.what()));
  }
}

Report report_from_json(const nlohmann::json& doc, const std::string& source) {
  return report_from_json(json::parse(doc.dump()), source);
}

Report read_report(const std::string& path) {
  // A regular file only (a FIFO hung `report`), nested no deeper than kMaxJsonDepth (100 000
  // nested arrays in "details" crashed it): docs/safety.md, "Readers".
  const std::string text = read_regular_file(path);
  const json doc = parse_json_with_depth_limit<json>(text, path, false);
  if (doc.is_discarded()) throw Error(fmt::format("{}: not an ompscope report (not JSON)", path));
  return report_from_json(doc, path);
}

}  // namespace ompscope::report
