// How often the fitter recovers a known law from noisy measurements. For every one of the 38
// term shapes t^i * log2(t)^j: draw c0 ~ U[1, 10] and c1 ~ U[0.1, 10], measure f(t) at
// t = 1, 2, 4, ..., 64 with `reps` repetitions, each multiplied by (1 + U[-noise, +noise]),
// summarise, fit, and count a draw as recovered when the chosen model is exactly
// c0 + c1 * t^i * log2(t)^j (same i and j, one term). A law counts as recovered when at least
// half of its draws are. With --outliers P, each repetition is also, with probability P, slowed
// down by a further factor 1.5 to 3 (a preempted run). Deterministic for a given seed.
//
//   model_recovery_rate [--noise 0.01,0.05,0.2] [--outliers 0] [--draws 1000] [--reps 5]
//                       [--seed 1] [--summary minimum|median|trimmed_mean|mean]
//                       [--weighting relative|absolute] [--trend-sign] [--per-law]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "model/hypothesis_space.h"
#include "model/pmnf_fitter.h"
#include "model/robust_summary.h"

using namespace ompscope::model;

namespace {

struct Settings {
  std::vector<double> noise_levels = {0.01, 0.05, 0.2};
  double outliers = 0;
  int draws = 1000;
  int reps = 5;
  unsigned long seed = 1;
  Summary summary = Summary::minimum;  // the library's default for timings (series.h)
  FitOptions fit;
  bool per_law = false;
};

Settings parse(int argc, char** argv) {
  Settings settings;
  for (int a = 1; a < argc; ++a) {
    const std::string_view flag = argv[a];
    const auto value = [&]() -> std::string {
      if (a + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", argv[a]);
        std::exit(2);
      }
      return argv[++a];
    };
    if (flag == "--noise") {
      settings.noise_levels.clear();
      std::string list = value();
      for (std::size_t start = 0; start <= list.size();) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        settings.noise_levels.push_back(std::stod(list.substr(start, comma - start)));
        start = comma + 1;
      }
    } else if (flag == "--outliers") settings.outliers = std::stod(value());
    else if (flag == "--draws") settings.draws = std::stoi(value());
    else if (flag == "--reps") settings.reps = std::stoi(value());
    else if (flag == "--seed") settings.seed = std::stoul(value());
    else if (flag == "--trend-sign") settings.fit.require_trend_sign = true;
    else if (flag == "--per-law") settings.per_law = true;
    else if (flag == "--weighting") {
      const std::string w = value();
      settings.fit.weighting = w == "absolute" ? Weighting::absolute : Weighting::relative;
    } else if (flag == "--summary") {
      const std::string s = value();
      if (s == "median") settings.summary = Summary::median;
      else if (s == "mean") settings.summary = Summary::mean;
      else if (s == "trimmed_mean") settings.summary = Summary::trimmed_mean;
      else settings.summary = Summary::minimum;
    } else {
      std::fprintf(stderr, "unknown flag %s\n", argv[a]);
      std::exit(2);
    }
  }
  return settings;
}

// Recovery of every law at one noise level; prints one summary line (and per law, if asked).
void measure(const Settings& settings, double noise_level) {
  const std::vector<double> threads = {1, 2, 4, 8, 16, 32, 64};
  PmnfFitter fitter(HypothesisSpace{}, settings.fit);
  const std::vector<TermShape> laws = HypothesisSpace{}.term_shapes();

  std::mt19937_64 random(settings.seed);
  std::uniform_real_distribution<double> constant(1, 10), coefficient(0.1, 10),
      noise(-noise_level, noise_level), unit(0, 1), slowdown(1.5, 3);
  std::vector<double> repetitions(settings.reps), values(threads.size());

  int laws_recovered = 0;
  double draws_recovered = 0;
  for (const TermShape& law : laws) {
    int hits = 0;
    for (int draw = 0; draw < settings.draws; ++draw) {
      const double c0 = constant(random), c1 = coefficient(random);
      for (std::size_t k = 0; k < threads.size(); ++k) {
        const double exact = c0 + c1 * law.at(threads[k]);
        for (double& r : repetitions) {
          r = exact * (1 + noise(random));
          if (unit(random) < settings.outliers) r *= slowdown(random);
        }
        values[k] = summarize(repetitions, settings.summary);
      }
      const Fit fit = fitter.fit(threads, values);
      if (fit.function.terms.size() == 1 && fit.function.terms[0].shape == law) ++hits;
    }
    const double rate = static_cast<double>(hits) / settings.draws;
    draws_recovered += rate;
    if (2 * hits >= settings.draws) ++laws_recovered;
    if (settings.per_law) std::printf("  %-22s %5.1f%%\n", law.to_string().c_str(), 100 * rate);
  }
  std::printf("noise +-%g%%  outliers %g%%  reps %d  draws %d  summary %s  weighting %s%s:  "
              "%d/%zu laws recovered (>= half their draws); %.1f/%zu per draw on average\n",
              100 * noise_level, 100 * settings.outliers, settings.reps, settings.draws,
              std::string(to_string(settings.summary)).c_str(),
              settings.fit.weighting == Weighting::relative ? "relative" : "absolute",
              settings.fit.require_trend_sign ? "  trend-sign" : "", laws_recovered, laws.size(),
              draws_recovered, laws.size());
}

}  // namespace

int main(int argc, char** argv) {
  const Settings settings = parse(argc, argv);
  for (double noise_level : settings.noise_levels) measure(settings, noise_level);
  return 0;
}
