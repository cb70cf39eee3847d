// The trace of a run as the trace writers (OTF2, Perfetto JSON) render it: one strictly nested
// stack of slices per thread, in integer nanoseconds. analysis/build_trace_model.h builds it from the
// Timeline; output/ renders it and reads nothing else, so both formats show the same intervals,
// the same names and the same order of events.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ompscope::report {

// What a callsite is called in the trace: "main@task_tree.c:24". file/line/function feed the
// OTF2 region definition; label is what both formats show after the construct's name.
struct Callsite {
  std::string label;
  std::string function;
  std::string file;
  int line = 0;
};

enum class SliceKind : uint8_t {
  Parallel,   // this thread's part in a parallel region instance (the master: the whole instance)
  Work,       // a worksharing construct
  Barrier,    // explicit, implementation or implicit (not last) barrier
  JoinBarrier,
  Taskwait,
  Taskgroup,
  Sync,       // another kind of synchronisation region
  LockWait,   // acquire request → acquired
  LockHeld,   // acquired → released
  Task,       // an explicit task executing on this thread (first start → last end there)
  TaskCreate, // zero length: the creation of an explicit task
};
const char* slice_kind_name(SliceKind kind);

// A named code region: the OTF2 region definition, the JSON slice's name.
struct TraceRegion {
  std::string name;  // "parallel main@file.c:24", "barrier", "task foo@file.c:10"
  SliceKind kind = SliceKind::Sync;
  uint8_t detail = 0;  // ompt_work_t for Work, ompt_mutex_t for locks, ompt_task_flag_t for tasks
  Callsite where;
};

inline constexpr uint8_t kSliceCompletesTask = 1;  // the task completes at this slice's end

struct Slice {
  int64_t begin = 0;  // ns since the run's clock origin
  int64_t end = 0;
  uint32_t region = 0;  // TraceModel::regions
  // Parallel: TraceModel::parallels; LockWait/LockHeld: TraceModel::locks;
  // Task/TaskCreate: TraceModel::tasks; otherwise 0.
  uint32_t ref = 0;
  // Parallel: this thread's index in the team; LockHeld: acquisition order of the lock (1, 2, ...).
  uint32_t aux = 0;
  SliceKind kind = SliceKind::Sync;
  uint8_t flags = 0;
  uint16_t depth = 0;  // 0: outermost
};

// A CPU-time sample (docs/sampling.md, "Sampled lines"): when, and where (TraceModel::sample_sites).
struct TraceSample {
  int64_t time = 0;  // ns since the run's clock origin
  uint32_t site = 0;
};

struct ThreadTrack {
  uint32_t thread = 0;  // log thread index (0 = initial thread)
  std::vector<Slice> slices;  // pre-order: by begin, a parent before its children; nested exactly
  std::vector<TraceSample> samples;  // by time
};

struct ParallelInstance {
  uint32_t team = 0;  // TraceModel::teams
  uint32_t requested_threads = 0;
  uint32_t master_thread = 0;
};

// The threads of a team by index in the team. Team 0 is the initial thread alone: the team of
// serial code, where tasks created outside any parallel region belong.
struct Team {
  std::vector<uint32_t> threads;
};

struct TaskInfo {
  uint32_t id = 0;          // the log's task id
  uint32_t team = 0;        // the team of the region the task was created in
  uint32_t creator_thread = 0;
  uint32_t creator_index = 0;  // the creating thread's index in that team
  uint32_t generation = 0;  // 1, 2, ... per creating thread, in creation order
  bool completed = false;
  bool ran = false;         // executed at least once (a flow goes from its creation to that start)
  bool untied = false;
};

struct TraceModel {
  int pid = 0;
  uint64_t origin_ns = 0;  // CLOCK_MONOTONIC at the run's clock origin (0 when unknown)
  int64_t end = 0;         // ns: the end of the run
  std::vector<TraceRegion> regions;
  std::vector<ThreadTrack> threads;  // by thread index
  std::vector<ParallelInstance> parallels;
  std::vector<Team> teams;
  std::vector<TaskInfo> tasks;
  uint32_t locks = 0;       // distinct locks (ids 0 .. locks-1)
  // The places the samples were taken at (the interrupted instruction's function and line), and
  // the sampling period (0: the run took no samples).
  std::vector<Callsite> sample_sites;
  int64_t sample_period_ns = 0;
  uint64_t clamped = 0;     // slices shortened to nest in their parent (inconsistent input)

  uint64_t slice_count() const;
};

inline int64_t to_ns(double seconds) { return static_cast<int64_t>(seconds * 1e9 + (seconds >= 0 ? 0.5 : -0.5)); }

}  // namespace ompscope::report
