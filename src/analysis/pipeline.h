// One run's log as every command analyses it (profile, scale, report and trace alike): read,
// rebuilt as a Timeline whose region instances know their outlined bodies (region_identity.h),
// with the one Symbolizer that names its code addresses.
#pragma once
#include <filesystem>
#include <memory>

#include "analysis/run_log.h"
#include "analysis/symbolizer.h"
#include "analysis/timeline.h"

namespace ompscope::analysis {

struct LoadedRun {
  RunLog log;
  Timeline timeline;
  std::unique_ptr<Symbolizer> symbols;
};

// `launch`: the launcher's clock points (run_log.h), which calibrate any process's log.
// `starts_at_launch`: the log is the program's own process, started by the launcher: its serial
// code before the first OpenMP call ran before its tool started, so the timeline starts at the
// launch. Another process (a child, a rank) starts where its tool did. Throws ompscope::Error on
// a malformed log.
LoadedRun load_run(const std::filesystem::path& log_dir, const LaunchClock& launch = {}, bool starts_at_launch = false);

}  // namespace ompscope::analysis
