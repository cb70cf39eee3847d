// ompscope trace: one run under the tool, written out as an OTF2 archive (DIR/trace/) and/or a
// Chrome/Perfetto trace-event JSON file (DIR/trace.json), from the same nested slices.
#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ext/stdio_filebuf.h>
#include <fstream>
#include <functional>
#include <sstream>

#include "analysis/pipeline.h"
#include "cli/commands.h"
#include "cli/measurement.h"
#include "common/allocator.h"
#include "common/error.h"
#include "common/launcher_rank.h"
#include "common/safe_file.h"
#include "common/side_by_side.h"
#include "common/thread_count_phrase.h"
#include "output/otf2_trace.h"
#include "output/perfetto_trace.h"

namespace ompscope::cli {
namespace {

namespace fs = std::filesystem;

struct Formats {
  bool otf2 = false;
  bool perfetto = false;
};

Formats parse_formats(const std::string& list) {
  Formats f;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item == "otf2") f.otf2 = true;
    else if (item == "perfetto" || item == "json") f.perfetto = true;
    else if (!item.empty())
      throw Error(fmt::format("--format: unknown trace format '{}' (known: otf2, perfetto)", item));
  }
  if (!f.otf2 && !f.perfetto) throw Error("--format: name at least one of otf2, perfetto");
  return f;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// An OTF2 archive written by `write` into a new directory of a private mkdtemp(3) directory beside
// `directory`, then renamed onto it (docs/safety.md): nothing OTF2 creates can meet a planted
// symlink, and a rank's ompscope never sees half of an archive.
template <typename Write>
output::Otf2Result write_archive_into(const fs::path& directory, Write write) {
  const fs::path parent = directory.parent_path().empty() ? fs::path(".") : directory.parent_path();
  const fs::path staging = make_temporary_directory(parent, "." + directory.filename().string() + "-");
  std::error_code ec;
  try {
    output::Otf2Result r = write(staging / "archive");
    fs::remove_all(directory, ec);  // ompscope's own (a marked output directory, output_dir.h)
    fs::rename(staging / "archive", directory, ec);
    if (ec) throw Error(fmt::format("cannot write {}: {}", directory.string(), ec.message()));
    r.anchor = directory / r.anchor.filename();
    fs::remove_all(staging, ec);
    return r;
  } catch (...) {
    fs::remove_all(staging, ec);
    throw;
  }
}

// One OTF2 archive of a job's ranks (docs/mpi.md, "Traces of a job") from their logs (by rank),
// written beside `directory` and renamed into it, so a rank's ompscope never sees half of one.
void write_job_trace(const fs::path& directory, const std::vector<std::pair<int, fs::path>>& rank_logs,
                     const analysis::LaunchClock& launch, const std::string& description) {
  std::vector<analysis::LoadedRun> runs;
  std::vector<analysis::TraceModel> models;
  bool realtime = true;
  return_freed_memory_at_once();  // each timeline's records, freed as they become slices
  for (const auto& [rank, log] : rank_logs) {
    runs.push_back(analysis::load_run(log, launch));
    models.push_back(analysis::trace_model_of(runs.back()));
    realtime = realtime && runs.back().log.meta.realtime_known;
  }
  std::vector<output::TraceRank> ranks;
  for (size_t k = 0; k < rank_logs.size(); ++k)
    ranks.push_back({rank_logs[k].first, &models[k], realtime ? runs[k].log.meta.realtime_offset_ns : 0});
  const output::Otf2Result r = write_archive_into(
      directory, [&](const fs::path& staged) { return output::write_otf2_job_trace(ranks, staged, description); });
  fmt::print(stderr, "ompscope: OTF2 trace of the {} ranks: {} ({} events, {} locations{})\n", rank_logs.size(),
             (directory / "traces.otf2").string(), r.events, r.locations,
             realtime ? "; ranks aligned on CLOCK_REALTIME" : "; ranks aligned on this node's CLOCK_MONOTONIC");
}

// `mpirun -np N ompscope trace -o DIR`: once every rank's own trace is in DIR/rank-R/trace, the
// last rank to finish writes the job's archive DIR/trace from their logs (one at a time: a lock
// file in DIR). Returns whether it did.
bool write_job_trace_when_complete(const fs::path& dir, int size, const std::string& description) {
  const int lock = open((dir / ".ompscope-trace.lock").c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (lock >= 0) flock(lock, LOCK_EX);
  std::vector<std::pair<int, fs::path>> logs;
  for (int rank = 0; rank < size; ++rank) {
    char name[32];
    rank_directory_name(rank, name, sizeof name);
    if (!fs::exists(dir / name / "trace" / "traces.otf2")) break;
    // The rank's own process's log: the first of its processes (docs/safety.md, "Processes and
    // signals").
    const std::vector<ProcessLog> processes = process_logs(dir / name / "runs" / "run-r0" / name, 0);
    if (processes.empty()) break;
    logs.emplace_back(rank, processes.front().dir);
  }
  const bool complete = static_cast<int>(logs.size()) == size;
  if (complete) write_job_trace(dir / "trace", logs, {}, description);
  if (lock >= 0) close(lock);
  return complete;
}

}  // namespace

Command add_trace_command(CLI::App& parent) {
  struct Options {
    std::string out = "ompscope-trace";
    std::string format = "otf2,perfetto";
    uint64_t max_events = 1'000'000;
    std::string runtime = "native";
    std::vector<std::string> program;
  };
  auto options = std::make_shared<Options>();
  CLI::App* app = parent.add_subcommand(
      "trace", "run the program once under the tool; write an OTF2 trace (DIR/trace/) and a Perfetto JSON trace "
               "(DIR/trace.json)");
  app->add_option("--format", options->format, "comma-separated: otf2, perfetto")->capture_default_str();
  app->add_option("-o,--output", options->out, "output directory (trace/, trace.json, runs/)")->capture_default_str();
  app->add_option("--max-events", options->max_events,
                  "most events in trace.json; past it the JSON trace is cut in time (OTF2 is never cut)")
      ->capture_default_str();
  add_runtime_option(app, options->runtime);
  app->add_option("program", options->program, "the program and its arguments, after --")->required();
  app->positionals_at_end();
  return {app, [options]() -> int {
            keep_pages_small();
            const Formats formats = parse_formats(options->format);
            const Target target = resolve_target(options->program, runtime_choice(options->runtime));
            // DIR, or DIR/rank-R under mpirun; claimed (marker, lock) until the command returns.
            const OutputDir claim = prepare_output_dir(options->out, "trace");
            const fs::path out = claim.path();
            const fs::path otf2_dir = out / "trace", json_file = out / "trace.json";
            std::error_code ec;
            fs::remove_all(otf2_dir, ec);  // ours from an earlier trace (prepare_output_dir checked)
            fs::remove(json_file, ec);

            RunResult result = run_under_tool(target, out, RunRequest{.every_event = true});
            const std::string description = fmt::format("ompscope trace of {}", fmt::join(options->program, " "));
            if (!result.ranks.empty()) {
              // `trace -- mpirun -np N ./app`: the ranks in one OTF2 archive (docs/mpi.md).
              std::vector<std::pair<int, fs::path>> logs;
              for (const analysis::MeasuredRun& rank : result.ranks) logs.emplace_back(rank.record.rank, out / rank.record.log);
              if (formats.otf2) write_job_trace(otf2_dir, logs, {std::nullopt, result.outcome.end_point}, description);
              if (formats.perfetto)
                fmt::print(stderr, "ompscope: no Perfetto trace of a job of {} ranks: the OTF2 archive has them all\n",
                           logs.size());
              if (!result.outcome.ok())
                fmt::print(stderr, "ompscope: the program {}; the trace holds what was captured until then\n",
                           result.outcome.describe());
              return result.outcome.shell_status();
            }
            if (!fs::exists(result.log_dir / kMetaFileName)) {
              const std::string why = fmt::format("no trace written: {}", result.run.record.status);
              if (result.outcome.ok()) throw Error(why);
              fmt::print(stderr, "ompscope: {}\n", why);
              return result.outcome.shell_status();
            }

            auto t0 = std::chrono::steady_clock::now();
            analysis::LoadedRun run =
                analysis::load_run(result.log_dir, {result.outcome.start_point, result.outcome.end_point});
            const analysis::RunLog& log = run.log;
            const uint64_t light_tasks = run.timeline.light_tasks;
            const auto light_regions = std::count_if(run.timeline.regions.begin(), run.timeline.regions.end(),
                                                     [](const analysis::RegionInstance& r) { return r.light; });
            return_freed_memory_at_once();  // the timeline's records, freed as they become slices
            const analysis::TraceModel model = analysis::trace_model_of(run);  // the timeline goes into it
            const double model_s = seconds_since(t0);
            fmt::print(stderr, "ompscope: {} events of {} → {} slices (read, symbolised in {:.3f} s)\n", log.event_count(),
                       threads_phrase(static_cast<long long>(model.threads.size())), model.slice_count(), model_s);
            if (log.meta.dropped_events)
              fmt::print(stderr, "ompscope: warning: {} events were dropped during the run; the trace lacks them\n",
                         log.meta.dropped_events);
            if (model.clamped)
              fmt::print(stderr, "ompscope: note: {} intervals were shortened to nest in their enclosing one\n",
                         model.clamped);
            if (light_tasks > 0 || light_regions > 0)
              fmt::print(stderr,
                         "ompscope: note: adaptive sampling (OMPSCOPE_SAMPLING in the environment) left {} tasks and "
                         "the inside of {} region instances out of the log, so out of the trace (unset it to record "
                         "every one)\n",
                         light_tasks, light_regions);

            // The two writers read the same model and write files of their own: side by side, each
            // on a core (fib_tasks 25: 0.10 s of OTF2 beside 0.12 s of Perfetto JSON), their lines
            // said in the same order after both.
            std::string otf2_said, perfetto_said;
            const auto write_otf2 = [&] {
              const auto start = std::chrono::steady_clock::now();
              const output::Otf2Result r = write_archive_into(
                  otf2_dir, [&](const fs::path& staged) { return output::write_otf2_trace(model, staged, description); });
              const double s = seconds_since(start);
              otf2_said = fmt::format("ompscope: OTF2 trace: {} ({} events, {} locations, written in {:.3f} s: {:.3g} events/s)\n",
                                      r.anchor.string(), r.events, r.locations, s, s > 0 ? r.events / s : 0.0);
            };
            const auto write_perfetto = [&] {
              const auto start = std::chrono::steady_clock::now();
              // A new temporary beside trace.json (O_EXCL|O_NOFOLLOW), renamed onto it (docs/safety.md).
              TemporaryFile staged(json_file);
              const int fd = dup(staged.fd());
              if (fd < 0) throw Error(fmt::format("cannot write {}", json_file.string()));
              __gnu_cxx::stdio_filebuf<char> buffer(fd, std::ios::out | std::ios::binary);  // closes fd
              std::ostream file(&buffer);
              output::PerfettoOptions popt;
              popt.max_events = options->max_events;
              popt.process_name = fs::path(options->program.front()).filename().string();
              const output::PerfettoResult r = output::write_perfetto_trace(model, file, popt);
              file.flush();
              if (!file || buffer.close() == nullptr) throw Error(fmt::format("cannot write {} (disk full?)", json_file.string()));
              staged.commit();
              const double s = seconds_since(start);
              perfetto_said = fmt::format("ompscope: Perfetto trace: {} ({} events, {} task flows, written in {:.3f} s: {:.3g} events/s); "
                                          "open it in https://ui.perfetto.dev\n",
                                          json_file.string(), r.events_written, r.flows, s, s > 0 ? r.events_written / s : 0.0);
              if (r.truncated)
                perfetto_said += fmt::format(
                    "ompscope: note: trace.json is cut at {:.6f} s: {} of {} slices written (--max-events {}){}\n",
                    static_cast<double>(r.cut_at_ns) / 1e9, r.slices_written, r.slices_total, options->max_events,
                    formats.otf2 ? "; the OTF2 trace has them all" : "");
            };
            std::vector<std::function<void()>> writers;
            if (formats.otf2) writers.emplace_back(write_otf2);
            if (formats.perfetto) writers.emplace_back(write_perfetto);
            try {
              side_by_side(writers.size(), static_cast<size_t>(std::max(1, core_count())), [&](size_t i) { writers[i](); });
            } catch (...) {
              fmt::print(stderr, "{}{}", otf2_said, perfetto_said);  // the one that was written
              throw;
            }
            fmt::print(stderr, "{}{}", otf2_said, perfetto_said);
            if (own_rank().ranked() && formats.otf2 && own_rank().size > 1 &&
                write_job_trace_when_complete(options->out, own_rank().size, description))
              fmt::print(stderr, "ompscope: rank {} wrote the job's trace of {} ranks\n", own_rank().rank, own_rank().size);
            if (!result.outcome.ok())
              fmt::print(stderr, "ompscope: the program {}; the trace holds what was captured until then\n",
                         result.outcome.describe());
            return result.outcome.shell_status();
          }};
}

}  // namespace ompscope::cli
