// CPU-time samples placed in the program (docs/sampling.md, "Sampled lines"): each sample goes to
// the region instance its thread was working in at its time (the innermost one; a sampled-out
// instance by its wall-clock span), else to serial code (the initial thread outside every
// region) or to nothing (a worker between regions: the runtime's idle wait). Within it, to the
// line of its innermost frame in the program's own code, and to its folded call stack.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/source_excerpt.h"
#include "analysis/symbolizer.h"
#include "analysis/timeline.h"
#include "report/report.h"

namespace ompscope::analysis {

// One run's samples in one region (all its instances) or in serial code.
struct RunSamples {
  double cpu_s = 0;
  // Of cpu_s, the samples whose innermost frame is in the OpenMP runtime, wherever the program's
  // line they count at (a call to `omp flush` spinning on a flag counts at the program's line
  // where frame pointers lead there, and at "(OpenMP runtime)" where none do).
  double runtime_s = 0;
  std::map<std::pair<std::string, int>, report::SampledLine> lines;  // by (file, or function + module; line)
  std::map<std::string, double> stacks;                               // folded, outermost first
};

// One sample symbolised: the program's line it counts at (its key in RunSamples::lines, and the
// entry with the sample's CPU time) and its folded call stack.
struct DescribedSample {
  std::pair<std::string, int> key;
  report::SampledLine line;
  std::string folded;
  bool in_runtime = false;  // its innermost frame is in the OpenMP runtime
  // Its line is an `omp flush` directive the compiler inlined (gcc: a fence; clang calls the
  // runtime): a thread spinning on it waits as one spinning in the runtime does.
  bool inline_flush = false;
};
DescribedSample describe_sample(const CpuSample& sample, Symbolizer& symbols);

// Each sample of a timeline described once, when first asked for: a sample counts in its region
// (place_samples) and in the construct open at its time (constructs.h) alike.
class DescribedSamples {
 public:
  DescribedSamples(const Timeline& timeline, Symbolizer& symbols);
  const DescribedSample& of(const CpuSample& sample);  // `sample`: one of the timeline's

 private:
  const Timeline& timeline_;
  Symbolizer& symbols_;
  SourceReader sources_;  // the program's lines, to tell a flush directive (DescribedSample::inline_flush)
  std::vector<std::optional<DescribedSample>> described_;
};

// Where each sample of the timeline goes: `region_of(instance)` is the RunSamples of the region an
// instance belongs to; samples outside every instance on the initial thread go to `serial`.
template <typename RegionOf>
void place_samples(const Timeline& timeline, DescribedSamples& described, RegionOf&& region_of, RunSamples& serial);

// Adds one sample to `into`.
void add_sample(RunSamples& into, const DescribedSample& sample);

// The innermost region instance thread `thread` was in at `time` (nullptr: none), over the
// intervals index_samples built.
struct InstanceIndex {
  // per log thread: (start, end, instance), by start
  std::map<uint32_t, std::vector<std::tuple<double, double, const RegionInstance*>>> parts;
  std::vector<const RegionInstance*> light_top;  // sampled-out top-level instances, by begin
  explicit InstanceIndex(const Timeline& timeline);
  const RegionInstance* at(uint32_t thread, double time) const;
};

inline bool in_intervals(const std::vector<std::pair<double, double>>& sorted, double time) {
  for (const auto& [from, to] : sorted)
    if (time >= from && time <= to) return true;
  return false;
}

template <typename RegionOf>
void place_samples(const Timeline& timeline, DescribedSamples& described, RegionOf&& region_of, RunSamples& serial) {
  if (timeline.samples.empty()) return;
  const InstanceIndex index(timeline);
  for (const CpuSample& s : timeline.samples) {
    if (const RegionInstance* inst = index.at(s.thread, s.time)) {
      if (RunSamples* r = region_of(*inst)) add_sample(*r, described.of(s));
    } else if (s.thread == 0 && !in_intervals(timeline.paused, s.time)) {
      add_sample(serial, described.of(s));
    }
  }
}

// Each line's mean time over the repeats.
std::map<std::pair<std::string, int>, report::SampledLine> mean_lines(const std::vector<const RunSamples*>& repeats);
// The lines of `samples` (one per repeat) by their mean time, the `top` largest.
report::SampledCode summarize_samples(const std::vector<const RunSamples*>& repeats, size_t top);
// The lines whose mean time grew most from `base` to `now` (growth > 0), the `top` largest.
std::vector<report::SampledLine> grown_lines(const std::vector<const RunSamples*>& base,
                                             const std::vector<const RunSamples*>& now, size_t top);
// The folded stacks of `repeats` by their mean time, the `top` largest.
std::vector<std::pair<std::string, double>> top_stacks(const std::vector<const RunSamples*>& repeats, size_t top);

}  // namespace ompscope::analysis
