// OTF2 archive (Score-P's format: Vampir, Scalasca, otf2-print) of a TraceModel: one location
// per OpenMP thread; every slice as Enter/Leave; ThreadFork/ThreadJoin on a region's master,
// ThreadTeamBegin/End on each member; ThreadAcquireLock/ReleaseLock around lock holds (order
// counted per lock); ThreadTaskCreate/Switch/Complete with OTF2's task ids (thread team,
// creating thread's index in it, generation number per creating thread; implicit tasks have
// generation 0). Timestamps are CLOCK_MONOTONIC nanoseconds (timer resolution 1e9).
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "report/trace_model.h"

namespace ompscope::output {

struct Otf2Result {
  uint64_t events = 0;
  uint32_t locations = 0;
  std::filesystem::path anchor;  // DIR/traces.otf2: what otf2-print and Vampir open
};

// Writes the archive into `directory`, which must not exist yet (OTF2 refuses to overwrite an
// archive). Throws ompscope::Error when OTF2 reports a failure.
Otf2Result write_otf2_trace(const report::TraceModel& model, const std::filesystem::path& directory,
                            const std::string& description = "");

// One rank of an MPI job (docs/mpi.md, "Traces of a job").
struct TraceRank {
  int rank = 0;
  const report::TraceModel* model = nullptr;
  // Added to the rank's CLOCK_MONOTONIC times: its CLOCK_REALTIME − CLOCK_MONOTONIC where every
  // rank recorded one, so that ranks on different nodes share one time axis (0: one node's clock).
  int64_t clock_offset_ns = 0;
};

// One archive for the ranks of a job: one location group (a process, "rank R (process PID)") per
// rank holding its threads' locations (rank << 32 | thread), the regions defined once for all
// ranks, each rank's thread teams its own communicators, and every rank's events on one time axis.
Otf2Result write_otf2_job_trace(const std::vector<TraceRank>& ranks, const std::filesystem::path& directory,
                                const std::string& description = "");

}  // namespace ompscope::output
