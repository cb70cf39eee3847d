#include "bench/core/results_table.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "bench/core/constructs.h"
#include "bench/core/statistics.h"

namespace ompscope::bench {
namespace {

struct Column {
  const char* method;
  const char* metric;
  const char* header;
};
constexpr Column kColumns[] = {
    {"epcc", "overhead", "epcc"}, {"direct", "min_cost", "dir.min"}, {"direct", "avg_cost", "dir.avg"}};
constexpr int kCellWidth = 9;

std::vector<std::string> runtimes_in_order(std::span<const SeriesResult> results) {
  std::vector<std::string> out;
  for (const char* known : {"llvm", "gnu"})
    for (const SeriesResult& r : results)
      if (r.runtime == known) {
        out.push_back(known);
        break;
      }
  for (const SeriesResult& r : results)
    if (std::find(out.begin(), out.end(), r.runtime) == out.end()) out.push_back(r.runtime);
  return out;
}

}  // namespace

std::string render_results_table(std::span<const SeriesResult> results, int cores) {
  // (construct, threads) -> (runtime, method, metric) -> median in µs
  using Cell = std::tuple<std::string, std::string, std::string>;
  std::map<std::pair<std::string, int>, std::map<Cell, double>> medians;
  std::set<int> oversubscribed;
  std::set<std::tuple<std::string, int, Cell>> unsynchronised;  // marked with "!"
  for (const SeriesResult& r : results) {
    medians[{r.construct, r.threads}][{r.runtime, r.method, r.metric}] =
        summarize(drop_best_and_worst_quarter(r.samples_s)).median * 1e6;
    if (r.oversubscribed) oversubscribed.insert(r.threads);
    if (!r.oversubscribed && r.details.is_object() && r.details.value("entries_unsynchronised", false))
      unsynchronised.insert({r.construct, r.threads, {r.runtime, r.method, r.metric}});
  }
  const std::vector<std::string> runtimes = runtimes_in_order(results);
  const int group_width = kCellWidth * static_cast<int>(std::size(kColumns));

  std::string out = "Cost per construct instance in µs: median of each series after the filter (" +
                    std::string(kOutlierFilterDescription) + ")\n";
  std::string groups = fmt::format("{:<13}{:>8}", "", "");
  for (const std::string& rt : runtimes)
    groups += fmt::format("  {:^{}}", rt == "llvm" ? "LLVM libomp" : rt == "gnu" ? "GNU libgomp" : rt, group_width);
  out += groups.substr(0, groups.find_last_not_of(' ') + 1);
  out += fmt::format("\n{:<13}{:>8}", "construct", "threads");
  for (std::size_t i = 0; i < runtimes.size(); ++i) {
    out += "  ";
    for (const Column& c : kColumns) out += fmt::format("{:>{}}", c.header, kCellWidth);
  }
  out += '\n';
  for (const ConstructInfo& info : all_constructs()) {
    bool first_row = true;
    for (const auto& [key, cells] : medians) {
      if (key.first != info.name) continue;
      const std::string threads = fmt::format("{}{}", key.second, oversubscribed.count(key.second) ? "*" : "");
      out += fmt::format("{:<13}{:>8}", first_row ? std::string(info.name) : "", threads);
      first_row = false;
      for (const std::string& rt : runtimes) {
        out += "  ";
        for (const Column& c : kColumns) {
          const Cell cell{rt, c.method, c.metric};
          auto it = cells.find(cell);
          if (it == cells.end())
            out += fmt::format("{:>{}}", "-", kCellWidth);
          else if (unsynchronised.count({key.first, key.second, cell}))
            out += fmt::format("{:>{}.3f}!", it->second, kCellWidth - 1);
          else
            out += fmt::format("{:>{}.3f}", it->second, kCellWidth);
        }
      }
      out += '\n';
    }
  }
  out += "epcc: (test - reference) / inner repetitions; dir.min: first exit - last entry;\n"
         "dir.avg: mean exit - last entry (parallel, firstprivate: from the master's fork;\n"
         "reduction: to the master's join). Negative: below the method's noise, or (critical,\n"
         "lock, atomic, task) one thread was done before another entered: threads that cannot all\n"
         "run at once (oversubscribed) do not enter together.\n";
  if (!unsynchronised.empty())
    out += "! threads could not enter together (a loaded machine, or unbound threads sharing a CPU):\n"
           "  late entries were kept; rerun on a quieter machine, with --bind\n";
  if (!oversubscribed.empty()) out += fmt::format("* oversubscribed: more threads than the {} cores\n", cores);
  return out;
}

}  // namespace ompscope::bench
