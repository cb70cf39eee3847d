// Fits c0 + sum_k c_k * t^i_k * log2(t)^j_k to one value per thread count and picks the
// hypothesis that predicts left-out points best (leave-one-out cross-validation). Pure: numbers
// in, a function and its quality out; nothing here knows where the numbers came from.
#pragma once
#include <span>
#include <vector>

#include "model/fit_quality.h"
#include "model/hypothesis_space.h"
#include "model/pmnf_function.h"

namespace ompscope::model {

// How residuals are weighed in the least-squares fit and in the cross-validation score.
enum class Weighting {
  // Relative to the measured value (weight 1/y^2): timing noise is multiplicative, so the
  // large values at many threads would otherwise decide the fit alone. The default: it
  // recovers more laws (BENCHMARKS.md, "Model fitting").
  relative,
  // Ordinary least squares, as Extra-P fits: kept to measure what the weighting gains.
  absolute,
};

struct FitOptions {
  Weighting weighting = Weighting::relative;
  // Refuse a single-term hypothesis whose coefficient has the opposite sign of the data's
  // overall trend (first vs last point). Off by default: measured, it does not help recovery.
  bool require_trend_sign = false;
};

struct Fit {
  PmnfFunction function;
  FitQuality quality;
};

class PmnfFitter {
 public:
  explicit PmnfFitter(HypothesisSpace space = {}, FitOptions options = {});

  // threads: distinct positive thread counts (any order); values: one summary value each.
  // Needs at least 2 points (more for hypotheses with more terms: a hypothesis with p
  // coefficients needs p + 1 points to be cross-validated, otherwise it does not compete).
  // Throws ompscope::Error on bad input.
  Fit fit(std::span<const double> threads, std::span<const double> values);

  const HypothesisSpace& space() const { return space_; }
  const FitOptions& options() const { return options_; }

 private:
  struct Candidate;
  void prepare(std::span<const double> threads, std::span<const double> values);
  void consider_constant(Candidate& best) const;
  void consider_single_terms(Candidate& best) const;
  void consider_combinations(int term_count, Candidate& best);
  double weighted_cv_of_combination(std::span<const int> shape_indices, double* coefficients);
  Fit finish(const Candidate& best) const;

  HypothesisSpace space_;
  FitOptions options_;
  std::vector<TermShape> shapes_;

  // Basis values shape-major (basis_[s * n + k] = shape s at point k), recomputed only when
  // the thread counts change: a series of many regions shares one set of thread counts.
  std::vector<double> cached_threads_;
  std::vector<double> basis_;
  std::vector<double> threads_, values_, weights_;
  // Scratch for the multi-term least squares, sized once per fit.
  std::vector<double> q_, residuals_;
};

}  // namespace ompscope::model
