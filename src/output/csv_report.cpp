#include "output/csv_report.h"

#include <fmt/format.h>

#include <optional>

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

template <typename T>
std::optional<double> at(const std::map<int, T>& values, int t) {
  const auto it = values.find(t);
  if (it == values.end()) return std::nullopt;
  return static_cast<double>(it->second);
}

}  // namespace

std::string render_csv_report(const report::Report& report) {
  // The task-graph columns come last so that readers of the older columns are not disturbed.
  std::string out =
      "region,kind,file,line,function,threads,instances,time_s,efficiency,time_lost_s,problem,problem_time_s,gain_s,hint,"
      "tasks,task_work_s,task_span_s,task_parallelism,task_speedup_bound\n";
  for (const report::RegionReport& r : report.regions) {
    const std::string head = fmt::format("{},{},{},{},{}", csv_field(r.id), to_string(r.kind), csv_field(r.file), r.line,
                                         csv_field(r.function));
    for (int t : report.threads) {
      const auto time = at(r.time_s, t);
      if (!time) continue;
      const std::string row = fmt::format("{},{},{},{},{},{}", head, t, number(at(r.instances_at, t)), number(time),
                                          number(at(r.efficiency, t)), number(at(r.time_lost_s, t)));
      std::string task_columns = ",,,,";
      if (const auto s = r.tasks.find(t); s != r.tasks.end())
        task_columns = fmt::format("{},{},{},{},{}", number(s->second.tasks), number(s->second.work_s),
                                   number(s->second.span_s), number(s->second.parallelism),
                                   number(s->second.speedup_bound));
      out += row + ",,,,," + task_columns + "\n";
      for (const report::Problem& p : r.problems)
        if (p.threads == t)
          out += fmt::format("{},{},{},{},{},{}\n", row, csv_field(std::string(p.kind.name())), number(p.time_s),
                             number(p.gain_s), csv_field(p.hint), task_columns);
    }
  }
  return out;
}

}  // namespace ompscope::output
