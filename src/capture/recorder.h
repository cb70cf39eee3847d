// The one recording core under both capture front-ends, the OMPT tool (ompt_tool.cpp) and the
// libgomp interposer (gomp_interposer.cpp): the session (log directory, clock, sampling policy,
// meta.txt's header and last lines), each thread's recording state, and the helpers that append
// a record. A front-end is a layer of entry points that turns its runtime's events into calls
// here; what a run on one runtime records (kernel usage, hardware counters, light-task batches,
// lock counts), a run on the other records the same way.
//
// Each front-end is its own shared library with its own copy of this state (hidden symbols): a
// process that loads both (a libomp program with the interposer preloaded) keeps them apart, and
// the interposer then only forwards (gomp_interposer.cpp).
#pragma once
#include <atomic>
#include <cstdint>

#include "capture/adaptive_sampling.h"
#include "capture/hw_counters.h"
#include "capture/lock_records.h"
#include "capture/pc_sampler.h"
#include "capture/serial_usage.h"
#include "capture/thread_log.h"
#include "capture/thread_usage.h"
#include "common/clock.h"
#include "common/event_record.h"

namespace ompscope::capture {

// Plain static storage: a runtime's finalize may run after this library's static destructors
// (docs/runtime-quirks.md Q3).
extern LogConfig g_config;
extern ClockSource g_clock;
extern SamplingPolicy g_sampling;
extern thread_local ThreadLog t_log __attribute__((tls_model("initial-exec")));
extern thread_local LockSampling t_locks __attribute__((tls_model("initial-exec")));
extern thread_local TaskSampling t_tasks __attribute__((tls_model("initial-exec")));
// Depth of light (sampled-out) region instances this thread is inside: nothing is recorded there.
extern thread_local uint32_t t_light_depth __attribute__((tls_model("initial-exec")));
extern thread_local SerialUsageState t_serial __attribute__((tls_model("initial-exec")));
// The region instances this thread forked, for usage_instance (thread_usage.h).
extern thread_local uint32_t t_usage_instances __attribute__((tls_model("initial-exec")));
// Where this thread's stretches of work begin and end (thread_usage.h: UsageStretches).
extern thread_local UsageStretches t_usage_stretches __attribute__((tls_model("initial-exec")));

// Whether a session is open and recording (OMPSCOPE_LOG_DIR's log directory was made).
inline bool recording() { return g_config.directory != nullptr; }

// omp_control_tool's pause (ToolControl): nothing but the pause's own edges is recorded until the
// program starts the tool again.
extern std::atomic<bool> g_paused;

// Inside a light region instance or a light task nothing but lock operations is recorded; while
// the program paused the tool, nothing.
inline bool dark() { return t_light_depth || t_tasks.running_light || g_paused.load(std::memory_order_relaxed); }

// omp_control_tool (either front-end): pause (2), start again (1), flush (3), end (4, a pause
// that lasts). The ToolControl record marks the edge for the analysis, which leaves the paused
// time out of the program's.
int control_tool(uint64_t command);

// The light tasks this thread ran since its last record: one record, before the next one.
void write_light_batch();

// One light task's start in kLightTimedEvery is timed to its end: its own time, the stretches it
// ran its own code, less those it was switched away from (a child run inside it, a task run in
// its taskwait) or waited in its taskwait or at its taskgroup's end, as a recorded task's own work
// is its fragments less its own waits. Clock reads only, no record: a recorded task's window holds
// the tool's records (on a 2-vCPU Sapphire Rapids VM under `scale`, fine_tasks' creator read 74 ns
// recorded and 51 ns timed for ~12 ns of the program's code), and in a tree the recorded tasks are
// its upper levels (docs/sampling.md, "Light tasks timed"). One at a time per thread; the count and
// the ticks go into the batch's record (event_record.h, LightTasks), at most kMostTimedPerBatch.
// The counter and the checks on the light path cost ~2 ns a light task (tiny_tasks +20.9% beside
// +14.5% without, medians of 31 interleaved rounds).
inline constexpr uint32_t kLightTimedEvery = 64;
inline constexpr uint32_t kMostTimedPerBatch = 4096;
[[gnu::noinline]] void start_light_timing(const void* task, uint32_t depth);
[[gnu::noinline]] void pause_light_timing();
[[gnu::noinline]] void resume_light_timing();
// The timed task ended: its body done (a sample), or not (cancelled, or it left this thread).
[[gnu::noinline]] void end_light_timing(bool body_done);
[[gnu::noinline]] void light_timed_waits(bool begins);
[[gnu::noinline]] void stamp_light_batch_start();
// A light task starts on this thread for the first time (outside a light region instance): it
// counts in the batch, and may be the one in kLightTimedEvery timed. `depth`: libgomp's nesting.
inline void light_task_starts(const void* task, uint32_t depth = 0) {
  if (t_tasks.batch_tasks++ == 0) [[unlikely]] stamp_light_batch_start();
  if (t_tasks.light_countdown-- == 0) [[unlikely]] start_light_timing(task, depth);
}
inline bool timing_light(const void* task) { return t_tasks.light_timed != nullptr && t_tasks.light_timed == task; }

// Appends one record to this thread's log (after a pending light-task batch), unless dark.
inline void record(const Event& e) {
  if (dark()) return;
  if (t_tasks.batch_tasks) [[unlikely]] write_light_batch();
  append_event(t_log, g_config, g_clock, e);
}

// Every task this thread creates outside light region instances and pauses, light ones included,
// counted by its level in the task tree (event_record.h, TaskLevels). Under sampling the recorded
// tasks are not a fair sample of a level: a light task's children are never recorded, so the
// recorded levels are the early subtrees' (BOTS fft: 5.8% of the recorded tasks at level 5 create
// children, 0.67% of all of them), and a depth cutoff needs each level's size (docs/tasks.md). One
// increment on the light path; the counts are written, and zeroed, where a region's part begins
// or ends, so that each lands in the part whose tasks created them. The counts live on the heap,
// a pointer in TLS: the static TLS a dlopen'ed tool shares with every other library loaded so is
// about 1.6 KiB (glibc), and this library already takes 776 bytes of it.
inline constexpr uint32_t kTaskLevels = kTaskLevelsCounted;
struct TaskLevelCounts {
  uint32_t created[kTaskLevels];  // [level]; [0] unused (an implicit task's level)
  uint32_t deepest;               // the deepest level counted since the last records; 0: none
};
// Where a thread counts until it has its own counts (open_task_levels at its begin, which each
// front-end calls before the thread's first task), or where it got none: never written.
extern TaskLevelCounts g_uncounted_levels;
extern thread_local TaskLevelCounts* t_task_levels __attribute__((tls_model("initial-exec")));
void open_task_levels();
void close_task_levels();
// The level of a task created by a task at `parent_level` (0: an implicit task), saturated at the
// 8 bits a front-end keeps it in.
inline uint32_t child_task_level(uint32_t parent_level) { return parent_level + (parent_level < 255); }
inline void count_task_level(uint32_t level) {
  TaskLevelCounts& c = *t_task_levels;
  const uint32_t at = level < kTaskLevels ? level : kTaskLevels - 1;
  ++c.created[at];
  if (at > c.deepest) c.deepest = at;
}
// Writes a thread's counts into its log as TaskLevels records and zeroes them (the thread's own,
// or an idle worker's at the session's end: gomp_interposer.cpp, finish_capture).
void write_task_levels(TaskLevelCounts& counts, ThreadLog& log);
[[gnu::noinline]] void write_own_task_levels();
inline void flush_task_levels() {
  if (t_task_levels->deepest) [[unlikely]] write_own_task_levels();
}

// The LockOps records of what is counted but unrecorded, where a region's part begins or ends.
inline void flush_lock_counts() {
  if (!t_light_depth && has_unrecorded_lock_ops(t_locks)) [[unlikely]]
    write_unrecorded_lock_ops(t_locks, t_log, g_config, g_clock);
}

// The thread's kernel accounting at an edge of a stretch of work (thread_usage.h: ThreadUsage),
// then its hardware counters (HwCounters; docs/lost-time.md, "Hardware counters"), whichever
// runtime runs it. Out of line: it is taken at a region instance's edges only.
[[gnu::noinline]] void record_usage(uint8_t edge);
// A recorded task's body read at its edges (thread_usage.h, kBodyGapFirstShift): `starts` right
// after the record of the switch into `task`, `ends` right before the record of a switch away
// from it. Both front-ends call them; the readings of a body pair up in the analysis
// (timeline.cpp) only where no other switch of the thread comes between them.
void read_body_starts(uint32_t task);
void read_body_end();
inline void read_body_ends(uint32_t task) {
  if (task != 0 && task == t_usage_stretches.body_task) [[unlikely]] read_body_end();
}
// Closes this thread's counter group (at its end).
void close_thread_counters();

// Opens the session: the log directory, the clock, and meta.txt's header up to the runtime's
// identity, which `runtime_lines` writes; then the clock's start points, the calibrations and the
// sampling policy. False (nothing is recorded) when OMPSCOPE_DISABLE is set or no directory can
// be made.
bool open_session(void (*runtime_lines)());
// What both front-ends do once the runtime runs: the module map, the last words of a dying
// program (fatal_signal_flush.h), and a forked child's logs and counters forgotten.
void arm_session();
// The end of the run, from the thread that ends it: its serial usage, the end clock point, what
// is pending, every thread's log flushed, the module map again (dlopen'ed libraries), the thread
// and dropped-record counts, "finalized 1".
void close_session();
// All threads' logs written out: at exit() from a worker or while a region runs, the process
// may end without close_session.
void flush_session_at_exit();

}  // namespace ompscope::capture
