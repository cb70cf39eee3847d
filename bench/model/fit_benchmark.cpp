// Time to model one 7-point series (t = 1, 2, 4, ..., 64) over the full hypothesis space
// (38 term shapes plus the constant, each cross-validated). Goal: <= 100 us per model.
//   model_fit_benchmark --benchmark_repetitions=10 --benchmark_report_aggregates_only=false
#include <benchmark/benchmark.h>

#include <vector>

#include "model/pmnf_fitter.h"
#include "model/series_modeler.h"

namespace {

using namespace ompscope::model;

const std::vector<double> kThreads = {1, 2, 4, 8, 16, 32, 64};

// 3 + 0.5 t^(3/2) log2(t), perturbed by a fixed +-3% pattern.
std::vector<double> measured_values() {
  const PmnfFunction law{3, {{0.5, {Fraction::of(3, 2), 1}}}};
  const double wobble[] = {0.01, -0.03, 0.02, 0.0, -0.01, 0.03, -0.02};
  std::vector<double> values;
  for (std::size_t k = 0; k < kThreads.size(); ++k) values.push_back(law(kThreads[k]) * (1 + wobble[k]));
  return values;
}

// The fitter reused across series, as when one input has many regions at the same counts.
void FitOneSeries(benchmark::State& state) {
  PmnfFitter fitter;
  const std::vector<double> values = measured_values();
  for (auto _ : state) benchmark::DoNotOptimize(fitter.fit(kThreads, values));
}
BENCHMARK(FitOneSeries)->Unit(benchmark::kMicrosecond);

// A fresh fitter every time: includes building the hypothesis space and its basis values.
void FitOneSeriesFreshFitter(benchmark::State& state) {
  const std::vector<double> values = measured_values();
  for (auto _ : state) {
    PmnfFitter fitter;
    benchmark::DoNotOptimize(fitter.fit(kThreads, values));
  }
}
BENCHMARK(FitOneSeriesFreshFitter)->Unit(benchmark::kMicrosecond);

// --terms 2: all 703 pairs of shapes as well.
void FitOneSeriesTwoTerms(benchmark::State& state) {
  HypothesisSpace space;
  space.max_terms = 2;
  PmnfFitter fitter(space);
  const std::vector<double> values = measured_values();
  for (auto _ : state) benchmark::DoNotOptimize(fitter.fit(kThreads, values));
}
BENCHMARK(FitOneSeriesTwoTerms)->Unit(benchmark::kMicrosecond);

// The whole model_series path: 5 repetitions summarised per point, fit, verdicts.
void ModelSeriesWithRepetitions(benchmark::State& state) {
  Series series;
  series.region = "barrier";
  series.metric = "time";
  const std::vector<double> values = measured_values();
  for (std::size_t k = 0; k < kThreads.size(); ++k)
    series.points.push_back({kThreads[k], {values[k], values[k] * 1.01, values[k] * 0.99,
                                           values[k] * 1.02, values[k] * 1.005}});
  for (auto _ : state) benchmark::DoNotOptimize(model_series(series));
}
BENCHMARK(ModelSeriesWithRepetitions)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
