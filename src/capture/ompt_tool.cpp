// The OMPT entry points: thin extern "C" callbacks that stamp the time and append one record
// to the calling thread's log. No locks, no allocation, no I/O: a full chunk goes to the writer.
// Everything else (matching, attribution, symbols) happens offline in src/analysis.
#include <omp-tools.h>
#include <pthread.h>
#include <sys/resource.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "capture/adaptive_sampling.h"
#include "capture/recorder.h"
#include "capture/dependence_records.h"
#include "capture/fatal_signal_flush.h"
#include "capture/hw_counters.h"
#include "capture/lock_records.h"
#include "capture/run_meta.h"
#include "capture/serial_usage.h"
#include "capture/thread_log.h"
#include "capture/thread_usage.h"
#include "common/clock.h"
#include "common/event_record.h"

namespace ompscope::capture {
namespace {

// The session and each thread's recording state are the recorder's (recorder.h).

// Marks a light region instance in its parallel and implicit-task data, and a light task in its
// task data (ids stay 32-bit).
constexpr uint64_t kLightBit = uint64_t{1} << 32;

inline uint64_t id_of(const ompt_data_t* data) { return data ? data->value : 0; }
inline uint32_t id32(const ompt_data_t* data) { return static_cast<uint32_t>(id_of(data)); }
// Marks implicit (and initial) tasks, so that a switch to a light task can tell them from explicit ones.
constexpr uint64_t kImplicitBit = uint64_t{1} << 33;
inline bool is_implicit(const ompt_data_t* data) { return !data || (data->value & kImplicitBit); }
// Marks a light task that has started once.
constexpr uint64_t kStartedBit = uint64_t{1} << 34;
inline bool is_light_task(const ompt_data_t* data) {
  return data && (data->value & (kLightBit | kImplicitBit)) == kLightBit;
}
// An explicit task's level in the task tree (recorder.h, count_task_level), in 8 bits of its task
// data; an implicit task's are 0.
constexpr unsigned kLevelShift = 40;
inline uint32_t level_of(const ompt_data_t* task) {
  return task ? static_cast<uint32_t>(task->value >> kLevelShift) & 0xff : 0;
}

inline void emit(EventKind kind, const void* codeptr, uint32_t id, uint32_t id2 = 0,
                 uint32_t arg = 0, uint16_t arg2 = 0, uint8_t detail = 0) {
  record(Event{0, reinterpret_cast<uint64_t>(codeptr), id, id2, arg, arg2, kind, detail});
}

// Region instances whose threads read the kernel's accounting: each master's first 100 recorded
// instances, then one in 16, whatever the sampling of records (a reading costs ~1.3 us per thread
// at every barrier: in every instance they took loop_stencil's overhead from +3% to +9%, and
// changed what they measure: with every many_regions instance read, thread 1 waited 50% of the
// region against 79% in a run that read a few).
constexpr uint64_t kUsageBit = uint64_t{1} << 35;
inline bool usage_instance() { return capture::usage_instance(t_usage_instances); }
inline bool reads_usage(const ompt_data_t* parallel) { return parallel && (parallel->value & kUsageBit); }
// Whether the implicit task this thread began last reads it: its end may come without the region.
thread_local bool t_usage_task __attribute__((tls_model("initial-exec")));

inline bool is_barrier(ompt_sync_region_t kind) {
  return kind != ompt_sync_region_taskwait && kind != ompt_sync_region_taskgroup &&
         kind != ompt_sync_region_reduction;
}

// Out of line: the callbacks' path for an unrecorded operation then saves no registers.
[[gnu::noinline]] void emit_mutex(EventKind kind, int mutex_kind, ompt_wait_id_t wait_id,
                                  const void* codeptr, uint32_t arg = 0, uint16_t arg2 = 0) {
  if (t_light_depth) return;
  append_mutex_event(t_log, g_config, g_clock, kind, static_cast<uint8_t>(mutex_kind), wait_id,
                     reinterpret_cast<uint64_t>(codeptr), arg, arg2);
}


// Text range of the OpenMP runtime: a callsite inside it (a nested fork reports one) is
// replaced by the return address into user code, read from the runtime's entry frame.
uintptr_t g_runtime_lo = 0, g_runtime_hi = 0;

inline const void* user_callsite(const void* codeptr, const ompt_frame_t* frame) {
  const auto a = reinterpret_cast<uintptr_t>(codeptr);
  if ((a == 0 || (a >= g_runtime_lo && a < g_runtime_hi)) && frame && frame->enter_frame.ptr)
    return static_cast<void* const*>(frame->enter_frame.ptr)[1];
  return codeptr;
}

inline uint16_t clamp16(unsigned v) { return v > 0xffff ? 0xffff : static_cast<uint16_t>(v); }
inline uint32_t clamp32(uint64_t v) { return v > 0xffffffffu ? 0xffffffffu : static_cast<uint32_t>(v); }

void on_thread_begin(ompt_thread_t type, ompt_data_t* thread_data) {
  emit(EventKind::ThreadBegin, nullptr, 0, 0, 0, 0, static_cast<uint8_t>(type));
  thread_data->value = t_log.thread_index;
  open_task_levels();
  begin_thread_sampling();
}

// Writes what is pending and closes the log: no analysis reads a thread's end as a record.
void on_thread_end(ompt_data_t*) {
  // libomp ends the initial thread before it calls finalize: the run's end is read here then.
  end_thread_sampling(t_log, g_config);
  record_serial_usage(t_serial, t_log, g_config, g_clock, 2, true);
  flush_lock_counts();
  flush_task_levels();
  close_task_levels();
  close_thread_counters();
  close_thread_log(t_log, g_config);
}

void on_parallel_begin(ompt_data_t* /*encountering_task*/, const ompt_frame_t* frame, ompt_data_t* parallel,
                       unsigned requested, int /*flags*/, const void* codeptr) {
  if (t_serial.depth++ == 0) {
    drain_samples(t_log, g_config);
    record_serial_usage(t_serial, t_log, g_config, g_clock, 1, false);
  }
  parallel->value = next_object_id(t_log);
  if (dark()) {
    parallel->value |= kLightBit;  // inside a light instance or task: its team records nothing either
    return;
  }
  codeptr = user_callsite(codeptr, frame);
  const bool full = record_region_instance(g_sampling, reinterpret_cast<uint64_t>(codeptr));
  if (!full) parallel->value |= kLightBit;
  else if (usage_instance()) parallel->value |= kUsageBit;
  emit(EventKind::ParallelBegin, codeptr, id32(parallel), 0, requested, 0, full ? 0 : 1);
}

void on_parallel_end(ompt_data_t* parallel, ompt_data_t* encountering_task, int flags,
                     const void* codeptr) {
  emit(EventKind::ParallelEnd, codeptr, id32(parallel), id32(encountering_task), 0,
       clamp16(static_cast<unsigned>(flags)));
  if (t_serial.depth && --t_serial.depth == 0) {
    drain_samples(t_log, g_config);
    record_serial_usage(t_serial, t_log, g_config, g_clock, 0, false);
  }
}

void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t* parallel, ompt_data_t* task,
                      unsigned team_size, unsigned index, int flags) {
  flush_lock_counts();
  flush_task_levels();
  if (endpoint == ompt_scope_begin) {
    task->value = next_object_id(t_log) | kImplicitBit;
    // The initial task's enclosing "initial parallel region" has no parallel-begin event.
    if (parallel && parallel->value == 0) parallel->value = next_object_id(t_log);
    if (parallel && (parallel->value & kLightBit)) {
      task->value |= kLightBit;
      ++t_light_depth;
    }
    emit(EventKind::ImplicitTaskBegin, nullptr, id32(parallel), id32(task), 0, clamp16(index),
         static_cast<uint8_t>(flags));
    t_usage_task = !(flags & ompt_task_initial) && !dark() && reads_usage(parallel);
    if (t_usage_task) {
      t_usage_stretches.start(monotonic_ns());
      record_usage(0);
    }
  } else {
    // A team of one has no barrier (the runtime serialises the region): its work ends here.
    if (team_size == 1 && !(flags & ompt_task_initial) && !dark() && t_usage_task && t_usage_stretches.end())
      record_usage(1);
    emit(EventKind::ImplicitTaskEnd, nullptr, id32(parallel), id32(task), team_size,
         clamp16(index), static_cast<uint8_t>(flags));
    // The end may come late (at the next fork, docs/runtime-quirks.md Q1), but always before the
    // thread's next implicit task begins.
    if (task && (task->value & kLightBit) && t_light_depth) --t_light_depth;
  }
}

void on_work(ompt_work_t type, ompt_scope_endpoint_t endpoint, ompt_data_t* parallel,
             ompt_data_t* task, uint64_t count, const void* codeptr) {
  emit(endpoint == ompt_scope_begin ? EventKind::WorkBegin : EventKind::WorkEnd, codeptr,
       id32(parallel), id32(task), clamp32(count), 0, static_cast<uint8_t>(type));
}

void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                    ompt_data_t* parallel, ompt_data_t* task, const void* codeptr) {
  // The timed light task waits for its children: no time of its own (libomp brackets the wait
  // of a taskwait and of a taskgroup's end).
  if (timing_light(task) && (kind == ompt_sync_region_taskwait || kind == ompt_sync_region_taskgroup)) [[unlikely]]
    light_timed_waits(endpoint == ompt_scope_begin);
  // The readings sit inside the barrier visit (after its arrival, before its departure), so
  // their cost counts as waiting, not as the work they measure.
  // libomp passes no parallel data at the end of the region's join barrier (its workers' and
  // the master's alike): the thread's own implicit task says whether this instance reads, so that
  // tasks run in that barrier have their closing reading (docs/tasks.md, "The kernel's accounting
  // of task bodies").
  const bool usage = is_barrier(kind) && !dark() &&
                     (reads_usage(parallel) || (parallel == nullptr && endpoint == ompt_scope_end && t_usage_task));
  if (usage && endpoint == ompt_scope_end && t_usage_stretches.begin(monotonic_ns)) record_usage(0);
  emit(endpoint == ompt_scope_begin ? EventKind::SyncBegin : EventKind::SyncEnd, codeptr,
       id32(parallel), id32(task), 0, 0, static_cast<uint8_t>(kind));
  if (usage && endpoint == ompt_scope_begin && t_usage_stretches.end()) record_usage(1);
}

// The recorded acquisition's sampling slot, 1-based (0: not sampled), for its acquired record.
inline uint16_t sampling_slot() { return g_sampling.enabled ? static_cast<uint16_t>(t_locks.slot + 1) : 0; }

// Simple locks (omp_set_lock, omp_test_lock) are released in any order: whether a release is
// recorded comes from the locks the thread holds with a recorded acquisition (LockSampling::held);
// nest locks, critical, atomic and ordered keep the decision stack (they nest).
inline bool is_simple_lock(ompt_mutex_t kind) { return kind == ompt_mutex_lock || kind == ompt_mutex_test_lock; }

[[gnu::noinline]] void mutex_acquire_sampled(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void* codeptr) {
  const uint64_t at = reinterpret_cast<uint64_t>(codeptr);
  const bool recorded = is_simple_lock(kind) ? simple_lock_acquire_recorded(t_locks, g_sampling, at, wait_id)
                                             : lock_operation_recorded(t_locks, g_sampling, at);
  if (recorded) emit_mutex(EventKind::MutexAcquire, kind, wait_id, codeptr);
}

// An acquire that sampling leaves unrecorded (most of them) returns at once, saving no registers.
void on_mutex_acquire(ompt_mutex_t kind, unsigned /*hint*/, unsigned /*impl*/, ompt_wait_id_t wait_id,
                      const void* codeptr) {
  if (t_light_depth) return;
  if (is_simple_lock(kind)) {
    if (simple_lock_skipped(t_locks, g_sampling, reinterpret_cast<uint64_t>(codeptr))) [[likely]]
      return;
  } else if (lock_operation_skipped(t_locks, g_sampling, reinterpret_cast<uint64_t>(codeptr))) {
    return;
  }
  mutex_acquire_sampled(kind, wait_id, codeptr);
}

void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void* codeptr) {
  if (t_light_depth) return;
  const uint32_t weight =
      is_simple_lock(kind) ? simple_lock_acquired_weight(t_locks, wait_id) : lock_acquired_weight(t_locks);
  if (weight) emit_mutex(EventKind::MutexAcquired, kind, wait_id, codeptr, weight, sampling_slot());
}

void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void* codeptr) {
  if (t_light_depth) return;
  if (is_simple_lock(kind) ? !simple_lock_release_recorded(t_locks, wait_id) : !lock_release_recorded(t_locks)) return;
  emit_mutex(EventKind::MutexReleased, kind, wait_id, codeptr);
}

// A nest lock taken again by its owner (begin) completes that acquire; its release (end) ends it.
void on_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id, const void* codeptr) {
  if (t_light_depth) return;
  if (endpoint == ompt_scope_begin) {
    if (const uint32_t weight = lock_acquired_weight(t_locks))
      emit_mutex(EventKind::NestLockNext, endpoint, wait_id, codeptr, weight, sampling_slot());
  } else if (lock_release_recorded(t_locks)) {
    emit_mutex(EventKind::NestLockNext, endpoint, wait_id, codeptr);
  }
}

// The recording halves of the task callbacks stay out of line, so that the light paths (most
// tasks of a task-heavy program) are leaf functions that save no registers.
[[gnu::noinline]] void record_task_create(ompt_data_t* encountering_task, ompt_data_t* new_task, int flags,
                                          int /*has_dependences*/, const void* codeptr, uint32_t weight,
                                          uint64_t level_bits) {
  new_task->value = next_object_id(t_log) | level_bits;
  emit(EventKind::TaskCreate, codeptr, id32(new_task), id32(encountering_task), static_cast<uint32_t>(flags), 0,
       static_cast<uint8_t>(weight > 255 ? 255 : weight));
}

// `next_explicit`: the task switched to is a recorded explicit one, whose body may be read.
[[gnu::noinline]] void record_task_switch(uint32_t prior, ompt_task_status_t status, uint32_t next,
                                          bool next_explicit) {
  read_body_ends(prior);
  emit(EventKind::TaskSchedule, nullptr, prior, next, 0, 0, static_cast<uint8_t>(status));
  if (next_explicit) read_body_starts(next);
}

[[gnu::noinline]] void create_task(ompt_data_t* encountering_task, ompt_data_t* new_task, int flags,
                                   int has_dependences, const void* codeptr, uint32_t level) {
  if (!t_light_depth) {
    if (t_tasks.running_light) ++t_tasks.batch_nested;  // a light task's child
    if (!g_paused.load(std::memory_order_relaxed)) count_task_level(level);
  }
  const uint64_t level_bits = uint64_t{level} << kLevelShift;
  const uint32_t weight = dark() ? 0 : task_creation_weight(t_tasks, g_sampling, reinterpret_cast<uint64_t>(codeptr));
  if (weight == 0) {
    new_task->value = kLightBit | level_bits;  // needs no id: nothing will name it
    return;
  }
  record_task_create(encountering_task, new_task, flags, has_dependences, codeptr, weight, level_bits);
}

// The light creation of a site in its home slot stays here, in a leaf that saves no register;
// everything else is a tail call.
void on_task_create(ompt_data_t* encountering_task, const ompt_frame_t*, ompt_data_t* new_task,
                    int flags, int has_dependences, const void* codeptr) {
  const uint32_t level = child_task_level(level_of(encountering_task));
  if (!dark() && g_sampling.enabled &&
      light_creation_at_home(t_tasks, task_site_key(reinterpret_cast<uint64_t>(codeptr)))) [[likely]] {
    new_task->value = kLightBit | (uint64_t{level} << kLevelShift);
    count_task_level(level);
    return;
  }
  create_task(encountering_task, new_task, flags, has_dependences, codeptr, level);
}

// A light task runs on this thread now. Counted at its first start, not when it resumes (after
// a task it waited for, or on another thread if it is untied); the timed one goes on with its
// own time.
inline void light_task_runs(ompt_data_t* next) {
  t_tasks.running_light = true;
  if (next->value & kStartedBit) {
    if (timing_light(next)) [[unlikely]] resume_light_timing();
    return;
  }
  next->value |= kStartedBit;
  if (!t_light_depth) light_task_starts(next);
}

// The timed light task at a switch: it ended (its body done or detached: a sample; cancelled:
// none), or was switched away from (its time stops). A switch into an implicit task leaves no
// explicit task on this thread's stack: one still timed moved to another thread (an untied
// task's next part) and is no sample.
[[gnu::noinline]] void light_timing_at_switch(ompt_data_t* prior, ompt_task_status_t status, ompt_data_t* next) {
  if (prior == t_tasks.light_timed) {
    if (status == ompt_task_complete || status == ompt_task_detach) return end_light_timing(true);
    if (status == ompt_task_cancel) return end_light_timing(false);
    pause_light_timing();
  }
  if (is_implicit(next)) end_light_timing(false);
}
inline void light_timing_switch(ompt_data_t* prior, ompt_task_status_t status, ompt_data_t* next) {
  if (t_tasks.light_timed) [[unlikely]] light_timing_at_switch(prior, status, next);
}

// A switch is recorded when a recorded explicit task is on either side of it, or no light task
// is; the start of a light task is only counted (no timestamp of its own), its end leaves nothing.
[[gnu::noinline]] void switch_tasks(ompt_data_t* prior, ompt_task_status_t status, ompt_data_t* next) {
  const bool prior_light = is_light_task(prior), next_light = is_light_task(next);
  // A detached light task fulfilled later: the fulfilling thread switches nothing.
  if (prior_light && status == ompt_task_late_fulfill) return;
  light_timing_switch(prior, status, next);
  if (!prior_light && !next_light) return record_task_switch(id32(prior), status, id32(next), !is_implicit(next));
  if (next_light) {
    if (!prior_light && !is_implicit(prior))  // the recorded task's fragment ends here
      record_task_switch(id32(prior), status, 0, false);
    light_task_runs(next);
  } else {
    t_tasks.running_light = false;
    if (!is_implicit(next)) record_task_switch(0, status, id32(next), true);
  }
}

// The two switches of most tasks in a task-heavy program stay here, in a leaf that saves no
// register: a light task starts from an implicit task, and ends back in one. The rest of
// switch_tasks is a tail call.
void on_task_schedule(ompt_data_t* prior, ompt_task_status_t status, ompt_data_t* next) {
  if (is_implicit(prior) && is_light_task(next)) [[likely]] return light_task_runs(next);
  if (is_light_task(prior) && is_implicit(next) && status != ompt_task_late_fulfill) [[likely]] {
    t_tasks.running_light = false;
    return light_timing_switch(prior, status, next);
  }
  switch_tasks(prior, status, next);
}

// A recorded task's depend clause (fired at its creation, after task_create, on the creating
// thread): up to two items per record, all under the callback's one timestamp. A light task's
// clause leaves nothing, as the task itself (docs/tasks.md, "Dependences").
[[gnu::noinline]] void record_dependences(uint32_t task, const ompt_dependence_t* deps, int ndeps) {
  if (t_tasks.batch_tasks) [[unlikely]] write_light_batch();
  DependenceWriter out(t_log, g_config, read_ticks(g_clock), task);
  for (int i = 0; i < ndeps; ++i)
    out.add(reinterpret_cast<uint64_t>(deps[i].variable.ptr), static_cast<uint8_t>(deps[i].dependence_type));
  out.finish();
}

void on_dependences(ompt_data_t* task, const ompt_dependence_t* deps, int ndeps) {
  // libomp fires it for `taskwait depend` and undeferred tasks too, naming the encountering task:
  // an implicit one is skipped here, an explicit one's records do not follow its creation and the
  // analysis leaves them out.
  if (ndeps <= 0 || deps == nullptr || dark() || task == nullptr || (task->value & (kLightBit | kImplicitBit))) return;
  record_dependences(id32(task), deps, ndeps);
}

// The runtime's own edge between two recorded tasks (a light one has no id to name). The sink is
// the task this thread is creating; the predecessor may be starting on another thread, which
// marks a light task's data as started then: its word is read once, atomically.
void on_task_dependence(ompt_data_t* src, ompt_data_t* sink) {
  if (!src || !sink || (sink->value & (kLightBit | kImplicitBit)) || id32(sink) == 0) return;
  const uint64_t source = __atomic_load_n(&src->value, __ATOMIC_RELAXED);
  if ((source & (kLightBit | kImplicitBit)) || static_cast<uint32_t>(source) == 0) return;
  emit(EventKind::TaskDependence, nullptr, static_cast<uint32_t>(source), id32(sink));
}

// omp_control_tool: the program leaves a phase out (docs/sampling.md, "Leaving a phase out").
int on_control_tool(uint64_t command, uint64_t, void*, const void*) { return control_tool(command); }

void on_masked(ompt_scope_endpoint_t endpoint, ompt_data_t* parallel, ompt_data_t* task,
               const void* codeptr) {
  emit(endpoint == ompt_scope_begin ? EventKind::MaskedBegin : EventKind::MaskedEnd, codeptr,
       id32(parallel), id32(task));
}

struct CallbackEntry {
  ompt_callbacks_t event;
  const char* name;
  ompt_callback_t function;
};

#define OMPSCOPE_CB(event, fn) {ompt_callback_##event, #event, reinterpret_cast<ompt_callback_t>(&fn)}
// Only the callbacks whose records an analysis reads (src/common/event_record.h): the wait
// inside a barrier (sync_region_wait) doubled the records of every barrier and was read by
// nothing; lock init/destroy and dispatch (never delivered by libomp 14) neither.
const CallbackEntry kCallbacks[] = {
    OMPSCOPE_CB(thread_begin, on_thread_begin),
    OMPSCOPE_CB(thread_end, on_thread_end),
    OMPSCOPE_CB(parallel_begin, on_parallel_begin),
    OMPSCOPE_CB(parallel_end, on_parallel_end),
    OMPSCOPE_CB(implicit_task, on_implicit_task),
    OMPSCOPE_CB(work, on_work),
    OMPSCOPE_CB(sync_region, on_sync_region),
    OMPSCOPE_CB(mutex_acquire, on_mutex_acquire),
    OMPSCOPE_CB(mutex_acquired, on_mutex_acquired),
    OMPSCOPE_CB(mutex_released, on_mutex_released),
    OMPSCOPE_CB(nest_lock, on_nest_lock),
    OMPSCOPE_CB(task_create, on_task_create),
    OMPSCOPE_CB(task_schedule, on_task_schedule),
    OMPSCOPE_CB(masked, on_masked),
    OMPSCOPE_CB(dependences, on_dependences),
    OMPSCOPE_CB(task_dependence, on_task_dependence),
    OMPSCOPE_CB(control_tool, on_control_tool),
};
#undef OMPSCOPE_CB



int initialize(ompt_function_lookup_t lookup, int, ompt_data_t*) {
  auto set_callback = reinterpret_cast<ompt_set_callback_t>(lookup("ompt_set_callback"));
  if (!set_callback) {
    meta_line("error ompt_set_callback missing");
    return 0;
  }
  for (const CallbackEntry& cb : kCallbacks) {
    // The result says whether the runtime will ever call it.
    meta_line("callback %s %d", cb.name, static_cast<int>(set_callback(cb.event, cb.function)));
  }
  module_text_range(reinterpret_cast<const void*>(lookup), &g_runtime_lo, &g_runtime_hi);
  meta_line("runtime_text %lx %lx", static_cast<unsigned long>(g_runtime_lo), static_cast<unsigned long>(g_runtime_hi));
  arm_session();
  meta_line("initialized 1");
  return 1;
}

void finalize(ompt_data_t*) { close_session(); }

ompt_start_tool_result_t g_start_result = {&initialize, &finalize, {0}};

// exit() from a worker thread, or while a region runs, may end the process without finalize.
__attribute__((destructor)) void flush_at_exit() { flush_session_at_exit(); }

// What ompt_start_tool was told, for meta.txt's runtime lines.
unsigned g_omp_version = 0;
const char* g_runtime_version = nullptr;
void write_runtime_lines() {
  meta_line("omp_version %u", g_omp_version);
  meta_line("runtime %s", g_runtime_version ? g_runtime_version : "unknown");
}

}  // namespace
}  // namespace ompscope::capture

using namespace ompscope::capture;

// The recording entry points of libompscope_mpi.so (docs/mpi.md): the MPI call's entry time, or
// 0 while the tool is not recording; the call's record, in this thread's log, when it returns.
extern "C" __attribute__((visibility("default"))) uint64_t ompscope_mpi_enter() {
  return recording() ? ompscope::read_ticks(g_clock) : 0;
}

extern "C" __attribute__((visibility("default"))) void ompscope_mpi_leave(uint64_t entered, unsigned call) {
  if (entered == 0) return;  // nothing is recorded inside sampled-out instances (record)
  record(ompscope::Event{0, entered, 0, 0, 0, 0, ompscope::EventKind::MpiCall, static_cast<uint8_t>(call)});
}

extern "C" __attribute__((visibility("default"))) ompt_start_tool_result_t* ompt_start_tool(
    unsigned int omp_version, const char* runtime_version) {
  g_omp_version = omp_version;
  g_runtime_version = runtime_version;
  if (!open_session(write_runtime_lines)) return nullptr;  // disabled: lets another tool load
  return &g_start_result;
}
