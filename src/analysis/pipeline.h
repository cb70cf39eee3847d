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

// `end`: a clock point taken after the program ended (calibrates a log whose program died
// before finalize); `start`: one taken at its launch (serial code before the first OpenMP call
// ran before the tool started: the timeline then starts there). Throws ompscope::Error on a
// malformed log.
LoadedRun load_run(const std::filesystem::path& log_dir, const ClockPoint* end = nullptr,
                   const ClockPoint* start = nullptr);

}  // namespace ompscope::analysis
