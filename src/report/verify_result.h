// The typed result of `ompscope verify DIR` (docs/verify.md): each finding of a report whose fix
// is a runtime setting, measured by re-running the program with the setting, interleaved with
// the program as it was, beside the gain the report predicted. Planned and judged by
// analysis/verify_plan.cpp, the runs made by cli/verify_command.cpp, rendered by
// output/verify_reporters.cpp.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/report.h"

namespace ompscope::report {

// A runtime setting to try: the environment it sets, and why it fits the causes it is tried for.
struct RuntimeSetting {
  std::string name;  // as the user would write it: "KMP_LOCK_KIND=tas"
  std::map<std::string, std::string> env;
  std::string why;
  std::vector<double> wall_s;  // the program's times with it, one per repeat
};

struct VerifyFinding {
  CauseKind kind;
  std::string region_id, file, function;
  int line = 0;
  double predicted_gain_s = 0;  // the cause's gain at the verified count, as the report gave it
  std::string hint;
  int setting = -1;             // index into VerifyResult::settings; -1: the fix is a code change
};

// What one setting measured: the median of the program's times without it less with it, both
// ranges of repeats added, and the U test's p-value of the two sets of times where there are
// enough (4 a side) for it to reach p < 0.05; significant: p < 0.05, else (fewer repeats) the
// gain larger than the ranges together.
struct SettingGain {
  double measured_gain_s = 0;
  double spread_s = 0;
  std::optional<double> p_value;
  bool significant = false;
  double predicted_gain_s = 0;  // the gains of the findings it was tried for, together
};

struct VerifyResult {
  std::string dir;
  std::vector<std::string> command;
  std::string runtime;
  int threads = 0;
  int repeats = 0;
  std::map<std::string, std::string> environment;  // what every run had (count, binding)
  std::vector<double> baseline_wall_s;             // the program as it was, one per repeat
  std::vector<RuntimeSetting> settings;
  std::vector<SettingGain> gains;                  // per setting, once measured
  std::vector<VerifyFinding> findings;             // by predicted gain, largest first
};

// verify.json (schema 1): `findings[]` with kind, file, line, setting, predicted_gain_s,
// measured_gain_s, spread_s (setting null and both measured figures null for a code change).
nlohmann::ordered_json to_json(const VerifyResult& result);

}  // namespace ompscope::report
