// The plots of the HTML report, drawn from the typed report: speedup and efficiency per region
// against ideal, lost time by cause, and per-thread time. Each returns one inline <svg>.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "report/report.h"

namespace ompscope::output {

// What every chart of one report shares: the measured counts, which of them oversubscribe the
// cores, and the ranked regions that get a line or a bar group (the top few, so legends stay
// readable).
struct ChartScope {
  std::vector<int> threads;
  std::set<int> oversubscribed;
  std::vector<const report::RegionReport*> plotted_regions;  // in rank order
  std::size_t region_count = 0;                          // all regions of the report
};
ChartScope chart_scope(const report::Report& report);

// "#1 solve", the name a region has in legends; rank counts from 1.
std::string region_chart_label(const report::RegionReport& region, std::size_t rank);

std::string speedup_chart(const report::Report& report, const ChartScope& scope);
std::string efficiency_chart(const report::Report& report, const ChartScope& scope);
std::string lost_time_chart(const ChartScope& scope);

// One horizontal bar per thread of `region` at `threads`: work, barrier wait, lock wait, task
// and outside time; empty when the region has no per-thread data at that count.
std::string per_thread_chart(const report::RegionReport& region, int threads, bool oversubscribed);

}  // namespace ompscope::output
