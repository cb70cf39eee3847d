#include "analysis/pipeline.h"

#include <algorithm>

namespace ompscope::analysis {

LoadedRun load_run(const std::filesystem::path& log_dir, const ClockPoint* end, const ClockPoint* start) {
  LoadedRun run;
  run.log = read_run_log(log_dir, end);
  run.timeline = build_timeline(run.log);
  if (start) run.timeline.start = std::min(run.timeline.start, run.log.seconds(start->ticks));
  run.symbols = std::make_unique<Symbolizer>(run.log.meta.modules);
  return run;
}

}  // namespace ompscope::analysis
