#include "output/csv_report.h"

#include <fmt/format.h>

#include "output/report_fields.h"

namespace ompscope::output {
namespace {

// RFC 4180 quoting: fields with a comma, quote or newline are quoted, quotes doubled.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string number(std::optional<double> v) { return v ? fmt::format("{:.9g}", *v) : ""; }

}  // namespace

std::string render_csv_report(const nlohmann::json& report) {
  // The task-graph columns come last so that readers of the older columns are not disturbed.
  std::string out =
      "region,kind,file,line,function,threads,instances,time_s,efficiency,time_lost_s,problem,problem_time_s,gain_s,hint,"
      "tasks,task_work_s,task_span_s,task_parallelism,task_speedup_bound\n";
  const nlohmann::json* regions = field(report, "regions");
  if (!regions) return out;
  for (const nlohmann::json& r : *regions) {
    const std::string head = fmt::format("{},{},{},{},{}", csv_field(string_field(r, "id")),
                                         csv_field(string_field(r, "kind")), csv_field(string_field(r, "file")),
                                         r.value("line", 0), csv_field(string_field(r, "function")));
    for (int t : thread_counts(report)) {
      auto time = at_threads(r, "time_s", t);
      if (!time) continue;
      auto instances = at_threads(r, "instances_at", t);
      const std::string row = fmt::format("{},{},{},{},{},{}", head, t, number(instances), number(time),
                                          number(at_threads(r, "efficiency", t)), number(at_threads(r, "time_lost_s", t)));
      std::string task_columns = ",,,,";
      if (const nlohmann::json* tasks = field(r, "tasks"))
        if (const nlohmann::json* s = field(*tasks, std::to_string(t)))
          task_columns = fmt::format("{},{},{},{},{}", number(number_field(*s, "count")), number(number_field(*s, "work_s")),
                                     number(number_field(*s, "span_s")), number(number_field(*s, "parallelism")),
                                     number(number_field(*s, "speedup_bound")));
      out += row + ",,,,," + task_columns + "\n";
      if (const nlohmann::json* problems = field(r, "problems"))
        for (const nlohmann::json& p : *problems)
          if (p.value("threads", 0) == t)
            out += fmt::format("{},{},{},{},{},{}\n", row, csv_field(p.value("kind", "")), number(p.value("time_s", 0.0)),
                               number(p.value("gain_s", 0.0)), csv_field(p.value("hint", "")), task_columns);
    }
  }
  return out;
}

}  // namespace ompscope::output
