// Chrome trace-event JSON (opens in Perfetto UI, chrome://tracing, speedscope): one track per
// OpenMP thread, complete events ("ph":"X", ts/dur in µs with ns digits) nested exactly as in
// the TraceModel, a flow arrow from each task's creation to its first execution (bind_id with
// flow_out on a zero-length "create task" slice, flow_in on the task's slice).
// Past `max_events` the trace is cut in time: only slices that begin before the cut are
// written (nesting and flows stay whole), and the cut is stated in "otherData".
#pragma once
#include <cstdint>
#include <ostream>
#include <string>

#include "report/trace_model.h"

namespace ompscope::output {

struct PerfettoOptions {
  uint64_t max_events = 1'000'000;  // all events of the file, metadata (M) events included
  std::string process_name = "OpenMP program";
};

struct PerfettoResult {
  uint64_t slices_total = 0;
  uint64_t slices_written = 0;
  uint64_t events_written = 0;  // slices + metadata events
  uint64_t flows = 0;
  uint64_t samples_written = 0; // CPU-time samples, as instant events (counted in events_written)
  bool truncated = false;
  int64_t cut_at_ns = 0;        // when truncated: slices beginning at or after this were left out
};

PerfettoResult write_perfetto_trace(const report::TraceModel& model, std::ostream& out, const PerfettoOptions& options = {});

}  // namespace ompscope::output
