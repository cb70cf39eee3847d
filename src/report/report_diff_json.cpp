// diff.json: the typed diff as JSON (report/report_diff.h), through nlohmann::json.
#include "report/report_diff.h"

namespace ompscope::report {

const char* diff_match_name(DiffMatch m) {
  switch (m) {
    case DiffMatch::SameLine: return "same_line";
    case DiffMatch::Moved: return "moved";
    case DiffMatch::OnlyInA: return "only_in_a";
    case DiffMatch::OnlyInB: return "only_in_b";
  }
  return "";
}

namespace {

using json = nlohmann::ordered_json;

json optional_number(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json side_json(const std::optional<DiffSide>& s) {
  if (!s) return nullptr;
  json causes = json::object();
  for (const Problem& p : s->problems) causes[std::string(p.kind.name())] = {{"time_s", p.time_s}, {"gain_s", p.gain_s}};
  json out = {{"id", s->id}, {"file", s->file}, {"line", s->line}, {"instances", s->instances},
              {"time_s", s->time_s}, {"spread_s", optional_number(s->spread_s)}, {"causes", causes}};
  return out;
}

json parts_json(const std::vector<PartChange>& parts) {
  json out = json::array();
  for (const PartChange& p : parts) {
    json j = {{"kind", p.kind}, {"file", p.file}, {"line", p.line}};
    if (!p.function.empty()) j["function"] = p.function;
    j["a_s"] = optional_number(p.a_s);
    j["b_s"] = optional_number(p.b_s);
    j["change_s"] = p.change_s;
    out.push_back(std::move(j));
  }
  return out;
}

json region_json(const RegionDiff& r) {
  const DiffSide& where = r.b ? *r.b : *r.a;
  json causes = json::array();
  for (const CauseChange& c : r.causes)
    causes.push_back({{"kind", std::string(c.kind.name())},
                      {"a_gain_s", optional_number(c.a_gain_s)},
                      {"b_gain_s", optional_number(c.b_gain_s)}});
  json out = {{"kind", r.kind},         {"file", where.file},
              {"line", where.line},     {"function", r.function},
              {"match", diff_match_name(r.match)},
              {"a", side_json(r.a)},    {"b", side_json(r.b)},
              {"change_s", r.change_s}, {"spread_s", optional_number(r.spread_s)},
              {"p_value", optional_number(r.p_value)}, {"significant", r.significant}, {"causes", causes}};
  if (!r.constructs.empty()) out["constructs"] = parts_json(r.constructs);
  if (!r.lines.empty()) out["lines"] = parts_json(r.lines);
  return out;
}

json input_json(const DiffInput& in) {
  return {{"name", in.name}, {"command", in.command}, {"runtime", in.runtime}, {"threads", in.threads}};
}

}  // namespace

json to_json(const ReportDiff& diff) {
  json regions = json::array();
  for (const RegionDiff& r : diff.regions) regions.push_back(region_json(r));
  json program = {{"a_time_s", diff.program.a ? json(diff.program.a->time_s) : json(nullptr)},
                  {"b_time_s", diff.program.b ? json(diff.program.b->time_s) : json(nullptr)},
                  {"change_s", diff.program.change_s},
                  {"spread_s", optional_number(diff.program.spread_s)},
                  {"p_value", optional_number(diff.program.p_value)},
                  {"significant", diff.program.significant}};
  return {{"schema", 1},           {"a", input_json(diff.a)}, {"b", input_json(diff.b)},
          {"threads", diff.threads}, {"program", program},    {"regions", regions},
          {"notes", diff.notes}};
}

}  // namespace ompscope::report
