// `ompscope bench`: runs the construct micro-benchmark programs (src/bench) once per runtime,
// thread count and construct, then prints a table and writes JSON (-o) and Extra-P text
// (--extrap). The programs are found next to this executable, as in the build tree and the
// install tree (bin/); they are started with posix_spawn, never through a shell.
#include <fmt/format.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/core/bench_cache.h"
#include "bench/core/bench_json.h"
#include "bench/core/constructs.h"
#include "bench/core/extrap_writer.h"
#include "bench/core/results_table.h"
#include "bench/core/run_plan.h"
#include "cli/bench_costs.h"
#include "cli/commands.h"
#include "cli/cpu_busy.h"
#include "cli/program_launch.h"
#include "common/error.h"
#include "common/safe_file.h"
#include "common/thread_count_phrase.h"

namespace ompscope::cli {
namespace {

namespace fs = std::filesystem;
using bench::BenchDocument;
using bench::Construct;

struct BenchOptions {
  std::vector<int> threads;
  std::string constructs = "all";
  std::string runtime = "both";
  std::string bind = "spread";
  bool quick = false;
  bool calibrate = false;
  std::string output;
  std::string extrap;
};

struct PlannedRun {
  std::string runtime;
  fs::path program;
  int threads;
  Construct construct;
};

fs::path own_directory() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("bench: cannot locate its own executable (/proc/self/exe): " + ec.message());
  return self.parent_path();
}

fs::path bench_program(const fs::path& directory, const std::string& runtime) {
  const fs::path program = directory / ("ompscope-bench-" + runtime);
  if (access(program.c_str(), X_OK) != 0)
    throw Error(fmt::format("bench: {} not found next to ompscope (is the {} build of the bench "
                            "program installed?)",
                            program.string(), runtime == "gnu" ? "GNU libgomp (g++)" : "LLVM libomp"));
  return program;
}

// Removes the per-run JSON files however the command ends.
class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = (fs::path(base && *base ? base : "/tmp") / "ompscope-bench-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw Error("bench: cannot create a temporary directory");
    path_ = pattern;
  }
  ~TemporaryDirectory() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// One line per run; on a terminal the line is rewritten in place.
class Progress {
 public:
  explicit Progress(int total) : total_(total), terminal_(isatty(STDERR_FILENO) == 1) {}

  void starting(int index, const PlannedRun& run, int cores) {
    const double elapsed = seconds_since_start();
    const std::string line = fmt::format(
        "[{:>{}}/{}] {:<4} {:>3} thread{}{} {:<13} elapsed {}, about {} left", index + 1,
        std::to_string(total_).size(), total_, run.runtime, run.threads, run.threads == 1 ? " " : "s",
        run.threads > cores ? " (oversubscribed)" : "", bench::construct_info(run.construct).name,
        bench::format_duration(elapsed), bench::format_duration(bench::estimate_seconds_left(elapsed, index, total_)));
    if (terminal_)
      fmt::print(stderr, "\r\033[K{}", line);
    else
      fmt::print(stderr, "{}\n", line);
    std::fflush(stderr);
  }

  void finished() {
    if (terminal_) fmt::print(stderr, "\r\033[K");
    fmt::print(stderr, "ompscope bench: {} runs in {}\n", total_, bench::format_duration(seconds_since_start()));
  }

 private:
  double seconds_since_start() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  }
  int total_;
  bool terminal_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

std::vector<PlannedRun> plan_runs(const BenchOptions& o, const std::vector<int>& threads,
                                  const std::vector<Construct>& constructs) {
  const fs::path directory = own_directory();
  std::vector<std::string> runtimes;
  if (o.runtime == "llvm" || o.runtime == "both") runtimes.push_back("llvm");
  if (o.runtime == "gnu" || o.runtime == "both") runtimes.push_back("gnu");
  if (o.calibrate && o.runtime == "both") {
    // --calibrate caches what it can: the bench programs of this install (a GCC build has only
    // ompscope-bench-gnu; an install of the ompscope component alone has neither).
    std::erase_if(runtimes, [&](const std::string& r) {
      return access((directory / ("ompscope-bench-" + r)).c_str(), X_OK) != 0;
    });
    if (runtimes.empty())
      throw Error(fmt::format("bench --calibrate: no bench program next to ompscope in {} (ompscope-bench-llvm, "
                              "ompscope-bench-gnu): install the 'bench' component (cmake --install BUILD "
                              "--component bench)",
                              directory.string()));
  }
  std::vector<PlannedRun> runs;
  for (const std::string& runtime : runtimes) {
    const fs::path program = bench_program(directory, runtime);
    for (int t : threads)
      for (Construct c : constructs) runs.push_back({runtime, program, t, c});
  }
  return runs;
}

BenchDocument run_one(const PlannedRun& run, const BenchOptions& o, const fs::path& result_file) {
  Launch launch;
  launch.argv = {run.program.string(), "--construct", std::string(bench::construct_info(run.construct).name),
                 "-o", result_file.string()};
  if (o.quick) launch.argv.push_back("--quick");
  // OMP_PLACES stays the user's where set: they may know their machine's places better.
  const char* places = std::getenv("OMP_PLACES");
  launch.env = {{"OMP_NUM_THREADS", std::to_string(run.threads)},
                {"OMP_PROC_BIND", o.bind},
                {"OMP_PLACES", places && *places ? places : "threads"},
                {"OMP_DYNAMIC", "false"}};
  const LaunchOutcome outcome = launch_and_wait(launch);
  const std::string what = fmt::format("{} ({} at {})", run.program.filename().string(),
                                       bench::construct_info(run.construct).name, threads_phrase(run.threads));
  if (!outcome.ok()) throw Error(fmt::format("bench: {} failed: {}", what, outcome.describe()));
  std::ifstream in(result_file);
  try {
    return bench::bench_document_from_json(nlohmann::json::parse(in));
  } catch (const std::exception& e) {
    throw Error(fmt::format("bench: {} wrote unreadable results: {}", what, e.what()));
  }
}

// A new temporary beside the file (O_EXCL|O_NOFOLLOW), renamed onto it (docs/safety.md).
void write_file(const std::string& path, const std::string& text) {
  try {
    write_file_replacing(path, text);
  } catch (const Error& e) {
    throw Error(std::string("bench: ") + e.what());
  }
}

// A calibration measured while other processes surely used more than this share of the CPUs'
// capacity is not cached (cpu_busy.h). On a 2-vCPU VM: quiet, 0% in 8 of 8 windows; beside one
// busy loop, libomp's 42–44% and libgomp's only 10–13% (its spinning threads starve the loop,
// which still takes time slices from them).
constexpr double kMaxOthersShare = 0.05;

// Writes what the runs measured of the task and loop-dispatch constructs into the bench cache,
// keyed by each runtime library and this CPU (docs/tasks.md, "The bench cache").
// `busy_by_library`: per runtime library, the share of the CPUs other processes used while its
// runs ran (all of them at once).
void write_bench_cache(const BenchDocument& merged, bool calibrating, const std::map<std::string, double>& busy_by_library) {
  std::vector<bench::CachedCosts> entries = bench::costs_of_bench(merged);
  if (entries.empty()) {
    if (calibrating)
      throw Error("bench: --calibrate: no team of 2 threads or more ran the task and loop constructs without "
                  "oversubscription (this machine has fewer than 2 CPUs for this process?): nothing cached");
    return;
  }
  // Others' share while each entry was measured, by the cache's key (the library's real path).
  std::map<std::string, double> busy_by_key;
  for (bench::CachedCosts& e : entries) {
    const bench::CacheKey key = bench_cache_key(e.key.library);
    if (const auto busy = busy_by_library.find(e.key.library); busy != busy_by_library.end())
      busy_by_key[key.library] = busy->second;
    e.key = key;
  }
  // A calibration whose own samples spread too wide was measured while something else ran: the
  // cache keeps what it had (docs/tasks.md, "The bench cache").
  std::vector<std::string> refused;
  std::erase_if(entries, [&](const bench::CachedCosts& e) {
    if (const auto busy = busy_by_key.find(e.key.library); busy != busy_by_key.end() && busy->second > kMaxOthersShare) {
      refused.push_back(fmt::format("{}: other processes used {:.0f}% of the CPUs while it was measured (at most {:.0f}% "
                                    "is cached): the machine was busy",
                                    e.key.library, 100 * busy->second, 100 * kMaxOthersShare));
      return true;
    }
    if (!(e.spread > bench::kMaxCachedSpread)) return false;
    refused.push_back(fmt::format("{}: the middle half of its samples spreads {:.0f}% of their median (at most {:.0f}% "
                                  "is cached): the machine was busy while it was measured",
                                  e.key.library, 100 * e.spread, 100 * bench::kMaxCachedSpread));
    return true;
  });
  for (const std::string& r : refused) fmt::print(stderr, "ompscope: bench: not cached: {}\n", r);
  if (entries.empty()) {
    if (calibrating)
      throw Error("bench: --calibrate: nothing cached, the machine was busy during every calibration (rerun it on a "
                  "quiet machine)");
    return;
  }
  const fs::path file = bench_cache_path();
  if (file.empty()) throw Error("bench: cannot cache the results: neither XDG_CACHE_HOME nor HOME is set");
  try {
    bench::write_cached_costs(file, entries);
  } catch (const std::runtime_error& e) {
    throw Error(std::string("bench: ") + e.what());
  }
  for (const bench::CachedCosts& e : entries) {
    const auto busy = busy_by_key.find(e.key.library);
    fmt::print("bench cache {}: {} at {}: a task {:.3f} µs, a dynamic loop's dispatch {} per chunk, a recursive "
               "tree's task deferred {} beyond run at once{}\n",
               file.string(), e.key.library, threads_phrase(e.threads), e.task_s * 1e6,
               e.dispatch_per_chunk_s > 0 ? fmt::format("{:.3f} µs", e.dispatch_per_chunk_s * 1e6)
                                          : std::string("not measured (no more than a static loop's)"),
               e.task_tree_s > 0 ? fmt::format("{:.3f} µs", e.task_tree_s * 1e6) : std::string("not measured"),
               busy == busy_by_key.end()
                   ? std::string()
                   : fmt::format(" (other processes used {:.0f}% of the CPUs meanwhile)", 100 * busy->second));
  }
}

int run_bench(BenchOptions o) {
  if (o.calibrate) {
    // What scale, profile and report read from the cache: the task construct, the loop dispatch
    // and a recursive tree's deferred task at 2 threads (about 10 s for both runtimes; --quick's fewer repetitions would
    // leave a noisy figure in the cache for good).
    o.constructs = "task,for_static,for_dynamic,task_tree";
    if (o.threads.empty()) o.threads = {2};
  }
  std::vector<Construct> constructs;
  try {
    constructs = bench::parse_construct_list(o.constructs);
  } catch (const std::invalid_argument& e) {
    throw Error(std::string("bench: --construct: ") + e.what());
  }
  const int cores = bench::available_cpus();
  const std::vector<int> threads = o.threads.empty() ? bench::default_thread_counts(cores) : o.threads;
  const std::vector<PlannedRun> runs = plan_runs(o, threads, constructs);

  BenchDocument merged;
  merged.runtime = o.runtime;
  merged.cores = cores;
  TemporaryDirectory scratch;
  Progress progress(static_cast<int>(runs.size()));
  // Others' share of the CPUs while each runtime's runs ran (they run one runtime after the other):
  // over all of them at once, a run of 0.1 s being too short for the kernel's 10 ms ticks.
  std::map<std::string, double> busy_by_library;
  std::set<std::string> libraries_in_window;
  CpuBusySnapshot window_start = cpu_busy_now();
  const auto close_window = [&] {  // and open the next runtime's
    const CpuBusySnapshot now = cpu_busy_now();
    const double share = others_share(window_start, now);
    for (const std::string& library : libraries_in_window) busy_by_library[library] = share;
    libraries_in_window.clear();
    window_start = now;
  };
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (i > 0 && runs[i].runtime != runs[i - 1].runtime) close_window();
    progress.starting(static_cast<int>(i), runs[i], cores);
    BenchDocument doc = run_one(runs[i], o, scratch.path() / fmt::format("run-{}.json", i));
    for (const bench::SeriesResult& r : doc.results)
      if (const auto library = r.details.find("runtime_library"); library != r.details.end() && library->is_string())
        libraries_in_window.insert(library->get<std::string>());
    merged.proc_bind = doc.proc_bind;
    merged.places = doc.places;
    merged.clock = doc.clock;
    for (bench::SeriesResult& r : doc.results) merged.results.push_back(std::move(r));
  }
  close_window();
  progress.finished();

  fmt::print("{}", bench::render_results_table(merged.results, cores));
  fmt::print("OMP_PROC_BIND={} OMP_PLACES={}; clock: {}\n", merged.proc_bind, merged.places, merged.clock);
  if (!o.output.empty()) {
    write_file(o.output, bench::to_json(merged).dump() + "\n");
    fmt::print("results: {}\n", o.output);
  }
  if (!o.extrap.empty()) {
    std::ostringstream text;
    bench::write_extrap(text, merged.results);
    write_file(o.extrap, text.str());
    fmt::print("Extra-P text: {}\n", o.extrap);
  }
  write_bench_cache(merged, o.calibrate, busy_by_library);
  return 0;
}

}  // namespace

Command add_bench_command(CLI::App& parent) {
  auto* app = parent.add_subcommand(
      "bench", "Measure the cost of OpenMP constructs per thread count (EPCC and direct methods)");
  auto options = std::make_shared<BenchOptions>();
  app->add_option("-t,--threads", options->threads,
                  "Thread counts, comma-separated (default: 1, 2, powers of two up to the core count, the core count)")
      ->delimiter(',')
      ->check(CLI::Range(1, 4096));
  app->add_option("--construct", options->constructs,
                  "Constructs, comma-separated, or all: " + bench::construct_names_joined(","))
      ->default_val("all");
  app->add_option("--runtime", options->runtime, "OpenMP runtime: llvm (libomp), gnu (libgomp) or both")
      ->check(CLI::IsMember({"llvm", "gnu", "both"}))
      ->default_val("both");
  app->add_option("--bind", options->bind, "Thread binding (OMP_PROC_BIND); OMP_PLACES is threads unless set")
      ->check(CLI::IsMember({"spread", "close"}))
      ->default_val("spread");
  app->add_flag("--quick", options->quick, "Fewer repetitions: well under a minute, noisier");
  app->add_flag("--calibrate", options->calibrate,
                "Only what scale, profile and report read from the bench cache: the task, loop-dispatch and task-tree "
                "constructs at 2 threads, about 10 s (docs/tasks.md, \"The bench cache\"); any "
                "bench run that measured them caches them");
  app->add_option("-o,--output", options->output, "Write the results as JSON (read by `ompscope model`)");
  app->add_option("--extrap", options->extrap, "Write the results in Extra-P's text format");
  return {app, [options] { return run_bench(*options); }};
}

}  // namespace ompscope::cli
