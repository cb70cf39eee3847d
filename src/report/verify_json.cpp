// verify.json: the typed result of `ompscope verify` as JSON (report/verify_result.h).
#include "report/verify_result.h"

namespace ompscope::report {

nlohmann::ordered_json to_json(const VerifyResult& r) {
  using json = nlohmann::ordered_json;
  json settings = json::array();
  for (size_t i = 0; i < r.settings.size(); ++i) {
    const RuntimeSetting& s = r.settings[i];
    json one = {{"setting", s.name}, {"env", s.env}, {"why", s.why}, {"wall_s", s.wall_s}};
    if (i < r.gains.size())
      one.update({{"predicted_gain_s", r.gains[i].predicted_gain_s},
                  {"measured_gain_s", r.gains[i].measured_gain_s},
                  {"spread_s", r.gains[i].spread_s},
                  {"p_value", r.gains[i].p_value ? json(*r.gains[i].p_value) : json(nullptr)},
                  {"significant", r.gains[i].significant}});
    settings.push_back(one);
  }
  json findings = json::array();
  for (const VerifyFinding& f : r.findings) {
    const bool measured = f.setting >= 0 && static_cast<size_t>(f.setting) < r.gains.size();
    findings.push_back({{"kind", std::string(f.kind.name())},
                        {"region", f.region_id},
                        {"file", f.file},
                        {"line", f.line},
                        {"function", f.function},
                        {"setting", f.setting >= 0 ? json(r.settings[f.setting].name) : json(nullptr)},
                        {"predicted_gain_s", f.predicted_gain_s},
                        {"measured_gain_s", measured ? json(r.gains[f.setting].measured_gain_s) : json(nullptr)},
                        {"spread_s", measured ? json(r.gains[f.setting].spread_s) : json(nullptr)},
                        {"p_value", measured && r.gains[f.setting].p_value ? json(*r.gains[f.setting].p_value) : json(nullptr)},
                        {"significant", measured ? json(r.gains[f.setting].significant) : json(nullptr)},
                        {"code_change", f.setting < 0},
                        {"hint", f.hint}});
  }
  return {{"schema", 1},
          {"dir", r.dir},
          {"command", r.command},
          {"runtime", r.runtime},
          {"threads", r.threads},
          {"repeats", r.repeats},
          {"environment", r.environment},
          {"baseline_wall_s", r.baseline_wall_s},
          {"settings", settings},
          {"findings", findings}};
}

}  // namespace ompscope::report
