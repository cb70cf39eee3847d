#include "output/report_json.h"

#include "common/version.h"

namespace ompscope::output {
namespace {

using nlohmann::json;

template <typename T>
json by_threads(const std::map<int, T>& values) {
  json out = json::object();
  for (const auto& [t, v] : values) out[std::to_string(t)] = v;
  return out;
}

json split_json(const analysis::ThreadSplit& s, bool program) {
  json j = {{"thread", s.thread},
            {"work_s", s.work_s},
            {"task_s", s.task_s},
            {"barrier_wait_s", s.barrier_wait_s},
            {"lock_wait_s", s.lock_wait_s},
            {"fork_join_s", s.fork_join_s},
            {"tasks", s.tasks}};
  if (program) j["outside_s"] = s.outside_s;
  return j;
}

json splits_by_threads(const std::map<int, std::vector<analysis::ThreadSplit>>& splits, bool program) {
  json out = json::object();
  for (const auto& [t, list] : splits) {
    json arr = json::array();
    for (const auto& s : list) arr.push_back(split_json(s, program));
    out[std::to_string(t)] = arr;
  }
  return out;
}

json tasks_json(const std::map<int, analysis::TaskSummary>& tasks) {
  json out = json::object();
  for (const auto& [t, s] : tasks) {
    json j = {{"count", s.tasks},
              {"recorded", s.recorded_tasks},
              {"mean_body_s", s.mean_body_s},
              {"work_s", s.work_s},
              {"span_s", s.span_s},
              {"parallelism", s.parallelism},
              {"speedup_bound", s.speedup_bound},
              {"starvation_s", s.starvation_s},
              {"tail_idle_s", s.tail_idle_s},
              {"end_idle_s", s.end_idle_s}};
    j["measured_speedup"] = s.measured_speedup > 0 ? json(s.measured_speedup) : json(nullptr);
    j["dispatch_s"] = s.dispatch_s > 0 ? json(s.dispatch_s) : json(nullptr);
    // OMPT marks a creation with one event: the cost is bounded from above by the intervals
    // between two creations with nothing run between them, never measured directly.
    j["creation_s"] = s.creation_s > 0 ? json(s.creation_s) : json(nullptr);
    j["taskwait_s"] = s.taskwait_s > 0 ? json(s.taskwait_s) : json(nullptr);
    j["immediate_start_s"] = s.immediate_start_s > 0 ? json(s.immediate_start_s) : json(nullptr);
    j["per_task_cost_s"] = s.per_task_cost_s > 0 ? json(s.per_task_cost_s) : json(nullptr);
    j["creation_estimated"] = true;
    out[std::to_string(t)] = j;
  }
  return out;
}

}  // namespace

json report_to_json(const analysis::Report& report) {
  json doc;
  doc["tool"] = "ompscope";
  doc["version"] = kVersion;
  doc["command"] = report.command;
  doc["threads"] = report.threads;
  doc["cores"] = report.cores;
  json over = json::array();
  for (int t : report.threads)
    if (report.oversubscribed(t)) over.push_back(t);
  doc["oversubscribed_threads"] = over;
  if (!report.runtime.empty()) doc["runtime"] = report.runtime;

  json runs = json::array();
  for (const auto& r : report.runs) {
    runs.push_back({{"threads", r.threads},
                    {"repeat", r.repeat},
                    {"wall_s", r.wall_s},
                    {"exit_code", r.exit_code},
                    {"signal", r.signal ? json(r.signal) : json(nullptr)},
                    {"status", r.status},
                    {"observed", r.observed},
                    {"oversubscribed", report.oversubscribed(r.threads)},
                    {"events", r.events},
                    {"dropped_events", r.dropped_events},
                    {"log", r.log}});
  }
  doc["runs"] = runs;

  json program = {{"time_s", by_threads(report.program_time_s)},
                  {"efficiency", by_threads(report.program_efficiency)},
                  {"serial_s", by_threads(report.serial_s)},
                  {"per_thread", splits_by_threads(report.program_threads, true)}};
  if (report.amdahl_speedup_bound > 0) program["amdahl_speedup_bound"] = report.amdahl_speedup_bound;
  doc["program"] = program;

  json regions = json::array();
  for (const auto& r : report.regions) {
    json region = {{"id", r.id},
                   {"kind", r.kind},
                   {"file", r.file},
                   {"line", r.line},
                   {"function", r.function},
                   {"instances", r.instances},
                   {"instances_at", by_threads(r.instances_at)},
                   {"time_s", by_threads(r.time_s)},
                   {"efficiency", by_threads(r.efficiency)},
                   {"time_lost_s", by_threads(r.time_lost_s)},
                   {"per_thread", splits_by_threads(r.per_thread, false)}};
    if (!r.recorded_instances_at.empty()) region["recorded_instances_at"] = by_threads(r.recorded_instances_at);
    if (!r.module.empty()) {
      region["module"] = r.module;
      region["module_offset"] = r.module_offset;
    }
    if (r.nested) region["nested"] = true;
    if (!r.tasks.empty()) region["tasks"] = tasks_json(r.tasks);
    json problems = json::array();
    for (const auto& p : r.problems) {
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
      problems.push_back(problem);
    }
    region["problems"] = problems;
    regions.push_back(region);
  }
  doc["regions"] = regions;
  doc["notes"] = report.notes;
  return doc;
}

}  // namespace ompscope::output
