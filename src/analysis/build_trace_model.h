// Builds the trace model (report/trace_model.h) from the Timeline, plus the worksharing
// constructs, which the Timeline does not keep.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "analysis/symbolizer.h"
#include "analysis/timeline.h"
#include "report/trace_model.h"

namespace ompscope::analysis {

// The trace model's types are the report's (report/trace_model.h): the writers render them
// without the analysis. The types are used here under their own names.
using report::Callsite;
using report::kSliceCompletesTask;
using report::ParallelInstance;
using report::Slice;
using report::SliceKind;
using report::slice_kind_name;
using report::TaskInfo;
using report::Team;
using report::ThreadTrack;
using report::to_ns;
using report::TraceModel;
using report::TraceRegion;

// Names a return address (a callsite), or with `body` set the entry of a region's outlined body.
using CallsiteNamer = std::function<Callsite(uint64_t address, bool body)>;

// The trace's name of a symbolised callsite: "function@file.c:24", or the place alone for an
// outlined body (its name says nothing the line does not).
Callsite callsite_of(const SourceLocation& where, uint64_t codeptr);

// Builds the nested slices. The timeline is taken by value and its records freed as each kind
// becomes slices (region instances, worksharing constructs, locks, tasks, samples): a trace's
// peak was the whole timeline beside the whole model. Callers that are done with theirs move it.
TraceModel build_trace_model(Timeline timeline, const CallsiteNamer& name_of, int pid = 0, uint64_t origin_ns = 0);

}  // namespace ompscope::analysis
