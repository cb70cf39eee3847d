#include "output/text_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <vector>

#include "common/thread_count_phrase.h"
#include "output/display_format.h"
#include "output/report_fields.h"
#include "output/scaling_model.h"

namespace ompscope::output {
namespace {

using nlohmann::json;

struct Style {
  bool on;
  std::string bold(const std::string& s) const { return on ? "\033[1m" + s + "\033[0m" : s; }
  std::string red(const std::string& s) const { return on ? "\033[31m" + s + "\033[0m" : s; }
  std::string yellow(const std::string& s) const { return on ? "\033[33m" + s + "\033[0m" : s; }
  std::string dim(const std::string& s) const { return on ? "\033[2m" + s + "\033[0m" : s; }
};

std::string threads_label(int t, const std::set<int>& over) {
  return over.count(t) ? fmt::format("{} (oversubscribed)", t) : std::to_string(t);
}

// "4 threads (oversubscribed)": where a sentence names the count.
std::string threads_in_words(int t, const std::set<int>& over) {
  return threads_phrase(t) + (over.count(t) ? " (oversubscribed)" : "");
}

// The counts whose causes the text shows: the largest, where the ranking is made (docs/design.md), and,
// when the largest is oversubscribed, first the largest count with a core per thread: there
// fork/join and barrier costs are the runtime's, not time-sharing's.
std::vector<int> diagnosed_counts(const std::vector<int>& threads, const std::set<int>& over) {
  if (threads.empty()) return {};
  std::vector<int> counts;
  if (over.count(threads.back()))
    for (auto t = threads.rbegin(); t != threads.rend(); ++t)
      if (*t > 1 && !over.count(*t)) {
        counts.push_back(*t);
        break;
      }
  counts.push_back(threads.back());
  return counts;
}

std::string region_name(const json& region) {
  std::string where = region_location(region);
  std::string fn = string_field(region, "function");
  if (where.empty()) return fn.empty() ? string_field(region, "id") : fn;
  return fn.empty() ? where : fmt::format("{} in {}", where, fn);
}

void render_split_table(std::string& out, const json& splits, bool program, const Style& st) {
  // How many tasks each thread ran shows who did the tasking (a creator running nearly all of
  // them itself, say), so the column appears wherever tasks ran.
  const bool tasks = std::any_of(splits.begin(), splits.end(), [](const json& s) { return s.value("tasks", 0.0) > 0; });
  out += st.dim(fmt::format("    {:>6} {:>11} {:>11} {:>13} {:>11} {:>11}{}{}\n", "thread", "work", "(tasks)",
                            "barrier wait", "lock wait", "fork/join", program ? fmt::format(" {:>11}", "outside") : "",
                            tasks ? fmt::format(" {:>10}", "tasks run") : ""));
  for (const json& s : splits) {
    out += fmt::format("    {:>6} {:>11} {:>11} {:>13} {:>11} {:>11}", s.value("thread", 0),
                       format_seconds(s.value("work_s", 0.0)), format_seconds(s.value("task_s", 0.0)),
                       format_seconds(s.value("barrier_wait_s", 0.0)), format_seconds(s.value("lock_wait_s", 0.0)),
                       format_seconds(s.value("fork_join_s", 0.0)));
    if (program) out += fmt::format(" {:>11}", format_seconds(s.value("outside_s", 0.0)));
    if (tasks) out += fmt::format(" {:>10.0f}", s.value("tasks", 0.0));
    out += "\n";
  }
}

// The fitted T(t) in one line: the formula, then what it means and how well it fits.
std::string model_line(const ScalingModel& model, const Style& st) {
  const std::string about = model_about(model);
  return fmt::format("T(t) ≈ {} s", model_formula(model)) + (about.empty() ? "" : st.dim("   (" + about + ")")) + "\n";
}

// The task graph beside the measured speedup, and what each task costs, at one thread count.
void render_tasks(std::string& out, const json& tasks, int threads, const Style& st) {
  const json* s = field(tasks, std::to_string(threads));
  if (!s) return;
  const auto measured = number_field(*s, "measured_speedup");
  const double bound = s->value("speedup_bound", 0.0);
  // Faster than the graph allows: the bound holds for the work measured at this count, and the
  // work itself shrank (data that fits the threads' caches together), so say so, not "bounds".
  const bool superlinear = measured && bound > 0 && *measured > 1.05 * bound;
  const std::string speedup =
      superlinear ? fmt::format("allows a speedup of {} for the same work; measured {}: superlinear, the tasks' "
                                "work itself shrank (their data shared among more caches, say)",
                                format_speedup(bound), format_speedup(*measured))
                  : fmt::format("bounds the speedup at {}{}", format_speedup(bound),
                                measured ? ", measured " + format_speedup(*measured) : std::string());
  out += fmt::format("         {:>3} {:<8} {:.0f} tasks of {} on average; parallelism {:.2f} (work {} ÷ span {}) {}\n",
                     threads, threads == 1 ? "thread:" : "threads:", s->value("count", 0.0), format_seconds(s->value("mean_body_s", 0.0)),
                     s->value("parallelism", 0.0), format_seconds(s->value("work_s", 0.0)),
                     format_seconds(s->value("span_s", 0.0)), speedup);
  std::vector<std::string> costs;
  const double count = s->value("count", 0.0), recorded = s->value("recorded", count);
  if (recorded < count) costs.push_back(fmt::format("{:.0f} recorded in full, the others sampled", recorded));
  if (auto d = number_field(*s, "dispatch_s")) costs.push_back("dispatch " + format_seconds(*d) + " per task");
  if (auto c = number_field(*s, "creation_s"))
    costs.push_back("creation ≤ " + format_seconds(*c) + " (estimated)");
  else
    costs.push_back("creation could not be measured");
  if (auto w = number_field(*s, "taskwait_s")) costs.push_back("taskwait " + format_seconds(*w));
  if (auto i = number_field(*s, "immediate_start_s")) costs.push_back("creation to immediate start " + format_seconds(*i));
  if (!costs.empty()) out += st.dim(fmt::format("                      {}", fmt::join(costs, ", "))) + "\n";
}

}  // namespace

std::string render_text_report(const json& report, const TextOptions& options) {
  const Style st{options.colour};
  const std::vector<int> threads = thread_counts(report);
  const std::set<int> over = oversubscribed_threads(report);
  const int largest = threads.empty() ? 0 : threads.back();
  std::string out;

  std::string command;
  if (const json* c = field(report, "command"))
    for (const json& a : *c) command += (command.empty() ? "" : " ") + a.get<std::string>();
  std::vector<std::string> labels;
  for (int t : threads) labels.push_back(threads_label(t, over));
  out += st.bold(fmt::format("ompscope: {}", command)) + "\n";
  out += fmt::format("threads: {}", fmt::join(labels, ", "));
  if (auto cores = number_field(report, "cores")) out += fmt::format("   cores: {:.0f}", *cores);
  if (std::string rt = string_field(report, "runtime"); !rt.empty()) out += "   runtime: " + rt;
  out += "\n";

  if (const json* runs = field(report, "runs")) {
    for (const json& run : *runs) {
      RunOutcome o = run_outcome(run);
      if (!o.failed && run.value("observed", true)) continue;
      out += st.red(fmt::format("run at {} (repeat {}): {}", threads_phrase(run.value("threads", 0)), run.value("repeat", 0),
                                o.description)) + "\n";
    }
  }

  if (const json* program = field(report, "program")) {
    for (int t : threads) {
      auto time = at_threads(*program, "time_s", t);
      if (!time) continue;
      out += fmt::format("program at {}: {}", threads_in_words(t, over), format_seconds(*time));
      if (auto e = at_threads(*program, "efficiency", t); e && threads.size() > 1)
        out += fmt::format(", efficiency {}", format_percent(*e));
      if (auto s = at_threads(*program, "serial_s", t)) out += fmt::format(", outside parallel regions {}", format_seconds(*s));
      out += "\n";
    }
    if (auto bound = number_field(*program, "amdahl_speedup_bound"); bound && threads.size() > 1)
      out += fmt::format("serial code bounds the speedup at {}\n", format_speedup(*bound));
    if (auto model = scaling_model(*program)) out += "program model: " + model_line(*model, st);
  }

  const json* regions = field(report, "regions");
  if (!regions || regions->empty()) {
    out += "\nno parallel region was observed\n";
  } else {
    out += "\n" + st.bold(threads.size() > 1 ? "regions ranked by the time that could be won back"
                                             : "parallel regions") + "\n";
    const std::vector<int> diagnosed = diagnosed_counts(threads, over);
    size_t shown = 0;
    for (const json& region : *regions) {
      if (shown++ == options.max_regions) {
        out += st.dim(fmt::format("... {} more in report.json\n", regions->size() - options.max_regions));
        break;
      }
      const bool serial = string_field(region, "kind") == "serial";
      out += "\n" + st.bold(fmt::format("{:>7}  {}", string_field(region, "id"), region_name(region)));
      if (!serial) out += fmt::format("   {} instances", region.value("instances", 0));
      if (region.value("nested", false)) out += " (nested)";
      out += "\n";
      for (int t : threads) {
        auto time = at_threads(region, "time_s", t);
        if (!time) continue;
        out += fmt::format("         {:>3} {:<8} {:>10}", t, t == 1 ? "thread:" : "threads:", format_seconds(*time));
        if (threads.size() > 1 && !serial) {
          if (auto e = at_threads(region, "efficiency", t)) out += fmt::format("   efficiency {:>5}", format_percent(*e));
          if (auto l = at_threads(region, "time_lost_s", t)) out += fmt::format("   lost {:>10}", format_seconds(*l));
        }
        if (over.count(t)) out += st.yellow("   oversubscribed");
        out += "\n";
      }
      if (auto model = scaling_model(region)) out += "         " + model_line(*model, st);
      if (const json* tasks = field(region, "tasks")) {
        out += st.dim("         explicit tasks:") + "\n";
        for (int t : threads) render_tasks(out, *tasks, t, st);
      }
      if (const json* problems = field(region, "problems")) {
        for (int t : diagnosed) {
          for (const json& p : *problems) {
            if (p.value("threads", 0) != t) continue;
            const std::string at = threads.size() > 1 ? " at " + threads_in_words(t, over) : "";
            out += fmt::format("         {} {}{}: gain {} of {}\n", st.red("▸"), st.bold(p.value("kind", "")), at,
                               format_seconds(p.value("gain_s", 0.0)), format_seconds(p.value("time_s", 0.0)));
            out += st.dim("           " + p.value("hint", "")) + "\n";
          }
        }
      }
      if (threads.size() == 1 && !serial)
        if (const json* per = field(region, "per_thread"))
          if (const json* splits = field(*per, std::to_string(largest))) render_split_table(out, *splits, false, st);
    }
  }
  if (threads.size() == 1)
    if (const json* program = field(report, "program"))
      if (const json* per = field(*program, "per_thread"))
        if (const json* splits = field(*per, std::to_string(largest)); splits && !splits->empty()) {
          out += "\n" + st.bold("whole run, per thread") + "\n";
          render_split_table(out, *splits, true, st);
        }
  if (const json* notes = field(report, "notes"))
    for (const json& n : *notes) out += st.yellow("note: ") + n.get<std::string>() + "\n";
  return out;
}

}  // namespace ompscope::output
