#include "bench/core/extrap_writer.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <map>
#include <set>
#include <string>
#include <tuple>

#include "bench/core/constructs.h"
#include "bench/core/statistics.h"

namespace ompscope::bench {
namespace {

// Fixed notation with enough decimals for nanosecond-scale values, trailing zeros trimmed.
std::string plain_number(double v) {
  std::string s = fmt::format("{:.15f}", v);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

// Constructs in the order of the issue, unknown names after them.
int construct_rank(const std::string& name) {
  int rank = 0;
  for (const ConstructInfo& info : all_constructs()) {
    if (info.name == name) return rank;
    ++rank;
  }
  return rank;
}

}  // namespace

void write_extrap(std::ostream& out, std::span<const SeriesResult> results) {
  std::set<int> points;
  // metric -> (construct rank, construct) -> threads -> series
  using RegionKey = std::pair<int, std::string>;
  std::map<std::string, std::map<RegionKey, std::map<int, const SeriesResult*>>> table;
  for (const SeriesResult& r : results) {
    points.insert(r.threads);
    table[r.runtime + "_" + r.method + "_" + r.metric][{construct_rank(r.construct), r.construct}][r.threads] = &r;
  }
  fmt::print(out, "# ompscope bench: seconds per construct instance over the thread count t;\n");
  fmt::print(out, "# repetitions are the samples left after the filter: {}\n", kOutlierFilterDescription);
  fmt::print(out, "PARAMETER t\n");
  fmt::print(out, "POINTS");
  for (int t : points) fmt::print(out, " {}", t);
  fmt::print(out, "\n");
  for (const auto& [metric, regions] : table) {
    bool metric_written = false;
    for (const auto& [region, by_threads] : regions) {
      if (by_threads.size() != points.size()) {
        fmt::print(out, "# left out {} {}: not measured at every thread count\n", metric, region.second);
        continue;
      }
      if (!metric_written) fmt::print(out, "METRIC {}\n", metric);
      metric_written = true;
      fmt::print(out, "REGION {}\n", region.second);
      for (const auto& [threads, series] : by_threads) {
        fmt::print(out, "DATA");
        for (double v : drop_best_and_worst_quarter(series->samples_s)) fmt::print(out, " {}", plain_number(v));
        fmt::print(out, "\n");
      }
    }
  }
}

}  // namespace ompscope::bench
