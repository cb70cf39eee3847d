// The construct tree of a region in the report (report::ConstructReport): the constructs' times
// from the repeat the region's split comes from, and the region's causes at each count shared
// out to the constructs that carry them (docs/source-locations.md, "Constructs inside a region").
#pragma once
#include <map>
#include <string>
#include <vector>

#include "analysis/report.h"
#include "analysis/run_analysis.h"

namespace ompscope::analysis {

class ConstructReports {
 public:
  // `dispatch_per_chunk_s`: the bench cache's dispatch cost for a schedule hint (diagnose_region).
  explicit ConstructReports(double dispatch_per_chunk_s = 0) : dispatch_per_chunk_s_(dispatch_per_chunk_s) {}
  // One thread count: `repeats` the region's runs there, `typical` the one its split comes from
  // and `to_median` what scales it to the median time; `region` holds its causes at `threads`
  // already: the constructs get their shares of them, and a cause that one construct carries
  // for the most part gets that construct's hint.
  void add(const std::vector<const RegionRun*>& repeats, int threads, const RegionRun& typical, double to_median,
           RegionReport& region);
  // The tree, into `region.constructs`, children by time at the largest count.
  void finish(RegionReport& region);

 private:
  struct Entry {
    std::string parent;  // path; "" at the top
    report::ConstructReport report;
  };
  std::map<std::string, Entry> entries_;  // by path
  std::vector<std::string> order_;        // paths in order of first sight (parents first)
  double dispatch_per_chunk_s_ = 0;
};

// "the loop at solver.c:42": a construct as a sentence names it.
std::string construct_place(const report::ConstructReport& c);

}  // namespace ompscope::analysis
