// ompscope-bench-llvm / ompscope-bench-gnu: measures OpenMP constructs at the thread count the
// runtime was given (OMP_NUM_THREADS) and writes the results as JSON (bench_json.h). Built
// once per runtime; `ompscope bench` runs it per construct and thread count.
#include <link.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

#include "bench/core/bench_json.h"
#include "bench/core/constructs.h"
#include "bench/program/delay_work.h"
#include "bench/program/direct_constructs.h"
#include "bench/program/epcc_constructs.h"
#include "bench/program/tick_clock.h"
#include "common/thread_count_phrase.h"

#ifndef OMPSCOPE_BENCH_RUNTIME
#error "OMPSCOPE_BENCH_RUNTIME must name the OpenMP runtime (llvm or gnu)"
#endif

namespace ompscope::bench {
namespace {

constexpr const char* kUsage =
    "usage: ompscope-bench-" OMPSCOPE_BENCH_RUNTIME
    " [--construct LIST] [--method epcc|direct|both] [--quick] [-o FILE] [--list]\n"
    "Measures OpenMP constructs with the team size of OMP_NUM_THREADS; writes JSON (stdout by\n"
    "default). LIST: comma-separated construct names, or all (the default).\n";

struct Options {
  std::vector<Construct> constructs;
  bool epcc = true;
  bool direct = true;
  bool quick = false;
  std::string output;
};

Options parse_options(int argc, char** argv) {
  Options o;
  o.constructs = parse_construct_list("all");
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(std::string(arg) + " needs a value");
      return argv[++i];
    };
    if (arg == "--construct") {
      o.constructs = parse_construct_list(value());
    } else if (arg == "--method") {
      const std::string m = value();
      if (m != "epcc" && m != "direct" && m != "both") throw std::invalid_argument("--method: epcc, direct or both");
      o.epcc = m != "direct";
      o.direct = m != "epcc";
    } else if (arg == "--quick") {
      o.quick = true;
    } else if (arg == "-o") {
      o.output = value();
    } else if (arg == "--list") {
      std::cout << construct_names_joined("\n") << '\n';
      std::exit(0);
    } else if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else {
      throw std::invalid_argument("unknown argument '" + std::string(arg) + "'");
    }
  }
  return o;
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::vector<double> ticks_to_seconds(const TickClock& clock, const std::vector<int64_t>& ticks) {
  std::vector<double> out;
  for (int64_t t : ticks) out.push_back(clock.seconds(static_cast<double>(t)));
  return out;
}

// The OpenMP runtime library this process really loaded: proof that the GNU build runs on
// libgomp and the LLVM build on libomp, whatever the compiler driver chose.
std::string loaded_openmp_library() {
  std::string found;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) {
        const std::string_view name = info->dlpi_name ? info->dlpi_name : "";
        for (std::string_view lib : {"libgomp", "libomp", "libiomp"})
          if (name.find(lib) != std::string_view::npos) {
            *static_cast<std::string*>(out) = std::string(name);
            return 1;
          }
        return 0;
      },
      &found);
  return found;
}

// Lets the runtime create its threads and the CPUs leave idle states before anything counts.
void warm_up(const DelayWork& delay) {
  for (int i = 0; i < 200; ++i) {
#pragma omp parallel
    {
      delay.run();
#pragma omp barrier
    }
  }
}

int run(int argc, char** argv) {
  const Options options = parse_options(argc, argv);
  omp_set_dynamic(0);
  const int team = omp_get_max_threads();
  // Every method waits for each team member in turn: a smaller team than asked (a thread limit)
  // would leave them waiting for a thread that never comes.
  int formed = 0;
#pragma omp parallel num_threads(team)
  {
#pragma omp single
    formed = omp_get_num_threads();
  }
  if (formed != team)
    throw std::runtime_error("the runtime formed a team of " + threads_phrase(formed) + " where " +
                             std::to_string(team) + " were asked (OMP_THREAD_LIMIT, or the runtime's own limits?)");
  // Not available_cpus(): with OMP_PROC_BIND the runtime has already bound this thread to one
  // place (libgomp does so before main). The runtime's count comes from the unbound mask.
  const int cores = omp_get_num_procs();
  const bool oversubscribed = team > cores;

  const TickClock clock = TickClock::calibrate(options.quick ? 0.01 : 0.03);
  const DelayWork delay = DelayWork::calibrate(clock, 0.1e-6);
  EpccSettings epcc;
  DirectSettings direct;
  direct.oversubscribed = oversubscribed;
  if (options.quick) {
    epcc.outer_repetitions = 40;
    epcc.time_budget_s = 0.5;
    direct.samples = 60;
    direct.ping_rounds = 50;
    direct.offset_budget_s = 0.5;
    direct.time_budget_s = 0.5;
  }
  warm_up(delay);
  const ThreadClockOffsets offsets = calibrate_thread_offsets(clock, direct);
  const int64_t worst = *std::max_element(offsets.uncertainty.begin(), offsets.uncertainty.end());
  // Oversubscribed series say so already (entries_unsynchronised): there the bound is the scheduler's.
  if (options.direct && !oversubscribed &&
      (!offsets.consistent || clock.seconds(static_cast<double>(worst)) > direct.offset_target_s))
    std::cerr << "ompscope-bench-" OMPSCOPE_BENCH_RUNTIME ": warning: thread clocks "
              << (offsets.consistent ? "" : "disagree with themselves (drift, or threads moved between CPUs); they ")
              << "are aligned only to +-" << clock.seconds(static_cast<double>(worst)) * 1e6
              << " us: direct-method costs are that uncertain (machine loaded? bind threads with OMP_PROC_BIND)\n";

  BenchDocument doc;
  doc.runtime = OMPSCOPE_BENCH_RUNTIME;
  doc.cores = cores;
  doc.proc_bind = env_or_empty("OMP_PROC_BIND");
  doc.places = env_or_empty("OMP_PLACES");
  doc.clock = clock.description();
  const std::string runtime_library = loaded_openmp_library();
  auto series = [&](Construct c, const char* method, const char* metric, std::vector<double> samples,
                    nlohmann::json details) {
    SeriesResult r;
    r.construct = construct_info(c).name;
    r.runtime = OMPSCOPE_BENCH_RUNTIME;
    r.method = method;
    r.metric = metric;
    r.threads = team;
    r.oversubscribed = oversubscribed;
    r.samples_s = std::move(samples);
    r.measured_at = utc_now();
    r.details = std::move(details);
    r.details["runtime_library"] = runtime_library;
    if (r.samples_s.empty())
      throw std::runtime_error(std::string(method) + " method kept no sample of " + r.construct +
                               " in its time budget (every synchronised start missed: machine too loaded?)");
    doc.results.push_back(std::move(r));
  };

  for (Construct c : options.constructs) {
    if (options.epcc) {
      const EpccMeasurement m = measure_epcc(epcc_case(c, clock, delay), epcc, clock);
      series(c, "epcc", "overhead", m.overhead_s,
             {{"inner_repetitions", m.inner_repetitions},
              {"delay_s", delay.seconds()},
              {"reference_s", m.reference_s},
              {"test_s", m.test_s},
              {"stopped_by_time_budget", m.stopped_by_time_budget}});
    }
    if (options.direct && c != Construct::TaskTree) {
      const DirectMeasurement m = measure_direct(c, clock, offsets, direct);
      const nlohmann::json details = {{"samples_kept", m.min_cost_s.size()},
                                      {"missed_windows", m.missed_windows},
                                      {"late_entries_dropped", m.late_entries_dropped},
                                      {"entries_unsynchronised", m.unsynchronised},
                                      {"window_s", m.window_s},
                                      {"stopped_by_time_budget", m.stopped_by_time_budget},
                                      {"clock_offsets_s", ticks_to_seconds(clock, offsets.offset)},
                                      {"offset_uncertainty_s", ticks_to_seconds(clock, offsets.uncertainty)},
                                      {"clock_offsets_consistent", offsets.consistent},
                                      {"ping_batches", offsets.batches}};
      series(c, "direct", "min_cost", m.min_cost_s, details);
      series(c, "direct", "avg_cost", m.avg_cost_s, details);
    }
  }

  const std::string text = to_json(doc).dump() + "\n";
  if (options.output.empty()) {
    std::cout << text;
  } else {
    std::ofstream out(options.output);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + options.output);
  }
  return 0;
}

}  // namespace
}  // namespace ompscope::bench

int main(int argc, char** argv) {
  try {
    return ompscope::bench::run(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::cerr << "ompscope-bench-" OMPSCOPE_BENCH_RUNTIME ": " << e.what() << '\n' << ompscope::bench::kUsage;
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "ompscope-bench-" OMPSCOPE_BENCH_RUNTIME ": " << e.what() << '\n';
    return 1;
  }
}
