#include "model/pmnf_fitter.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

#include "common/error.h"

namespace ompscope::model {

namespace {

constexpr int kMaxTerms = 3;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Two hypotheses whose cross-validation scores differ by less than this are a tie, and the
// earlier (simpler, slower-growing) one is kept: noise-free data then give the exact law even
// though several hypotheses fit to rounding error (e.g. constant data and c1 ~ 1e-17).
bool clearly_better(double score, double best) {
  return score < best * (1 - 1e-9) - 1e-24;
}

}  // namespace

struct PmnfFitter::Candidate {
  double score = kInfinity;  // sum of weighted squared leave-one-out residuals
  int term_count = 0;
  std::array<int, kMaxTerms> shapes{};
  std::array<double, kMaxTerms + 1> coefficients{};  // constant first
};

PmnfFitter::PmnfFitter(HypothesisSpace space, FitOptions options)
    : space_(std::move(space)), options_(options), shapes_(space_.term_shapes()) {
  if (space_.max_terms < 1 || space_.max_terms > kMaxTerms)
    throw Error("number of terms must be 1.." + std::to_string(kMaxTerms) + ", not " +
                std::to_string(space_.max_terms));
  if (shapes_.empty()) throw Error("the hypothesis space has no term besides the constant");
  if (static_cast<int>(shapes_.size()) < space_.max_terms)
    throw Error("the hypothesis space has fewer term shapes than terms per model");
}

void PmnfFitter::prepare(std::span<const double> threads, std::span<const double> values) {
  if (threads.size() != values.size())
    throw Error("model fit: " + std::to_string(threads.size()) + " thread counts but " +
                std::to_string(values.size()) + " values");
  if (threads.size() < 2) throw Error("model fit: needs at least 2 thread counts");
  for (std::size_t k = 0; k < threads.size(); ++k) {
    if (!(threads[k] >= 1) || !std::isfinite(threads[k]))
      throw Error("model fit: thread count " + std::to_string(threads[k]) + " is not >= 1");
    if (!std::isfinite(values[k])) throw Error("model fit: a value is not a finite number");
    for (std::size_t other = 0; other < k; ++other)
      if (threads[other] == threads[k])
        throw Error("model fit: thread count " + std::to_string(threads[k]) + " appears twice");
  }
  threads_.assign(threads.begin(), threads.end());
  values_.assign(values.begin(), values.end());
  const std::size_t n = threads_.size();

  if (cached_threads_ != threads_) {
    basis_.resize(shapes_.size() * n);
    for (std::size_t s = 0; s < shapes_.size(); ++s)
      for (std::size_t k = 0; k < n; ++k) basis_[s * n + k] = shapes_[s].at(threads_[k]);
    cached_threads_ = threads_;
  }

  double largest = 0;
  double mean_magnitude = 0;
  for (double v : values_) {
    largest = std::max(largest, std::abs(v));
    mean_magnitude += std::abs(v) / static_cast<double>(n);
  }
  weights_.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    double scale = 1;
    if (options_.weighting == Weighting::relative) {
      // A value near zero would get an enormous weight; one hundredth of the largest value
      // bounds the weights of values that touch zero.
      scale = std::max(std::abs(values_[k]), 0.01 * largest);
    } else {
      scale = mean_magnitude;
    }
    weights_[k] = scale > 0 ? 1 / (scale * scale) : 1;
  }
  q_.resize(static_cast<std::size_t>(kMaxTerms + 1) * n);
  residuals_.resize(n);
}

void PmnfFitter::consider_constant(Candidate& best) const {
  const std::size_t n = threads_.size();
  double weight_sum = 0;
  double weighted_sum = 0;
  for (std::size_t k = 0; k < n; ++k) {
    weight_sum += weights_[k];
    weighted_sum += weights_[k] * values_[k];
  }
  const double c0 = weighted_sum / weight_sum;
  double score = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double leverage = weights_[k] / weight_sum;
    const double loo = (values_[k] - c0) / (1 - leverage);
    score += weights_[k] * loo * loo;
  }
  if (clearly_better(score, best.score)) {
    best = Candidate{};
    best.score = score;
    best.coefficients[0] = c0;
  }
}

// One term plus constant in closed form. With the fit's weighted means (gm, ym) and centred
// sums Sgg, Sgy: c1 = Sgy / Sgg, c0 = ym - c1 gm; the leverage of point k is
// w_k (1/W + (g_k - gm)^2 / Sgg), and its leave-one-out residual is e_k / (1 - leverage).
void PmnfFitter::consider_single_terms(Candidate& best) const {
  const std::size_t n = threads_.size();
  if (n < 3) return;  // two coefficients need a third point to be cross-validated
  double weight_sum = 0;
  double weighted_y = 0;
  for (std::size_t k = 0; k < n; ++k) {
    weight_sum += weights_[k];
    weighted_y += weights_[k] * values_[k];
  }
  const double y_mean = weighted_y / weight_sum;
  std::size_t first = 0;
  std::size_t last = 0;
  for (std::size_t k = 1; k < n; ++k) {
    if (threads_[k] < threads_[first]) first = k;
    if (threads_[k] > threads_[last]) last = k;
  }
  const double trend = values_[last] - values_[first];

  for (std::size_t s = 0; s < shapes_.size(); ++s) {
    const double* g = &basis_[s * n];
    double g_mean = 0;
    for (std::size_t k = 0; k < n; ++k) g_mean += weights_[k] * g[k];
    g_mean /= weight_sum;
    double sgg = 0;
    double sgy = 0;
    double g_scale = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const double dg = g[k] - g_mean;
      sgg += weights_[k] * dg * dg;
      sgy += weights_[k] * dg * (values_[k] - y_mean);
      g_scale += weights_[k] * g[k] * g[k];
    }
    if (!(sgg > 1e-12 * g_scale)) continue;  // the shape is constant on these thread counts
    const double c1 = sgy / sgg;
    const double c0 = y_mean - c1 * g_mean;
    if (options_.require_trend_sign && c1 * trend < 0) continue;
    double score = 0;
    for (std::size_t k = 0; k < n && score < best.score; ++k) {
      const double dg = g[k] - g_mean;
      const double leverage = weights_[k] * (1 / weight_sum + dg * dg / sgg);
      if (leverage > 1 - 1e-9) {
        score = kInfinity;
        break;
      }
      const double loo = (values_[k] - c0 - c1 * g[k]) / (1 - leverage);
      score += weights_[k] * loo * loo;
    }
    if (clearly_better(score, best.score)) {
      best = Candidate{};
      best.score = score;
      best.term_count = 1;
      best.shapes[0] = static_cast<int>(s);
      best.coefficients[0] = c0;
      best.coefficients[1] = c1;
    }
  }
}

// Several terms: weighted least squares by Gram-Schmidt (twice, for orthogonality between the
// nearly parallel columns such as t^(7/4) and t^2); leverages are the squared row norms of Q.
double PmnfFitter::weighted_cv_of_combination(std::span<const int> shape_indices,
                                              double* coefficients) {
  const std::size_t n = threads_.size();
  const std::size_t p = shape_indices.size() + 1;
  if (n < p + 1) return kInfinity;
  std::array<std::array<double, kMaxTerms + 1>, kMaxTerms + 1> r{};
  for (std::size_t col = 0; col < p; ++col) {
    double* q = &q_[col * n];
    const double* g = col == 0 ? nullptr : &basis_[shape_indices[col - 1] * n];
    double original_norm = 0;
    for (std::size_t k = 0; k < n; ++k) {
      q[k] = std::sqrt(weights_[k]) * (g ? g[k] : 1.0);
      original_norm += q[k] * q[k];
    }
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t prev = 0; prev < col; ++prev) {
        const double* qp = &q_[prev * n];
        double dot = 0;
        for (std::size_t k = 0; k < n; ++k) dot += qp[k] * q[k];
        for (std::size_t k = 0; k < n; ++k) q[k] -= dot * qp[k];
        r[prev][col] += dot;
      }
    }
    double norm = 0;
    for (std::size_t k = 0; k < n; ++k) norm += q[k] * q[k];
    if (!(norm > 1e-20 * original_norm)) return kInfinity;  // columns linearly dependent here
    norm = std::sqrt(norm);
    r[col][col] = norm;
    for (std::size_t k = 0; k < n; ++k) q[k] /= norm;
  }
  // Projections of the weighted values, residuals and leverages.
  std::array<double, kMaxTerms + 1> qty{};
  for (std::size_t k = 0; k < n; ++k) residuals_[k] = std::sqrt(weights_[k]) * values_[k];
  for (std::size_t col = 0; col < p; ++col) {
    const double* q = &q_[col * n];
    double dot = 0;
    for (std::size_t k = 0; k < n; ++k) dot += q[k] * residuals_[k];
    qty[col] = dot;
    for (std::size_t k = 0; k < n; ++k) residuals_[k] -= dot * q[k];
  }
  double score = 0;
  for (std::size_t k = 0; k < n; ++k) {
    double leverage = 0;
    for (std::size_t col = 0; col < p; ++col) leverage += q_[col * n + k] * q_[col * n + k];
    if (leverage > 1 - 1e-9) return kInfinity;
    const double loo = residuals_[k] / (1 - leverage);
    score += loo * loo;
  }
  for (std::size_t row = p; row-- > 0;) {
    double sum = qty[row];
    for (std::size_t col = row + 1; col < p; ++col) sum -= r[row][col] * coefficients[col];
    coefficients[row] = sum / r[row][row];
  }
  return score;
}

void PmnfFitter::consider_combinations(int term_count, Candidate& best) {
  const int shape_count = static_cast<int>(shapes_.size());
  std::array<int, kMaxTerms> chosen{};
  for (int m = 0; m < term_count; ++m) chosen[m] = m;
  std::array<double, kMaxTerms + 1> coefficients{};
  while (true) {
    const double score = weighted_cv_of_combination(
        std::span<const int>(chosen.data(), term_count), coefficients.data());
    if (clearly_better(score, best.score)) {
      best = Candidate{};
      best.score = score;
      best.term_count = term_count;
      best.shapes = chosen;
      best.coefficients = coefficients;
    }
    // Next combination in lexicographic order.
    int m = term_count - 1;
    while (m >= 0 && chosen[m] == shape_count - term_count + m) --m;
    if (m < 0) break;
    ++chosen[m];
    for (int later = m + 1; later < term_count; ++later) chosen[later] = chosen[later - 1] + 1;
  }
}

Fit PmnfFitter::finish(const Candidate& best) const {
  Fit fit;
  fit.function.constant = best.coefficients[0];
  for (int m = 0; m < best.term_count; ++m)
    fit.function.terms.push_back({best.coefficients[m + 1], shapes_[best.shapes[m]]});

  // The score is a sum of squared relative errors; cv_error is its root mean, in percent.
  const double cv_error = 100 * std::sqrt(best.score / static_cast<double>(threads_.size()));
  fit.quality = in_sample_quality(fit.function, threads_, values_, cv_error);
  return fit;
}

Fit PmnfFitter::fit(std::span<const double> threads, std::span<const double> values) {
  prepare(threads, values);
  Candidate best;
  consider_constant(best);
  consider_single_terms(best);
  for (int terms = 2; terms <= space_.max_terms; ++terms) consider_combinations(terms, best);
  return finish(best);
}

}  // namespace ompscope::model
