#include "output/scaling_model.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>


namespace ompscope::output {

using report::ScalingModel;

namespace {

std::string coefficient_text(double value) { return fmt::format("{:.2e}", value); }

// The exponent as the fitter wrote it, without its sign ("1/2"), else from the number.
std::string magnitude_text(const ScalingModel::Term& term) {
  std::string text = term.exponent.empty() ? fmt::format("{:g}", term.i) : term.exponent;
  if (!text.empty() && text[0] == '-') text.erase(0, 1);
  return text;
}

// "t", "t^(3/2)", "" for t^0; the power of t without its sign.
std::string power_text(const ScalingModel::Term& term) {
  const double magnitude = std::fabs(term.i);
  if (magnitude == 0) return {};
  if (magnitude == 1) return "t";
  const std::string exponent = magnitude_text(term);
  return exponent.find('/') == std::string::npos ? "t^" + exponent : "t^(" + exponent + ")";
}

// "3.40e-04·t·log2(t)", "4.30e-02/t", "1.00e-03·log2(t)^2/t^(1/2)": the term without its sign.
std::string term_text(const ScalingModel::Term& term) {
  std::string text = coefficient_text(std::fabs(term.coefficient));
  const std::string power = power_text(term);
  if (term.i > 0) text += "·" + power;
  if (term.j == 1) text += "·log2(t)";
  if (term.j > 1) text += fmt::format("·log2(t)^{}", term.j);
  if (term.i < 0) text += "/" + power;
  return text;
}

std::string growth_words(report::Growth growth) {
  switch (growth) {
    case report::Growth::constant: return "stays constant";
    case report::Growth::decreasing: return "decreases";
    case report::Growth::logarithmic: return "grows logarithmically";
    case report::Growth::sublinear: return "grows sub-linearly";
    case report::Growth::linear: return "grows linearly";
    case report::Growth::superlinear: return "grows super-linearly";
  }
  return "grows";
}

}  // namespace

std::string model_formula(const ScalingModel& model) {
  std::string text;
  if (model.constant != 0 || model.terms.empty()) text = coefficient_text(model.constant);
  for (const ScalingModel::Term& term : model.terms) {
    if (text.empty()) text = term.coefficient < 0 ? "−" + term_text(term) : term_text(term);
    else text += (term.coefficient < 0 ? " − " : " + ") + term_text(term);
  }
  return text;
}

std::string model_about(const ScalingModel& model) {
  std::string text;
  if (model.growth) text = (model.growth_of_thread_seconds ? "t·T(t) " : "") + growth_words(*model.growth);
  if (!model.verdict_withheld.empty()) text = "no verdict: " + model.verdict_withheld;
  else if (model.growth_of_thread_seconds) {
    std::string payoff = model.stops_paying_off_at
                             ? fmt::format("more threads stop paying off past {:g} thread{}{}", *model.stops_paying_off_at,
                                           *model.stops_paying_off_at == 1 ? "" : "s",
                                           model.extrapolated ? " (extrapolated)" : "")
                             : "more threads keep paying off";
    text += text.empty() ? payoff : ": " + payoff;
  }
  std::vector<std::string> parts;
  if (!text.empty()) parts.push_back(text);
  parts.push_back(fmt::format("adj. R² {:.3f}", model.adj_r2));
  // Oversubscribed counts measure time-sharing, not scaling: a reader must know they are in.
  if (!model.oversubscribed_threads.empty())
    parts.push_back(fmt::format("fitted with {} oversubscribed", fmt::join(model.oversubscribed_threads, ", ")));
  return fmt::format("{}", fmt::join(parts, "; "));
}

}  // namespace ompscope::output
