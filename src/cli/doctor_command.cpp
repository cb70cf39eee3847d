// ompscope doctor: answers "the tool shows nothing" — which runtime, is OMPT active, where
// libomp and the tool library are, the clock and its calibration, and what to do about each gap.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "analysis/run_log.h"
#include "cli/commands.h"
#include "cli/core_places.h"
#include "cli/measurement.h"
#include "common/clock.h"
#include "common/safe_file.h"

namespace ompscope::cli {
namespace fs = std::filesystem;
namespace {

struct Checklist {
  int problems = 0;
  void ok(const std::string& what) { fmt::print("  ok    {}\n", what); }
  void info(const std::string& what) { fmt::print("        {}\n", what); }
  void bad(const std::string& what, const std::string& fix) {
    ++problems;
    fmt::print("  FAIL  {}\n        fix: {}\n", what, fix);
  }
};

double calibrate_tsc_hz() {
  const uint64_t t0 = __rdtsc(), n0 = monotonic_ns();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const uint64_t t1 = __rdtsc(), n1 = monotonic_ns();
  return static_cast<double>(t1 - t0) * 1e9 / static_cast<double>(n1 - n0);
}

}  // namespace

Command add_doctor_command(CLI::App& parent) {
  auto program = std::make_shared<std::vector<std::string>>();
  auto runtime = std::make_shared<std::string>("native");
  CLI::App* app = parent.add_subcommand("doctor", "check that OMPT observation works: runtime, tool library, clock");
  add_runtime_option(app, *runtime);
  app->add_option("program", *program, "optionally, the program you want to observe (and its arguments), after --");
  app->positionals_at_end();
  return {app, [program, runtime]() -> int {
            Checklist c;
            fmt::print("ompscope doctor\n\ntool library\n");
            const fs::path tool = tool_library_path();
            c.info(fmt::format("looked for it in {} (this ompscope's directory + {}, the layout it was installed with)",
                               tool.parent_path().string(), bindir_to_libdir()));
            if (fs::exists(tool)) c.ok(tool.string());
            else c.bad(tool.string() + " is missing",
                       "reinstall ompscope (cmake --install) without moving bin/ and the library directory apart");
            const fs::path gomp_tool = gomp_tool_library_path();
            if (fs::exists(gomp_tool)) c.ok(gomp_tool.string() + " (GCC-built programs, on GNU libgomp)");
            else c.bad(gomp_tool.string() + " is missing", "reinstall ompscope (cmake --install --component ompscope)");

            fmt::print("\nOpenMP runtime\n");
            const std::string libomp = find_libomp();
            c.info(fmt::format("looked for LLVM libomp (GCC-built programs run on it with --runtime llvm) in: {}",
                               fmt::join(libomp_candidates(), ", ")));
            if (libomp.empty())
              c.bad("no LLVM libomp found", "install LLVM's OpenMP runtime (Debian: libomp5-14) or put its directory "
                                            "on LD_LIBRARY_PATH");
            else c.ok("LLVM libomp: " + libomp);
            if (const char* t = getenv("OMP_TOOL"); t && std::string(t) == "disabled")
              c.bad("OMP_TOOL=disabled is set: the runtime will not load any tool", "unset OMP_TOOL");
            if (const char* l = getenv("OMP_TOOL_LIBRARIES"); l && *l)
              c.info(fmt::format("OMP_TOOL_LIBRARIES={} is set; ompscope replaces it for the runs it starts", l));

            const fs::path probe = executable_directory() / "ompscope-probe";
            std::vector<std::string> argv = program->empty() ? std::vector<std::string>{probe.string()} : *program;
            // One observed run on each runtime it can be measured on: the program's own (the
            // probe's: libgomp through the interposer where GCC built it, libomp through OMPT
            // where clang did) and, for a libgomp program without a program given, OMPT for real
            // on LLVM libomp's GOMP layer too. The program's own output is not doctor's.
            std::vector<RuntimeChoice> choices = {runtime_choice(*runtime)};
            if (program->empty() && *runtime == "native" && !libomp.empty() &&
                detect_program_runtime(probe.string()).kind == RuntimeKind::GnuLibgomp)
              choices.push_back(RuntimeChoice::Llvm);
            for (const RuntimeChoice choice : choices) try {
              const Target target = resolve_target(argv, choice);
              fmt::print("\n{}, observed on {}\n",
                         target.interposed ? "GNU libgomp (interposed: libgomp has no OMPT)"
                         : target.swapped  ? "OMPT, on LLVM libomp's GOMP layer (--runtime llvm)"
                                           : "OMPT",
                         program->empty() ? "the bundled probe program" : argv[0]);
              c.info("program's runtime: " + target.runtime.describe());
              if (target.interposed)
                c.info("measured on: GNU libgomp, its own runtime, through libompscope_gomp.so (libgomp has no "
                       "OMPT; --runtime llvm would run it on LLVM libomp's GOMP layer instead)");
              if (target.swapped)
                c.info("measured on: LLVM libomp's GOMP layer (--runtime llvm), not the GNU libgomp it ships with");
              if (!target.unobserved.empty())
                c.info(fmt::format("not observed (libgomp entry points the interposer does not cover): {}",
                                   fmt::join(target.unobserved, ", ")));
              if (target.runtime.kind == RuntimeKind::None)
                c.bad("the program is not dynamically linked with an OpenMP runtime",
                      "build it with -fopenmp (clang or gcc) and link the runtime dynamically");
              // A new private directory (mkdtemp), never a predictable name (docs/safety.md).
              const char* tmp = getenv("TMPDIR");
              const fs::path dir = make_temporary_directory(tmp && *tmp ? tmp : "/tmp", "ompscope-doctor-");
              struct RemoveAfter {
                fs::path dir;
                ~RemoveAfter() {
                  std::error_code ec;
                  fs::remove_all(dir, ec);
                }
              } remove_after{dir};
              make_own_directory(dir / "runs");
              RunResult run = run_under_tool(target, dir, RunRequest{2, 0, false, true});
              if (!run.run.record.observed) {
                c.bad("the runtime did not load the tool: " + run.run.record.status,
                      "use LLVM libomp (clang -fopenmp), or Intel's; check OMP_TOOL is not 'disabled'");
              } else {
                const analysis::RunMeta meta = analysis::read_run_meta(run.log_dir / kMetaFileName);
                c.ok((target.interposed ? "observed through the interposer: " : "OMPT active: ") + meta.runtime);
                std::vector<std::string> never;
                for (const auto& [name, result] : meta.callbacks)
                  if (result <= 1) never.push_back(name);
                if (!never.empty())
                  c.info(fmt::format("callbacks this runtime never delivers: {}", fmt::join(never, ", ")));
                c.ok(fmt::format("{} events from {} region(s)", run.run.record.events,
                                 run.run.analysis ? run.run.analysis->regions.size() : 0));
              }
            } catch (const std::exception& e) {
              c.bad(e.what(), "check the program path, or run doctor without a program to test the bundled probe");
            }

            fmt::print("\nclock\n");
            if (tsc_is_invariant()) {
              c.ok(fmt::format("invariant TSC (constant_tsc, nonstop_tsc), {:.1f} MHz measured over 50 ms",
                               calibrate_tsc_hz() / 1e6));
            } else {
              c.info("no invariant TSC: events are timed with CLOCK_MONOTONIC (about 25 ns per event more)");
            }
            fmt::print("\nthread placement\n");
            if (const std::string places = core_places_of_this_machine(); places.empty()) {
              c.info("the kernel's CPU topology cannot be read: scale binds runs with OMP_PLACES=cores, which "
                     "libomp derives from CPUID (hypervisors may misreport it; set OMP_PLACES yourself)");
            } else {
              c.ok(fmt::format("{} core(s) as the kernel sees them: scale binds runs (one thread per core at most) "
                               "with OMP_PROC_BIND=close OMP_PLACES={}",
                               std::count(places.begin(), places.end(), '{'), places));
            }

            fmt::print("\n{}\n", c.problems ? fmt::format("{} problem(s) found", c.problems)
                                            : "everything needed to observe OpenMP programs is in place");
            return c.problems ? 1 : 0;
          }};
}

}  // namespace ompscope::cli
