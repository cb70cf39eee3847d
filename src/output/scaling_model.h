// A fitted scaling model as report.json holds it: the "model" of a region or of the program
// (docs/design.md, "The report"; written by `scale`). The writers read it tolerantly, show it as a
// formula and a verdict, and evaluate it where a chart draws the curve; none of them fits.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ompscope::output {

struct ScalingModel {
  struct Term {
    double coefficient = 0;
    double i = 0;           // exponent of t
    std::string exponent;   // i as written by the fitter ("1/2", "-1"); empty: from i
    int j = 0;              // exponent of log2(t)
  };
  double constant = 0;
  std::vector<Term> terms;
  std::string growth;                  // "linear", "super-linear", ...; empty when absent
  bool growth_of_thread_seconds = false;
  std::optional<double> adj_r2;
  std::optional<double> stops_paying_off_at;
  bool extrapolated = false;
  std::vector<int> oversubscribed_threads;  // fitted counts above the cores

  double at(double threads) const;  // c0 + sum c * t^i * log2(t)^j
};

// The "model" of a region or of report.json's "program"; none when absent or malformed.
std::optional<ScalingModel> scaling_model(const nlohmann::json& owner);

// "2.10e-02 + 4.30e-02/t", "1.20e-03 + 3.40e-04·t·log2(t)": seconds, three significant digits.
std::string model_formula(const ScalingModel& model);

// What the model says and how far to trust it: "t·T(t) grows linearly: more threads stop
// paying off past 2; adj. R² 0.998; fitted with 3, 4 oversubscribed".
std::string model_about(const ScalingModel& model);

}  // namespace ompscope::output
