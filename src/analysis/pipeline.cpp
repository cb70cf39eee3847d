#include "analysis/pipeline.h"

#include <algorithm>

#include "analysis/region_identity.h"

namespace ompscope::analysis {

LoadedRun load_run(const std::filesystem::path& log_dir, const LaunchClock& launch, bool starts_at_launch) {
  LoadedRun run;
  run.log = read_run_log(log_dir, launch, {.stream = true});  // the records stay in their files
  run.timeline = build_timeline(run.log);
  if (starts_at_launch && launch.start)
    run.timeline.start = std::min(run.timeline.start, run.log.seconds(launch.start->ticks));
  run.symbols = std::make_unique<Symbolizer>(run.log.meta.modules);
  identify_region_bodies(
      run.timeline, [&](uint64_t address) { return run.symbols->outlined_body_entry(address); },
      [&](uint64_t address) { return run.symbols->tail_called_fork_body(address); });
  return run;
}

}  // namespace ompscope::analysis
