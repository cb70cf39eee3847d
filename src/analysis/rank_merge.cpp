#include "analysis/rank_merge.h"

#include <fmt/format.h>

#include <fmt/ranges.h>

#include <algorithm>

#include "common/error.h"

namespace ompscope::analysis {
namespace {

using report::RankSplit;
using report::RankTime;
using report::RegionReport;
using report::Report;

// How the reports are told apart: by MPI rank, or (processes of one program) by their place in
// the list, the program's own process 0.
enum class Merging { Ranks, Processes };

int rank_of(const Report& r, size_t index, Merging merging = Merging::Ranks) {
  if (merging == Merging::Processes) return static_cast<int>(index);
  return !r.runs.empty() && r.runs.front().rank >= 0 ? r.runs.front().rank : static_cast<int>(index);
}

double at(const std::map<int, double>& m, int t) {
  const auto it = m.find(t);
  return it == m.end() ? 0.0 : it->second;
}

// A rank's MPI time at t: the initial thread's, outside regions and, where its split is known
// (the first repeat's), inside them too (FUNNELED: its calls in a region while its team waits;
// docs/mpi.md). Never more than the time outside serial code.
double mpi_time(const Report& r, int t) {
  double mpi = at(r.mpi_s, t);
  const auto time = r.program_time_s.find(t);
  if (const auto threads = r.program_threads.find(t);
      time != r.program_time_s.end() && threads != r.program_threads.end() && !threads->second.empty())
    mpi = std::max(mpi, std::min(time->second - at(r.serial_s, t), threads->second.front().mpi_s));
  return mpi;
}

bool same_region(const RegionReport& a, const RegionReport& b) {
  return a.kind == b.kind && a.file == b.file && a.line == b.line && a.function == b.function &&
         a.module_offset == b.module_offset;
}

// max − mean over all ranks (POP's and TALP's definition); a rank without the figure counts 0.
std::map<int, double> imbalance(const std::vector<std::map<int, double>>& per_rank) {
  std::map<int, double> max, sum;
  for (const auto& m : per_rank)
    for (const auto& [t, v] : m) {
      max[t] = std::max(max[t], v);
      sum[t] += v;
    }
  std::map<int, double> out;
  for (const auto& [t, m] : max) out[t] = m - sum[t] / static_cast<double>(per_rank.size());
  return out;
}

// `ranks` side by side, the figures those of ranks[figures_from].
Report merge(const std::vector<Report>& ranks, size_t figures_from, Merging merging, const std::vector<int>& pids) {
  auto rank_of = [merging](const Report& r, size_t index) { return ::ompscope::analysis::rank_of(r, index, merging); };
  const size_t slowest = figures_from;
  Report out = ranks[slowest];
  out.merged_from_rank = rank_of(ranks[slowest], slowest);
  out.ranks_are_processes = merging == Merging::Processes;
  out.runs.clear();
  std::vector<std::map<int, double>> useful;
  for (size_t i = 0; i < ranks.size(); ++i) {
    const Report& r = ranks[i];
    for (report::RunRecord run : r.runs) {
      if (merging == Merging::Ranks) run.rank = rank_of(r, i);  // a process's run keeps its own
      out.runs.push_back(std::move(run));
    }
    RankSplit split;
    split.rank = rank_of(r, i);
    if (merging == Merging::Processes) {
      split.pid = i < pids.size() ? pids[i] : 0;
      split.command = fmt::format("{}", fmt::join(r.command, " "));
    }
    split.time_s = r.program_time_s;
    std::map<int, double> outside_mpi;
    for (const auto& [t, time] : r.program_time_s) {
      const double serial = at(r.serial_s, t), mpi = mpi_time(r, t);
      split.serial_s[t] = serial;
      split.mpi_s[t] = mpi;
      split.parallel_s[t] = std::max(0.0, time - serial - mpi);
      outside_mpi[t] = time - mpi;
    }
    useful.push_back(std::move(outside_mpi));
    out.ranks.push_back(std::move(split));
  }
  std::sort(out.ranks.begin(), out.ranks.end(), [](const RankSplit& a, const RankSplit& b) { return a.rank < b.rank; });
  if (merging == Merging::Ranks)
    std::stable_sort(out.runs.begin(), out.runs.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; });
  out.rank_imbalance_s = imbalance(useful);

  std::vector<std::string> elsewhere;
  for (RegionReport& region : out.regions) {
    std::vector<std::map<int, double>> times;
    for (size_t i = 0; i < ranks.size(); ++i) {
      RankTime rt;
      rt.rank = rank_of(ranks[i], i);
      std::map<int, double> outside_mpi;
      for (const RegionReport& other : ranks[i].regions)
        if (same_region(region, other)) {
          rt.time_s = other.time_s;
          rt.problems = other.problems;
          outside_mpi = other.time_s;
          // MPI inside the region (docs/mpi.md): the team's, the most of any of its threads (the
          // master's, FUNNELED, while the others wait for it), is waiting, not the rank's load.
          for (const auto& [t, splits] : other.per_thread) {
            double mpi = 0;
            for (const report::ThreadSplit& s : splits) mpi = std::max(mpi, s.mpi_s);
            if (mpi > 0 && outside_mpi.count(t)) {
              rt.mpi_s[t] = mpi;
              outside_mpi[t] = std::max(0.0, outside_mpi[t] - mpi);
            }
          }
          break;
        }
      times.push_back(std::move(outside_mpi));
      region.ranks.push_back(std::move(rt));
    }
    std::sort(region.ranks.begin(), region.ranks.end(), [](const RankTime& a, const RankTime& b) { return a.rank < b.rank; });
    region.rank_imbalance_s = imbalance(times);
  }
  for (size_t i = 0; i < ranks.size(); ++i)
    for (const RegionReport& other : ranks[i].regions)
      if (std::none_of(out.regions.begin(), out.regions.end(), [&](const RegionReport& r) { return same_region(r, other); }))
        elsewhere.push_back(fmt::format("{} {}: {}:{}", merging == Merging::Ranks ? "rank" : "process",
                                        rank_of(ranks[i], i), other.file, other.line));
  if (merging == Merging::Ranks) {
    out.notes.push_back({"ranks",
                         fmt::format("{} MPI ranks merged: the figures are rank {}'s, the slowest; each region's "
                                     "ranks give every rank's time and causes side by side",
                                     ranks.size(), out.merged_from_rank),
                         {}});
    if (!elsewhere.empty())
      out.notes.push_back({"rank_only_regions", "regions that only other ranks ran, not in this report", elsewhere});
  } else {
    std::vector<std::string> others;
    for (size_t i = 1; i < ranks.size(); ++i)
      others.push_back(fmt::format("process {} (pid {}): {}", i, i < pids.size() ? pids[i] : 0,
                                   fmt::join(ranks[i].command, " ")));
    out.notes.push_back({"processes",
                         fmt::format("{} processes ran OpenMP code: the figures are the program's own process's "
                                     "(process 0, pid {}); the program split of each, and each region's time in "
                                     "each, are listed by process as ranks are",
                                     ranks.size(), pids.empty() ? 0 : pids[0]),
                         others});
    if (!elsewhere.empty())
      out.notes.push_back({"process_only_regions", "regions that only other processes ran, not in this report", elsewhere});
  }
  return out;
}

}  // namespace

Report merge_rank_reports(const std::vector<Report>& ranks) {
  if (ranks.empty()) throw Error("no rank's report to merge");
  // The slowest rank at the largest thread count: the one with the most time outside MPI, which
  // the others wait for in MPI (their program times end alike at the job's last collective).
  size_t slowest = 0;
  double longest = -1;
  for (size_t i = 0; i < ranks.size(); ++i) {
    const Report& r = ranks[i];
    if (r.program_time_s.empty()) continue;
    const auto& [t, time] = *r.program_time_s.rbegin();
    if (time - mpi_time(r, t) > longest) longest = time - mpi_time(r, t), slowest = i;
  }
  return merge(ranks, slowest, Merging::Ranks, {});
}

Report merge_process_reports(const std::vector<Report>& processes, const std::vector<int>& pids) {
  if (processes.empty()) throw Error("no process's report to merge");
  return merge(processes, 0, Merging::Processes, pids);
}

}  // namespace ompscope::analysis
