#include "output/text_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <vector>

#include "common/thread_count_phrase.h"
#include "output/display_format.h"
#include "output/report_view.h"
#include "output/scaling_model.h"

namespace ompscope::output {
namespace {

// Sampled lines under each ranked region (report.json keeps five).
constexpr size_t kTopLinesShown = 3;

using report::Report;

struct Style {
  bool on;
  std::string bold(const std::string& s) const { return on ? "\033[1m" + s + "\033[0m" : s; }
  std::string red(const std::string& s) const { return on ? "\033[31m" + s + "\033[0m" : s; }
  std::string yellow(const std::string& s) const { return on ? "\033[33m" + s + "\033[0m" : s; }
  std::string dim(const std::string& s) const { return on ? "\033[2m" + s + "\033[0m" : s; }
};

std::string threads_label(int t, const Report& report) {
  return report.oversubscribed(t) ? fmt::format("{} (oversubscribed)", t) : std::to_string(t);
}

// "4 threads (oversubscribed)": where a sentence names the count.
std::string threads_in_words(int t, const Report& report) {
  return threads_phrase(t) + (report.oversubscribed(t) ? " (oversubscribed)" : "");
}

std::string region_name(const report::RegionReport& region) {
  const std::string where = region_location(region);
  const std::string fn = short_function(region.function);
  if (where.empty()) return fn.empty() ? region.id : fn;
  return fn.empty() ? where : fmt::format("{} in {}", where, fn);
}

void render_split_table(std::string& out, const std::vector<report::ThreadSplit>& splits, bool program, const Style& st) {
  // How many tasks each thread ran shows who did the tasking (a creator running nearly all of
  // them itself, say), so the column appears wherever tasks ran.
  const bool tasks = std::any_of(splits.begin(), splits.end(), [](const report::ThreadSplit& s) { return s.tasks > 0; });
  // Time in MPI calls (docs/mpi.md), a column only where a thread made any.
  const bool mpi = std::any_of(splits.begin(), splits.end(), [](const report::ThreadSplit& s) { return s.mpi_s > 0; });
  out += st.dim(fmt::format("    {:>6} {:>11} {:>11} {:>13} {:>11} {:>11}{}{}{}\n", "thread", "work", "(tasks)",
                            "barrier wait", "lock wait", "fork/join", program ? fmt::format(" {:>11}", "outside") : "",
                            mpi ? fmt::format(" {:>11}", "MPI") : "", tasks ? fmt::format(" {:>10}", "tasks run") : ""));
  for (const report::ThreadSplit& s : splits) {
    out += fmt::format("    {:>6} {:>11} {:>11} {:>13} {:>11} {:>11}", s.thread, format_seconds(s.work_s),
                       format_seconds(s.task_s), format_seconds(s.barrier_wait_s), format_seconds(s.lock_wait_s),
                       format_seconds(s.fork_join_s));
    if (program) out += fmt::format(" {:>11}", format_seconds(s.outside_s));
    if (mpi) out += fmt::format(" {:>11}", format_seconds(s.mpi_s));
    if (tasks) out += fmt::format(" {:>10.0f}", s.tasks);
    out += "\n";
  }
}

// The fitted T(t) in one line: the formula, then what it means and how well it fits.
std::string model_line(const report::ScalingModel& model, const Style& st) {
  const std::string about = model_about(model);
  return fmt::format("T(t) ≈ {} s", model_formula(model)) + (about.empty() ? "" : st.dim("   (" + about + ")")) + "\n";
}

// The task graph beside the measured speedup, and what each task costs, at one thread count.
void render_tasks(std::string& out, const report::TaskSummary& s, int threads, const Style& st) {
  const double bound = s.speedup_bound;
  const double measured = s.measured_speedup;
  // Faster than the graph allows: say so, not "bounds".
  const std::string speedup =
      s.superlinear ? fmt::format("allows a speedup of {} for the same work; measured {}: superlinear, the tasks' "
                                "work itself shrank (their data shared among more caches, say)",
                                format_speedup(bound), format_speedup(measured))
                  : fmt::format("bounds the speedup at {}{}", format_speedup(bound),
                                measured > 0 ? ", measured " + format_speedup(measured) : std::string());
  out += fmt::format("         {:>3} {:<8} {:.0f} tasks of {} on average; parallelism {:.2f} (work {} ÷ span {}) {}\n",
                     threads, threads == 1 ? "thread:" : "threads:", s.tasks, format_seconds(s.mean_body_s),
                     s.parallelism, format_seconds(s.work_s), format_seconds(s.span_s), speedup);
  std::vector<std::string> costs;
  if (s.recorded_tasks < s.tasks) costs.push_back(fmt::format("{:.0f} recorded in full, the others sampled", s.recorded_tasks));
  if (s.dispatch_s > 0) costs.push_back("dispatch " + format_seconds(s.dispatch_s) + " per task");
  if (s.creation_s > 0)
    costs.push_back("creation ≤ " + format_seconds(s.creation_s) + " (estimated)");
  else
    costs.push_back("creation could not be measured");
  if (s.taskwait_s > 0) costs.push_back("taskwait " + format_seconds(s.taskwait_s));
  if (s.immediate_start_s > 0) costs.push_back("creation to immediate start " + format_seconds(s.immediate_start_s));
  if (!costs.empty()) out += st.dim(fmt::format("                      {}", fmt::join(costs, ", "))) + "\n";
  // Each per-task figure with its source (docs/tasks.md, "The bench cache").
  if (s.per_task_cost_s > 0 || s.bench_task_s > 0) {
    std::string sources = s.per_task_cost_s > 0
                              ? "runtime's cost per task " + format_seconds(s.per_task_cost_s) +
                                    " measured in this run (under capture: the tool's own event records included)"
                              : "runtime's cost per task not measured in this run";
    sources += s.bench_task_s > 0 ? "; a task " + format_seconds(s.bench_task_s) + " by ompscope bench on this machine"
                                  : "; no ompscope bench cached for this runtime (ompscope bench --calibrate)";
    out += st.dim("                      " + sources) + "\n";
  }
  // The runtime's cost per task at each creation site, where a region creates at more than one
  // or its tasks wait for dependences (the three with most tasks).
  const bool depends = std::any_of(s.sites.begin(), s.sites.end(), [](const report::TaskSiteCost& c) { return c.depend_items > 0; });
  if (s.sites.size() > 1 || depends)
    for (size_t i = 0; i < std::min<size_t>(3, s.sites.size()); ++i) {
      const report::TaskSiteCost& c = s.sites[i];
      std::vector<std::string> parts{fmt::format("{:.0f} tasks of {}", c.tasks, format_seconds(c.mean_body_s))};
      if (c.creation_s > 0)
        parts.push_back(fmt::format("creation ≤ {}{}", format_seconds(c.creation_s),
                                    c.depend_items > 0 ? fmt::format(" with {:.1f} depend items", c.depend_items) : ""));
      if (c.dispatch_s > 0) parts.push_back("dispatch " + format_seconds(c.dispatch_s));
      if (c.release_s > 0) parts.push_back("release after its predecessor " + format_seconds(c.release_s));
      out += st.dim(fmt::format("                      at {}: {}", c.site, fmt::join(parts, ", "))) + "\n";
    }
}

// The construct tree of a region at one count, indented: constructs that carry at least 1% of
// the region's time there, or a cause worth 1% of the run, with those causes.
void render_constructs(std::string& out, const std::vector<report::ConstructReport>& constructs, int t, double floor,
                       double cause_floor, int depth, const Style& st) {
  for (const report::ConstructReport& c : constructs) {
    const auto time = c.time_s.find(t);
    const auto shown = [t, cause_floor](const report::Problem& p) { return p.threads == t && p.gain_s >= cause_floor; };
    const bool carries_cause = std::any_of(c.problems.begin(), c.problems.end(), shown);
    if ((time == c.time_s.end() || time->second < floor) && !carries_cause) continue;
    const std::string label = fmt::format("{}{} {}", std::string(2 * depth, ' '), to_string(c.kind), construct_location(c));
    out += fmt::format("           {:<44} {:>10} {:>9}", label,
                       time == c.time_s.end() ? std::string("-") : format_seconds(time->second),
                       fmt::format("{}×", c.instances));
    for (const report::Problem& p : c.problems)
      if (shown(p)) out += fmt::format("   {} {} {}", st.red("▸"), p.kind.name(), format_seconds(p.gain_s));
    out += "\n";
    if (c.source) {
      const std::string code = c.source->found() ? named_line(*c.source) : excerpt_lines(*c.source).front();
      if (!code.empty()) out += st.dim(fmt::format("           {}  | {}", std::string(2 * depth, ' '), code)) + "\n";
    }
    if (const std::string hot = hottest_other_line(c, t); !hot.empty())
      out += st.dim(fmt::format("           {}  most CPU time at {}", std::string(2 * depth, ' '), hot)) + "\n";
    render_constructs(out, c.constructs, t, floor, cause_floor, depth + 1, st);
  }
}

}  // namespace

std::string render_text_report(const Report& report, const TextOptions& options) {
  const Style st{options.colour};
  const std::vector<int>& threads = report.threads;
  const int largest = threads.empty() ? 0 : threads.back();
  std::string out;

  std::vector<std::string> labels;
  for (int t : threads) labels.push_back(threads_label(t, report));
  out += st.bold(fmt::format("ompscope: {}", fmt::join(report.command, " "))) + "\n";
  out += fmt::format("threads: {}", fmt::join(labels, ", "));
  if (report.cores > 0) out += fmt::format("   cores: {}", report.cores);
  if (!report.runtime.empty()) out += "   runtime: " + report.runtime;
  out += "\n";

  // The findings first: what to change, where, what it would win, how sure that is.
  if (!report.regions.empty() || !report.findings.empty()) {
    out += "\n";
    if (report.findings.empty()) {
      out += st.bold(no_findings_text(report)) + "\n";
    } else {
      out += st.bold(findings_heading(report)) + "\n";
      int n = 0;
      for (const report::Finding& f : report.findings) {
        out += fmt::format("  {}. {} {}: gain {}{} → {} {}\n", ++n, st.red(std::string(f.kind.cause().label)),
                           finding_place(f), format_seconds(f.gain_s),
                           f.run_share > 0 ? fmt::format(" ({} of the run)", format_percent(f.run_share)) : "",
                           st.bold(f.action), st.dim("[" + certainty_text(f) + "]"));
        if (f.source)
          for (const std::string& line : excerpt_lines(*f.source)) out += st.dim("     " + line) + "\n";
      }
      out += st.dim(gain_legend() + ". The figures below are the evidence.") + "\n";
    }
    out += "\n";
  }

  for (const report::RunRecord& run : report.runs) {
    if (!run.failed() && run.observed) continue;
    out += st.red(fmt::format("run at {} (repeat {}): {}", threads_phrase(run.threads), run.repeat, run_outcome(run))) + "\n";
  }

  for (int t : threads) {
    const auto time = report.program_time_s.find(t);
    if (time == report.program_time_s.end()) continue;
    out += fmt::format("program at {}: {}", threads_in_words(t, report), format_seconds(time->second));
    if (const auto e = report.program_efficiency.find(t); e != report.program_efficiency.end() && threads.size() > 1)
      out += fmt::format(", efficiency {}", format_percent(e->second));
    if (const auto s = report.serial_s.find(t); s != report.serial_s.end())
      out += fmt::format(", outside parallel regions {}", format_seconds(s->second));
    if (const auto m = report.mpi_s.find(t); m != report.mpi_s.end())
      out += fmt::format(", in MPI calls {}", format_seconds(m->second));
    const auto lost = report.program_time_lost_s.find(t);
    const auto rest = report.program_unexplained_s.find(t);
    const auto back = report.program_given_back_s.find(t);
    const double given_back = back == report.program_given_back_s.end() ? 0.0 : back->second;
    if (lost != report.program_time_lost_s.end() && rest != report.program_unexplained_s.end() && lost->second > 0) {
      if (given_back > 0)
        out += fmt::format(", lost {} (the causes below explain {}, regions faster than ideal gave back {}, {} "
                           "unexplained)",
                           format_seconds(lost->second), format_seconds(lost->second + given_back - rest->second),
                           format_seconds(given_back), format_seconds(rest->second));
      else
        out += fmt::format(", lost {} ({} of it explained by the causes below)", format_seconds(lost->second),
                           format_percent(1 - rest->second / lost->second));
    }
    out += "\n";
  }
  if (report.amdahl_speedup_bound > 0 && threads.size() > 1)
    out += fmt::format("serial code{} bounds the speedup at {}\n",
                       report.mpi_s.empty() ? "" : " with the MPI calls outside parallel regions",
                       format_speedup(report.amdahl_speedup_bound));
  if (report.program_model) out += "program model: " + model_line(*report.program_model, st);
  if (!report.ranks.empty() && report.ranks_are_processes) {
    // A program whose processes ran OpenMP code (docs/safety.md, "Processes and signals"): its own first.
    out += "\n" + st.bold(fmt::format("{} processes ran OpenMP code (the figures below are process 0's, the program's own)",
                                      report.ranks.size())) + "\n";
    for (const report::RankSplit& k : report.ranks) {
      out += fmt::format("  process {:<3} pid {}: {}\n", k.rank, k.pid, k.command);
      for (const auto& [t, time] : k.time_s)
        out += fmt::format("      at {}: {}   OpenMP parallel {}, OpenMP serial {}\n", threads_phrase(t),
                           format_seconds(time), format_seconds(k.parallel_s.at(t)), format_seconds(k.serial_s.at(t)));
    }
  } else if (!report.ranks.empty()) {
    // A merged MPI report (docs/mpi.md): each rank's split, then the regions show the slowest's.
    out += "\n" + st.bold(fmt::format("{} MPI ranks (the figures below are rank {}'s, the slowest)", report.ranks.size(),
                                      report.merged_from_rank)) + "\n";
    for (const report::RankSplit& k : report.ranks)
      for (const auto& [t, time] : k.time_s)
        out += fmt::format("  rank {:<3} at {}: {}   OpenMP parallel {}, OpenMP serial {}, MPI {}\n", k.rank,
                           threads_phrase(t), format_seconds(time), format_seconds(k.parallel_s.at(t)),
                           format_seconds(k.serial_s.at(t)), format_seconds(k.mpi_s.at(t)));
    for (const auto& [t, imbalance] : report.rank_imbalance_s)
      out += fmt::format("  rank imbalance at {}: {} (max − mean over ranks of the time outside MPI)\n",
                         threads_phrase(t), format_seconds(imbalance));
  }

  if (report.regions.empty()) {
    out += "\nno parallel region was observed\n";
  } else {
    const int ranked = report.summary_threads.empty() ? largest : report.summary_threads.front();
    out += "\n" + st.bold(threads.size() > 1 ? fmt::format("regions ranked by the time lost at {}", threads_in_words(ranked, report))
                                              : std::string("parallel regions")) + "\n";
    if (threads.size() > 1) out += st.dim(rank_legend()) + ".\n";
    out += st.dim(gain_legend()) + ".\n";
    std::size_t shown = 0;
    for (const report::RegionReport& region : report.regions) {
      if (shown++ == options.max_regions) {
        out += st.dim(fmt::format("... {} more in report.json\n", report.regions.size() - options.max_regions));
        break;
      }
      const bool serial = region.kind == report::RegionKind::kSerial;
      out += "\n" + st.bold(fmt::format("{:>4} {:>3}  {}", fmt::format("#{}", shown), region.id, region_name(region)));
      if (!serial) out += fmt::format("   {} instances", region.instances);
      if (region.nested) out += " (nested)";
      out += "\n";
      if (threads.size() > 1) {
        const auto rest = region.unexplained_s.find(ranked);
        if (const double lost = region.rank_loss(ranked); lost > 0 && rest != region.unexplained_s.end())
          out += fmt::format("         lost {} at {}: {} explained by its causes, {} unexplained\n", format_seconds(lost),
                             threads_in_words(ranked, report), format_seconds(std::max(0.0, lost - rest->second)),
                             format_seconds(rest->second));
      }
      for (int t : threads) {
        const auto time = region.time_s.find(t);
        if (time == region.time_s.end()) continue;
        out += fmt::format("         {:>3} {:<8} {:>10}", t, t == 1 ? "thread:" : "threads:", format_seconds(time->second));
        if (threads.size() > 1 && !serial) {
          if (const auto e = region.efficiency.find(t); e != region.efficiency.end())
            out += fmt::format("   efficiency {:>5}", format_percent(e->second));
          if (const auto l = region.time_lost_s.find(t); l != region.time_lost_s.end())
            out += fmt::format("   lost {:>10}", format_seconds(l->second));
        }
        if (report.oversubscribed(t)) out += st.yellow("   oversubscribed");
        out += "\n";
      }
      if (region.model) out += "         " + model_line(*region.model, st);
      for (const auto& [t, imbalance] : region.rank_imbalance_s) {
        if (report.ranks_are_processes)
          out += fmt::format("         processes at {}", threads_phrase(t));
        else
          out += fmt::format("         ranks at {}: imbalance {} (max − mean outside MPI)", threads_phrase(t),
                             format_seconds(imbalance));
        for (const report::RankTime& k : region.ranks) {
          const auto time = k.time_s.find(t);
          out += fmt::format("; {} {} {}", report.ranks_are_processes ? "process" : "rank", k.rank,
                             time == k.time_s.end() ? "-" : format_seconds(time->second));
          if (const auto mpi = k.mpi_s.find(t); mpi != k.mpi_s.end()) out += fmt::format(" (MPI {})", format_seconds(mpi->second));
          const report::Problem* top = nullptr;
          for (const report::Problem& p : k.problems)
            if (p.threads == t && (!top || p.gain_s > top->gain_s)) top = &p;
          if (top) out += fmt::format(" ({} {})", top->kind.name(), format_seconds(top->gain_s));
        }
        out += "\n";
      }
      if (!region.tasks.empty()) {
        out += st.dim("         explicit tasks:") + "\n";
        for (const auto& [t, s] : region.tasks) render_tasks(out, s, t, st);
        if (region.task_replay && region.task_replay->predicted_time_s.size() > 1) {
          // The what-if replay (docs/tasks.md, "Replay"): the recorded graph on more threads.
          std::vector<std::string> points;
          for (const auto& [t, time] : region.task_replay->predicted_time_s)
            if (t != region.task_replay->from_threads) points.push_back(fmt::format("{}: {}", t, format_seconds(time)));
          const std::string grown =
              region.task_replay->body_growth_at > 0
                  ? fmt::format(", the bodies ×{:.2f} as at {}", region.task_replay->body_growth,
                                threads_phrase(region.task_replay->body_growth_at))
                  : std::string();
          const report::RegionReport::TaskReplay& replay = *region.task_replay;
          const std::string sample =
              replay.replayed_instances < replay.instances
                  ? fmt::format("; a sample of {} of its {} instances, scaled by their time", replay.replayed_instances,
                                replay.instances)
                  : std::string();
          out += st.dim(fmt::format("         task graph of {} replayed on more threads ({} per task start{}{}): {}",
                                    threads_phrase(replay.from_threads), format_seconds(replay.per_task_s), grown,
                                    sample, fmt::join(points, ", "))) +
                 "\n";
        }
      }
      for (int t : report.summary_threads) {
        // Causes worth under 1% of the run's time (so of the region's too) stay in report.json.
        const auto run_time = report.program_time_s.find(t);
        const auto region_time = region.time_s.find(t);
        const double floor =
            0.01 * std::max(run_time != report.program_time_s.end() ? run_time->second : 0.0,
                            region_time != region.time_s.end() ? region_time->second : 0.0);
        for (const report::Problem& p : region.problems) {
          if (p.threads != t) continue;
          if (p.gain_s < floor) continue;
          const std::string at = threads.size() > 1 ? " at " + threads_in_words(t, report) : "";
          out += fmt::format("         {} {}{}: gain {} of {} {}\n", st.red("▸"), st.bold(std::string(p.kind.name())), at,
                             format_seconds(p.gain_s), format_seconds(p.time_s), cost_unit(p.kind.cause()));
          out += st.dim("           " + p.hint) + "\n";
        }
        const auto lost = region.time_lost_s.find(t);
        const auto rest = region.unexplained_s.find(t);
        if (lost != region.time_lost_s.end() && rest != region.unexplained_s.end() && lost->second > 0 &&
            rest->second > 0.1 * lost->second)
          out += st.dim(fmt::format("           unexplained: {} of the {} lost at {} ({}): no cause measured covers it",
                                    format_seconds(rest->second), format_seconds(lost->second),
                                    threads_in_words(t, report), format_percent(rest->second / lost->second))) +
                 "\n";
      }
      if (!region.constructs.empty() && !report.summary_threads.empty()) {
        const int t = report.summary_threads.front();
        const auto time = region.time_s.find(t);
        if (time != region.time_s.end()) {
          out += st.dim(fmt::format("         constructs at {}:", threads_in_words(t, report))) + "\n";
          // Causes under 1% of the run stay in report.json, as the region's own do.
          const auto run_time = report.program_time_s.find(t);
          const double cause_floor =
              0.01 * std::max(run_time != report.program_time_s.end() ? run_time->second : 0.0, time->second);
          render_constructs(out, region.constructs, t, 0.01 * time->second, cause_floor, 0, st);
          if (const auto rest = region.outside_constructs_s.find(t); rest != region.outside_constructs_s.end())
            out += st.dim(fmt::format("           {:<44} {:>10}", "outside them (own code, fork/join)",
                                      format_seconds(rest->second))) + "\n";
        }
      }
      if (!report.summary_threads.empty())
        if (const auto code = region.sampled.find(report.summary_threads.front());
            code != region.sampled.end() && code->second.cpu_s > 0 && !code->second.lines.empty()) {
          out += st.dim(fmt::format("         top lines at {} (CPU-time samples, {} of CPU time):",
                                    threads_in_words(code->first, report), format_seconds(code->second.cpu_s))) + "\n";
          for (size_t i = 0; i < code->second.lines.size() && i < kTopLinesShown; ++i) {
            const report::SampledLine& l = code->second.lines[i];
            out += st.dim(fmt::format("           {:<44} {:>10} {:>5}", sampled_line_place(l), format_seconds(l.cpu_s),
                                      format_percent(l.cpu_s / code->second.cpu_s))) + "\n";
          }
        }
      if (threads.size() == 1 && !serial)
        if (const auto splits = region.per_thread.find(largest); splits != region.per_thread.end())
          render_split_table(out, splits->second, false, st);
    }
  }
  if (threads.size() == 1)
    if (const auto splits = report.program_threads.find(largest); splits != report.program_threads.end() && !splits->second.empty()) {
      out += "\n" + st.bold("whole run, per thread") + "\n";
      render_split_table(out, splits->second, true, st);
    }
  for (const report::Note& note : report.notes)
    out += st.yellow("note: ") + note_sentence(note, options.max_note_items) + "\n";
  return out;
}

}  // namespace ompscope::output
