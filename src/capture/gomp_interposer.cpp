// libompscope_gomp.so: the capture path for programs on GNU libgomp, which has no OMPT. Loaded
// with LD_PRELOAD, it defines the libgomp entry points GCC emits, records what the OMPT tool
// would (same records, same per-thread logs, writer, sampling and crash flush: the capture core)
// and forwards each call to libgomp's own definition (dlsym(RTLD_NEXT)). What each entry point
// records, and what no entry point can show (static loops GCC computes inline), is in
// docs/libgomp.md. No locks, no allocation on the hot path: a wrapped outlined function or task
// carries its extra state on the caller's stack.
#include <dlfcn.h>
#include <link.h>
#include <omp-tools.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "capture/adaptive_sampling.h"
#include "capture/recorder.h"
#include "capture/dependence_records.h"
#include "capture/fatal_signal_flush.h"
#include "capture/lock_records.h"
#include "capture/run_meta.h"
#include "capture/serial_usage.h"
#include "capture/thread_log.h"
#include "capture/thread_usage.h"
#include "common/clock.h"
#include "common/event_record.h"

#define OMPSCOPE_EXPORT extern "C" __attribute__((visibility("default")))

namespace ompscope::capture {
namespace {

using OutlinedFn = void (*)(void*);
using CopyFn = void (*)(void*, void*);

// libgomp's definitions, resolved once at load (before main).
struct Real {
  void (*parallel)(OutlinedFn, void*, unsigned, unsigned);
  unsigned (*parallel_reductions)(OutlinedFn, void*, unsigned, unsigned);
  void (*parallel_loop_chunked[5])(OutlinedFn, void*, unsigned, long, long, long, long, unsigned);
  void (*parallel_loop_runtime[3])(OutlinedFn, void*, unsigned, long, long, long, unsigned);
  void (*parallel_sections)(OutlinedFn, void*, unsigned, unsigned, unsigned);
  void (*barrier)();
  void (*loop_end)();
  void (*loop_end_nowait)();
  void (*sections_end)();
  void (*sections_end_nowait)();
  void (*critical_start)();
  void (*critical_end)();
  void (*critical_name_start)(void**);
  void (*critical_name_end)(void**);
  void (*atomic_start)();
  void (*atomic_end)();
  void (*ordered_start)();
  void (*ordered_end)();
  void (*task)(OutlinedFn, void*, CopyFn, long, long, bool, unsigned, void**, int, void*);
  void (*taskwait)();
  void (*taskgroup_end)();
  void (*set_lock)(void*);
  void (*unset_lock)(void*);
  void (*set_nest_lock)(void*);
  void (*unset_nest_lock)(void*);
  void (*set_lock_fortran)(void*);
  void (*unset_lock_fortran)(void*);
  int (*get_thread_num)();
  int (*get_num_threads)();
  int (*get_max_threads)();
};
Real g_real;

// The combined parallel loops, in the order of Real's arrays.
constexpr const char* kParallelLoopChunked[] = {
    "GOMP_parallel_loop_static", "GOMP_parallel_loop_dynamic", "GOMP_parallel_loop_guided",
    "GOMP_parallel_loop_nonmonotonic_dynamic", "GOMP_parallel_loop_nonmonotonic_guided"};
constexpr const char* kParallelLoopRuntime[] = {"GOMP_parallel_loop_runtime", "GOMP_parallel_loop_nonmonotonic_runtime",
                                                "GOMP_parallel_loop_maybe_nonmonotonic_runtime"};

// The session and each thread's recording state are the recorder's (recorder.h), as the OMPT
// tool's are; g_active: this process is recorded (libgomp's, not a libomp one's, and not disabled).
bool g_active = false;
// The next tool library's MPI recording entry points (libompscope.so's, when it is preloaded too).
uint64_t (*g_next_mpi_enter)() = nullptr;
void (*g_next_mpi_leave)(uint64_t, unsigned) = nullptr;
thread_local bool t_usage __attribute__((tls_model("initial-exec")));  // the part this thread runs reads it

// What OMPT would give the callbacks: the thread's innermost parallel region and running task.
struct ThreadState {
  bool begun;
  bool join_pending;       // a worker left its body: it waits in the join barrier until its next record
  uint32_t parallel;
  uint32_t task;
  uint32_t pending_parallel, pending_task, pending_team, pending_index;
  uint64_t pending_codeptr;
  uint32_t task_level;  // the running task's level in the task tree (0: an implicit task; TaskHeader::level)
  uint32_t slot;        // in g_threads, plus one (0: none)
};
thread_local ThreadState t_state __attribute__((tls_model("initial-exec")));

// Each worker's state, counts and log, for the session's end: a worker that ran tasks in its
// last join barrier wrote nothing since (its join closes with its next team, close_pending_join),
// and gcc runs a region's tasks there where a `single`'s barrier would be the region's last
// (fib_tasks_gcc: every task the worker ran). finish_capture writes the counts of the tasks
// those created into its log for it, where it waits idle in libgomp's pool. Cleared as a thread
// exits.
struct ThreadSlot {
  std::atomic<ThreadState*> state;
  TaskLevelCounts* levels;
  ThreadLog* log;
};
constexpr uint32_t kThreadSlots = 4096;
ThreadSlot g_threads[kThreadSlots];
std::atomic<uint32_t> g_thread_slots{0};


// libgomp has no thread-end event: a key's destructor runs when a thread exits (the threads of
// a nested team do when it ends), while its TLS is still there.
pthread_key_t g_thread_exit_key;
void end_thread(void*);

[[gnu::noinline]] void begin_thread(bool initial) {
  t_state.begun = true;
  open_task_levels();
  if (!initial) {
    pthread_setspecific(g_thread_exit_key, &t_state);
    if (const uint32_t slot = g_thread_slots.fetch_add(1, std::memory_order_relaxed); slot < kThreadSlots) {
      g_threads[slot].levels = t_task_levels;
      g_threads[slot].log = &t_log;
      g_threads[slot].state.store(&t_state, std::memory_order_release);
      t_state.slot = slot + 1;
    }
  }
  append_event(t_log, g_config, g_clock,
               Event{0, 0, 0, 0, 0, 0, EventKind::ThreadBegin,
                     static_cast<uint8_t>(initial ? ompt_thread_initial : ompt_thread_worker)});
  begin_thread_sampling();
}

inline void emit(EventKind kind, uint64_t codeptr, uint32_t id, uint32_t id2 = 0, uint32_t arg = 0,
                 uint16_t arg2 = 0, uint8_t detail = 0) {
  if (dark()) return;
  if (!t_state.begun) [[unlikely]] begin_thread(false);
  record(Event{0, codeptr, id, id2, arg, arg2, kind, detail});
}

// Out of line: the lock wrappers' path for an unrecorded operation then saves no registers.
[[gnu::noinline]] void emit_mutex(EventKind kind, ompt_mutex_t mutex_kind, const void* wait_id, uint64_t codeptr,
                                  uint32_t arg = 0, uint16_t arg2 = 0) {
  if (t_light_depth) return;
  if (!t_state.begun) [[unlikely]] begin_thread(false);
  append_mutex_event(t_log, g_config, g_clock, kind, static_cast<uint8_t>(mutex_kind),
                     reinterpret_cast<uint64_t>(wait_id), codeptr, arg, arg2);
}


// A light region instance leaves nothing from inside it (adaptive_sampling.h), but omp_set_lock
// counts its operations without asking (set_lock_counted): when the outermost light instance
// ends, what its slots counted is dropped (they held nothing unrecorded when it began:
// flush_lock_counts runs first).
[[gnu::noinline]] void discard_light_lock_ops() {
  for (uint32_t i = 0; i < LockSampling::kSlots; ++i) t_locks.counted[i] = t_locks.ops[i];
}

// The outlined body runs through this, never tail-called: an entry point the body tail-calls
// (gcc -O2 ends a region whose last statement is `#pragma omp barrier` with `jmp GOMP_barrier`)
// then gets a return address in here, which caller() maps to the body itself: before, such a
// barrier was placed at this file's line (docs/source-locations.md).
[[gnu::noinline]] void call_body(void (*fn)(void*), void* data) {
  fn(data);
  asm volatile("" ::: "memory");  // keeps the call a call
}
constexpr uint64_t kCallBodyBytes = 256;  // call_body's code is shorter, in every build
thread_local uint64_t t_body __attribute__((tls_model("initial-exec")));  // the body the thread runs; 0: none

// The user's call site of an entry point: its return address, or, where the body tail-called it,
// the body's entry (+ 1: symbolised as a call site, it is the body's first line, the directive's).
inline uint64_t caller(void* return_address) {
  const uint64_t a = reinterpret_cast<uint64_t>(return_address);
  if (a - reinterpret_cast<uint64_t>(&call_body) < kCallBodyBytes && t_body) return t_body + 1;
  return a;
}
inline uint16_t clamp16(unsigned v) { return v > 0xffff ? 0xffff : static_cast<uint16_t>(v); }

// ---- Parallel regions -------------------------------------------------------------------------

// Lives on the forking thread's stack for the whole region: libgomp returns from GOMP_parallel
// only after every thread has left the body.
struct Region {
  OutlinedFn fn;
  void* data;
  uint64_t codeptr;
  uint32_t id;
  uint32_t light;
  uint32_t usage;  // its threads read the kernel's accounting (thread_usage.h), as the OMPT tool's do
};

// A worker's join barrier ends when the master leaves GOMP_parallel; the worker learns nothing
// of it, so its visit and implicit task close at its next record (its next team), and the
// analysis clamps both to the region's end (as it does for OMPT's late implicit-task ends).
[[gnu::noinline]] void close_pending_join() {
  t_state.join_pending = false;
  flush_task_levels();  // the tasks it ran in the join barrier created them
  emit(EventKind::SyncEnd, t_state.pending_codeptr, t_state.pending_parallel, t_state.pending_task, 0, 0,
       ompt_sync_region_barrier_implicit_parallel);
  emit(EventKind::ImplicitTaskEnd, 0, t_state.pending_parallel, t_state.pending_task, t_state.pending_team,
       clamp16(t_state.pending_index));
}

void end_thread(void*) {
  if (t_state.slot) g_threads[t_state.slot - 1].state.store(nullptr, std::memory_order_release);
  end_thread_sampling(t_log, g_config);
  flush_lock_counts();
  flush_task_levels();
  if (t_state.join_pending) close_pending_join();
  close_task_levels();
  close_thread_counters();
  close_thread_log(t_log, g_config);  // no ThreadEnd record: no analysis reads one
}

// Every thread of the team runs the outlined function through this: its implicit task begins
// here, and its arrival at the join barrier is the body's return.
void region_body(void* arg) {
  Region* r = static_cast<Region*>(arg);
  if (t_state.join_pending) close_pending_join();
  flush_lock_counts();
  flush_task_levels();
  const uint32_t saved_level = t_state.task_level;
  t_state.task_level = 0;
  if (r->light) {
    ++t_light_depth;
    call_body(r->fn, r->data);
    if (--t_light_depth == 0) discard_light_lock_ops();
    t_state.task_level = saved_level;
    return;
  }
  const uint32_t index = static_cast<uint32_t>(g_real.get_thread_num());
  const uint32_t team = static_cast<uint32_t>(g_real.get_num_threads());
  const uint32_t saved_parallel = t_state.parallel, saved_task = t_state.task;
  const uint32_t task = next_object_id(t_log);
  t_state.parallel = r->id;
  t_state.task = task;
  emit(EventKind::ImplicitTaskBegin, 0, r->id, task, 0, clamp16(index), ompt_task_implicit);
  const bool saved_usage = t_usage;
  t_usage = r->usage && !dark();
  if (t_usage) {
    t_usage_stretches.start(monotonic_ns());
    record_usage(0);
  }
  const uint64_t saved_body = t_body;
  t_body = r->codeptr;
  call_body(r->fn, r->data);
  t_body = saved_body;
  flush_lock_counts();
  flush_task_levels();
  emit(EventKind::SyncBegin, r->codeptr, r->id, task, 0, 0, ompt_sync_region_barrier_implicit_parallel);
  if (t_usage && t_usage_stretches.end()) record_usage(1);  // inside the visit: its cost is waiting
  t_usage = saved_usage;
  t_state.parallel = saved_parallel;
  t_state.task = saved_task;
  t_state.task_level = saved_level;
  if (index != 0) {
    t_state.join_pending = true;
    t_state.pending_parallel = r->id;
    t_state.pending_task = task;
    t_state.pending_team = team;
    t_state.pending_index = index;
    t_state.pending_codeptr = r->codeptr;
  }
}

// Before the fork, on the encountering thread: the region's id, whether it is recorded in full.
inline void open_region(Region& r, unsigned num_threads) {
  if (t_serial.depth++ == 0) {
    drain_samples(t_log, g_config);
    record_serial_usage(t_serial, t_log, g_config, g_clock, 1, false);
  }
  r.id = next_object_id(t_log);
  if (dark()) {
    r.light = 1;
    return;
  }
  r.light = record_region_instance(g_sampling, r.codeptr) ? 0 : 1;
  r.usage = !r.light && usage_instance(t_usage_instances);
  const unsigned requested = num_threads ? num_threads : static_cast<unsigned>(g_real.get_max_threads());
  emit(EventKind::ParallelBegin, r.codeptr, r.id, 0, requested, 0, static_cast<uint8_t>(r.light));
}

// After the join, on the master: its join-barrier visit ends (departure), then its implicit task
// and the region.
inline void close_region(const Region& r) {
  flush_task_levels();  // the tasks the master ran in the join barrier created them
  if (!r.light && !dark()) {
    // The master's implicit task id is not kept: the analysis matches the end to its open frame.
    emit(EventKind::SyncEnd, r.codeptr, r.id, 0, 0, 0, ompt_sync_region_barrier_implicit_parallel);
    emit(EventKind::ImplicitTaskEnd, 0, r.id, 0, 0, 0);
  }
  emit(EventKind::ParallelEnd, r.codeptr, r.id, t_state.task);
  if (t_serial.depth && --t_serial.depth == 0) {
    drain_samples(t_log, g_config);
    record_serial_usage(t_serial, t_log, g_config, g_clock, 0, false);
  }
}

// ---- Explicit tasks ---------------------------------------------------------------------------

// Put in front of the task's arguments, so that libgomp copies it with them into the task.
struct TaskHeader {
  OutlinedFn fn;
  CopyFn cpyfn;     // the program's copy function, or null
  void* source;     // with cpyfn: the program's arguments to copy from
  uint32_t id;      // 0: a light task (sampled out)
  uint32_t offset;  // from the header to the program's arguments
  // Its level in the task tree (recorder.h, count_task_level); kUncountedLevel: created where no
  // task is counted (a light region instance, a pause), as are its own children.
  uint32_t level;
};
constexpr uint32_t kUncountedLevel = ~0u;

// Nested task bodies running on this thread: the timed light task's depth is where it runs its
// own code (recorder.h, kLightTimedEvery).
thread_local uint32_t t_task_depth __attribute__((tls_model("initial-exec")));

void run_task(const TaskHeader* h, void* data) {
  if (h->id == 0) {
    const bool was_light = t_tasks.running_light;
    if (!t_light_depth) light_task_starts(h, t_task_depth);
    t_tasks.running_light = true;
    h->fn(data);
    t_tasks.running_light = was_light;
    if (timing_light(h)) [[unlikely]] end_light_timing(true);
    return;
  }
  const uint32_t id = h->id, prior = t_state.task;
  read_body_ends(prior);  // a task run inside a recorded one (its taskwait) ends that one's fragment
  emit(EventKind::TaskSchedule, 0, prior, id, 0, 0, ompt_task_switch);
  read_body_starts(id);
  t_state.task = id;
  h->fn(data);
  t_state.task = prior;
  read_body_ends(id);
  emit(EventKind::TaskSchedule, 0, id, prior, 0, 0, ompt_task_complete);
}

// libgomp runs a task at once (undeferred, or its creator's queue full) or in a wait, always
// nested in the thread's call stack: one run inside the timed light task is no time of its own.
void task_body(void* arg) {
  const TaskHeader* h = static_cast<const TaskHeader*>(arg);
  if (t_tasks.light_timed) [[unlikely]] pause_light_timing();
  ++t_task_depth;
  const uint32_t saved_level = t_state.task_level;
  t_state.task_level = h->level;
  run_task(h, static_cast<char*>(arg) + h->offset);
  t_state.task_level = saved_level;
  --t_task_depth;
  if (t_tasks.light_timed && t_tasks.light_timed_depth == t_task_depth) [[unlikely]] resume_light_timing();
}

void task_copy(void* to, void* from) {
  const TaskHeader* h = static_cast<const TaskHeader*>(from);
  memcpy(to, h, sizeof *h);
  h->cpyfn(static_cast<char*>(to) + h->offset, h->source);
}

[[gnu::noinline]] uint32_t record_task_create(uint64_t codeptr, bool undeferred, uint32_t weight) {
  const uint32_t id = next_object_id(t_log);
  const uint32_t flags = ompt_task_explicit | (undeferred ? ompt_task_undeferred : 0);
  emit(EventKind::TaskCreate, codeptr, id, t_state.task, flags, 0, static_cast<uint8_t>(weight > 255 ? 255 : weight));
  return id;
}

// A recorded task's depend clause, from GOMP_task's depend array (GOMP_TASK_FLAG_DEPEND). The
// first form: depend[0] items, the first depend[1] of them out or inout, the rest in, addresses
// from depend[2]. The OpenMP 5 form (depend[0] == 0): depend[1] items, of which depend[2] out or
// inout, depend[3] mutexinoutset, depend[4] in, addresses from depend[5] in that order; the rest
// are depend objects, each the address of {address, kind} (GOMP_DEPEND_IN 1, OUT 2, INOUT 3,
// MUTEXINOUTSET 4, INOUTSET 5). libgomp treats out as inout: recorded as inout.
constexpr unsigned kGompTaskFlagDepend = 8;
[[gnu::noinline]] void record_gomp_depends(uint32_t task, void** depend) {
  if (dark()) return;
  if (t_tasks.batch_tasks) [[unlikely]] write_light_batch();
  DependenceWriter out(t_log, g_config, read_ticks(g_clock), task);
  const auto address = [](void* p) { return reinterpret_cast<uint64_t>(p); };
  const uintptr_t first = reinterpret_cast<uintptr_t>(depend[0]);
  if (first != 0) {
    const uintptr_t outs = reinterpret_cast<uintptr_t>(depend[1]);
    for (uintptr_t i = 0; i < first; ++i)
      out.add(address(depend[2 + i]), i < outs ? ompt_dependence_type_inout : ompt_dependence_type_in);
  } else {
    const uintptr_t n = reinterpret_cast<uintptr_t>(depend[1]), outs = reinterpret_cast<uintptr_t>(depend[2]),
                    mutex = reinterpret_cast<uintptr_t>(depend[3]), ins = reinterpret_cast<uintptr_t>(depend[4]);
    const uintptr_t normal = outs + mutex + ins;
    for (uintptr_t i = 0; i < n && i < normal; ++i)
      out.add(address(depend[5 + i]), i < outs            ? ompt_dependence_type_inout
                                      : i < outs + mutex ? ompt_dependence_type_mutexinoutset
                                                         : ompt_dependence_type_in);
    for (uintptr_t i = normal; i < n; ++i) {
      void* const* object = static_cast<void* const*>(depend[5 + i]);
      const uintptr_t kind = reinterpret_cast<uintptr_t>(object[1]);
      const uint8_t type = kind == 1   ? ompt_dependence_type_in
                           : kind == 4 ? ompt_dependence_type_mutexinoutset
                           : kind == 5 ? ompt_dependence_type_inoutset
                                       : ompt_dependence_type_inout;
      out.add(address(object[0]), type);
    }
  }
  out.finish();
}

// ---- Start and end ----------------------------------------------------------------------------

template <class T>
void resolve(T& slot, const char* name) {
  slot = reinterpret_cast<T>(dlsym(RTLD_NEXT, name));
}

void resolve_all() {
  resolve(g_real.parallel, "GOMP_parallel");
  resolve(g_real.parallel_reductions, "GOMP_parallel_reductions");
  for (int i = 0; i < 5; ++i) resolve(g_real.parallel_loop_chunked[i], kParallelLoopChunked[i]);
  for (int i = 0; i < 3; ++i) resolve(g_real.parallel_loop_runtime[i], kParallelLoopRuntime[i]);
  resolve(g_real.parallel_sections, "GOMP_parallel_sections");
  resolve(g_real.barrier, "GOMP_barrier");
  resolve(g_real.loop_end, "GOMP_loop_end");
  resolve(g_real.loop_end_nowait, "GOMP_loop_end_nowait");
  resolve(g_real.sections_end, "GOMP_sections_end");
  resolve(g_real.sections_end_nowait, "GOMP_sections_end_nowait");
  resolve(g_real.critical_start, "GOMP_critical_start");
  resolve(g_real.critical_end, "GOMP_critical_end");
  resolve(g_real.critical_name_start, "GOMP_critical_name_start");
  resolve(g_real.critical_name_end, "GOMP_critical_name_end");
  resolve(g_real.atomic_start, "GOMP_atomic_start");
  resolve(g_real.atomic_end, "GOMP_atomic_end");
  resolve(g_real.ordered_start, "GOMP_ordered_start");
  resolve(g_real.ordered_end, "GOMP_ordered_end");
  resolve(g_real.task, "GOMP_task");
  resolve(g_real.taskwait, "GOMP_taskwait");
  resolve(g_real.taskgroup_end, "GOMP_taskgroup_end");
  resolve(g_real.set_lock, "omp_set_lock");
  resolve(g_real.unset_lock, "omp_unset_lock");
  resolve(g_real.set_nest_lock, "omp_set_nest_lock");
  resolve(g_real.unset_nest_lock, "omp_unset_nest_lock");
  resolve(g_real.set_lock_fortran, "omp_set_lock_");
  resolve(g_real.unset_lock_fortran, "omp_unset_lock_");
  resolve(g_real.get_thread_num, "omp_get_thread_num");
  resolve(g_real.get_num_threads, "omp_get_num_threads");
  resolve(g_real.get_max_threads, "omp_get_max_threads");
}

// libgomp has no version string: the newest symbol version node it defines names its GCC release.
const char* libgomp_release() {
  struct Node {
    const char* version;
    const char* gcc;
  };
  constexpr Node kNodes[] = {{"GOMP_5.1.2", "14"}, {"GOMP_5.1.1", "13"}, {"GOMP_5.1", "12"},
                             {"GOMP_5.0.1", "11"}, {"GOMP_5.0", "9"},    {"GOMP_4.5", "6"}};
  for (const Node& n : kNodes) {
    dlerror();
    dlvsym(RTLD_NEXT, n.version, n.version);  // each node defines an absolute symbol of its name
    if (dlerror() == nullptr) return n.gcc;
  }
  return nullptr;
}

// The runtime library this process really runs on, from its mapped objects.
int find_runtime(dl_phdr_info* info, size_t, void* out) {
  const char* name = info->dlpi_name;
  const char* base = name ? strrchr(name, '/') : nullptr;
  base = base ? base + 1 : name;
  if (base && (strncmp(base, "libgomp.so", 10) == 0 || strncmp(base, "libomp.so", 9) == 0 ||
               strncmp(base, "libiomp5.so", 11) == 0)) {
    *static_cast<const char**>(out) = name;
    return 1;
  }
  return 0;
}

void write_runtime_lines() {
  const char* release = libgomp_release();
  if (release) meta_line("runtime GNU libgomp %s (interposed)", release);
  else meta_line("runtime GNU libgomp (interposed)");
  const char* runtime_path = nullptr;
  dl_iterate_phdr(find_runtime, &runtime_path);
  meta_line("runtime_library %s", runtime_path ? runtime_path : "unknown");
  meta_line("capture gomp");
}

__attribute__((constructor)) void start_capture() {
  resolve_all();
  resolve(g_next_mpi_enter, "ompscope_mpi_enter");
  resolve(g_next_mpi_leave, "ompscope_mpi_leave");
  if (!g_real.parallel || !g_real.get_thread_num) return;  // not a libgomp process: forward only
  // LLVM libomp exports the GOMP entry points too (its GOMP layer): a process on libomp, a
  // clang-built program's or one run with --runtime llvm, is observed through OMPT by
  // libompscope.so; here the interposer only forwards.
  if (dlsym(RTLD_DEFAULT, "__kmpc_fork_call")) return;
  if (!open_session(write_runtime_lines)) return;
  pthread_key_create(&g_thread_exit_key, end_thread);
  arm_session();
  g_active = true;
  // The initial thread and its initial task, as OMPT announces them.
  begin_thread(true);
  t_state.task = next_object_id(t_log);
  emit(EventKind::ImplicitTaskBegin, 0, next_object_id(t_log), t_state.task, 1, 0, ompt_task_initial);
  meta_line("initialized 1");
}

// After main returns or exit(): libgomp's threads are idle in their pool (or, after an exit from
// inside a region, still running: their logs are written as they are).
__attribute__((destructor)) void finish_capture() {
  if (!g_active) return;
  g_active = false;
  const uint32_t slots = std::min(g_thread_slots.load(std::memory_order_acquire), kThreadSlots);
  for (uint32_t i = 0; i < slots; ++i) {
    const ThreadState* worker = g_threads[i].state.load(std::memory_order_acquire);
    if (worker != nullptr && worker->join_pending && g_threads[i].levels != &g_uncounted_levels &&
        g_threads[i].levels->deepest)
      write_task_levels(*g_threads[i].levels, *g_threads[i].log);
  }
  close_session();
}

// Lock operations, sampled per thread as the OMPT tool samples them.
// Counts the acquire at `codeptr`: true if it is recorded (its acquired and release then are).
inline bool acquire_recorded(uint64_t codeptr) {
  return g_active && !t_light_depth && lock_operation_recorded(t_locks, g_sampling, codeptr);
}
inline bool release_recorded() { return g_active && !t_light_depth && lock_release_recorded(t_locks); }
inline void lock_acquire(ompt_mutex_t kind, const void* lock, uint64_t codeptr) {
  if (acquire_recorded(codeptr)) emit_mutex(EventKind::MutexAcquire, kind, lock, codeptr);
}
inline void lock_acquired(ompt_mutex_t kind, const void* lock, uint64_t codeptr) {
  if (!g_active || t_light_depth) return;
  if (const uint32_t weight = lock_acquired_weight(t_locks))
    emit_mutex(EventKind::MutexAcquired, kind, lock, codeptr, weight,
               g_sampling.enabled ? static_cast<uint16_t>(t_locks.slot + 1) : 0);  // the slot, for the analysis
}
inline void lock_released(ompt_mutex_t kind, const void* lock, uint64_t codeptr) {
  if (release_recorded()) emit_mutex(EventKind::MutexReleased, kind, lock, codeptr);
}

// omp_set_lock and omp_unset_lock (docs/locks.md, "Capture cost"). An operation that is not
// recorded (most of them, sampled) counts itself in its slot and goes on to libgomp's by a tail
// call, with no frame of the wrapper's own; its unset loads one word and stores nothing. The
// unset learns whether its set was recorded from the locks the thread holds with a recorded
// acquisition (LockSampling::held), not from the decision stack the other mutexes pop: a store
// before libgomp's atomic exchange or compare-and-swap waits with it for the store buffer to
// drain, and with the stack's push and pop libgomp's own lock functions took 15% more samples
// than bare.
// The set's whole test: its slot's count against the slot's next recorded operation. Nothing
// else is asked on this path, because every other case fails that test: before the tool starts
// and with sampling off the next recorded operation stays 0; inside a light region instance the
// operations are counted and discarded when it ends (discard_light_lock_ops); after the end,
// what is counted is never written.
inline bool set_lock_counted(uint64_t codeptr) {
  const uint32_t slot = lock_slot_of(codeptr);
  const uint32_t n = t_locks.ops[slot];
  if (n >= t_locks.next_recorded[slot]) return false;
  t_locks.ops[slot] = n + 1;
  return true;
}
[[gnu::noinline]] void set_lock_sampled(void (*set)(void*), void* lock, uint64_t codeptr) {
  if (!g_active) return set(lock);
  if (t_light_depth) {  // not recorded, but the schedule moves on as for any operation
    if (g_sampling.enabled) lock_operation_recorded_slow(t_locks, g_sampling, lock_slot_of(codeptr), codeptr);
    return set(lock);
  }
  const uint64_t id = reinterpret_cast<uint64_t>(lock);
  if (!simple_lock_acquire_recorded(t_locks, g_sampling, codeptr, id)) return set(lock);
  emit_mutex(EventKind::MutexAcquire, ompt_mutex_lock, lock, codeptr);
  set(lock);
  const uint32_t weight = simple_lock_acquired_weight(t_locks, id);
  emit_mutex(EventKind::MutexAcquired, ompt_mutex_lock, lock, codeptr, weight,
             g_sampling.enabled ? static_cast<uint16_t>(t_locks.slot + 1) : 0);  // the slot, for the analysis
}
[[gnu::noinline]] void unset_lock_sampled(void (*unset)(void*), void* lock, uint64_t codeptr) {
  const bool recorded = simple_lock_release_recorded(t_locks, reinterpret_cast<uint64_t>(lock));
  unset(lock);
  if (recorded) emit_mutex(EventKind::MutexReleased, ompt_mutex_lock, lock, codeptr);
}

// Barriers of a part that reads the kernel's accounting read it inside the visit, after the
// arrival and before the departure, as the OMPT tool does.
inline bool reads_usage_at(ompt_sync_region_t kind) {
  return t_usage && !dark() && kind != ompt_sync_region_taskwait && kind != ompt_sync_region_taskgroup;
}
inline void sync_begin(ompt_sync_region_t kind, uint64_t codeptr) {
  if (!g_active) return;
  emit(EventKind::SyncBegin, codeptr, t_state.parallel, t_state.task, 0, 0, kind);
  if (reads_usage_at(kind) && t_usage_stretches.end()) record_usage(1);
}
inline void sync_end(ompt_sync_region_t kind, uint64_t codeptr) {
  if (!g_active) return;
  if (reads_usage_at(kind) && t_usage_stretches.begin(monotonic_ns)) record_usage(0);
  emit(EventKind::SyncEnd, codeptr, t_state.parallel, t_state.task, 0, 0, kind);
}
inline void loop_end(uint64_t codeptr) {
  if (g_active) emit(EventKind::WorkEnd, codeptr, t_state.parallel, t_state.task, 0, 0, ompt_work_loop);
}

// The one unnamed critical section of the process.
char g_unnamed_critical;
// Ordered sections wait on their team's order, not on an object the program names.
char g_ordered;
char g_atomic;

// A region is named by its outlined function, not by the return address of the fork: GCC's line
// table gives the call the line before the directive and the return address the line after the
// construct, while the outlined function begins at the directive's line (docs/libgomp.md).
template <class Fork>
inline void run_region(OutlinedFn fn, void* data, unsigned num_threads, Fork fork) {
  if (!g_active) return fork(fn, data);
  Region r{fn, data, reinterpret_cast<uint64_t>(fn), 0, 0, 0};
  open_region(r, num_threads);
  fork(region_body, &r);
  close_region(r);
}

}  // namespace
}  // namespace ompscope::capture

using namespace ompscope::capture;

// ---- The entry points ---------------------------------------------------------------------------

// The recording entry points of libompscope_mpi.so (docs/mpi.md), as the OMPT tool defines them.
// Preloaded into every process (docs/safety.md, "Processes and signals"), the interposer comes first: in a
// process it does not record (libomp's, where libompscope.so records through OMPT) it passes both
// on to the next tool library's.
OMPSCOPE_EXPORT uint64_t ompscope_mpi_enter() {
  if (g_active) return read_ticks(g_clock);
  return g_next_mpi_enter ? g_next_mpi_enter() : 0;
}

OMPSCOPE_EXPORT void ompscope_mpi_leave(uint64_t entered, unsigned call) {
  if (entered == 0) return;
  if (!g_active) {
    if (g_next_mpi_leave) g_next_mpi_leave(entered, call);
    return;
  }
  emit(ompscope::EventKind::MpiCall, entered, 0, 0, 0, 0, static_cast<uint8_t>(call));
}

OMPSCOPE_EXPORT void GOMP_parallel(OutlinedFn fn, void* data, unsigned num_threads, unsigned flags) {
  run_region(fn, data, num_threads,
             [&](OutlinedFn f, void* d) { g_real.parallel(f, d, num_threads, flags); });
}

OMPSCOPE_EXPORT unsigned GOMP_parallel_reductions(OutlinedFn fn, void* data, unsigned num_threads, unsigned flags) {
  unsigned result = 0;
  run_region(fn, data, num_threads,
             [&](OutlinedFn f, void* d) { result = g_real.parallel_reductions(f, d, num_threads, flags); });
  return result;
}

#define OMPSCOPE_PARALLEL_LOOP(name, i)                                                                          \
  OMPSCOPE_EXPORT void name(OutlinedFn fn, void* data, unsigned num_threads, long start, long end, long incr,   \
                            long chunk, unsigned flags) {                                                       \
    run_region(fn, data, num_threads, [&](OutlinedFn f, void* d) {         \
      g_real.parallel_loop_chunked[i](f, d, num_threads, start, end, incr, chunk, flags);                       \
    });                                                                                                          \
  }
OMPSCOPE_PARALLEL_LOOP(GOMP_parallel_loop_static, 0)
OMPSCOPE_PARALLEL_LOOP(GOMP_parallel_loop_dynamic, 1)
OMPSCOPE_PARALLEL_LOOP(GOMP_parallel_loop_guided, 2)
OMPSCOPE_PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_dynamic, 3)
OMPSCOPE_PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_guided, 4)
#undef OMPSCOPE_PARALLEL_LOOP

#define OMPSCOPE_PARALLEL_LOOP_RUNTIME(name, i)                                                                  \
  OMPSCOPE_EXPORT void name(OutlinedFn fn, void* data, unsigned num_threads, long start, long end, long incr,   \
                            unsigned flags) {                                                                    \
    run_region(fn, data, num_threads, [&](OutlinedFn f, void* d) {         \
      g_real.parallel_loop_runtime[i](f, d, num_threads, start, end, incr, flags);                              \
    });                                                                                                          \
  }
OMPSCOPE_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_runtime, 0)
OMPSCOPE_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_nonmonotonic_runtime, 1)
OMPSCOPE_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_maybe_nonmonotonic_runtime, 2)
#undef OMPSCOPE_PARALLEL_LOOP_RUNTIME

OMPSCOPE_EXPORT void GOMP_parallel_sections(OutlinedFn fn, void* data, unsigned num_threads, unsigned count,
                                            unsigned flags) {
  run_region(fn, data, num_threads,
             [&](OutlinedFn f, void* d) { g_real.parallel_sections(f, d, num_threads, count, flags); });
}

OMPSCOPE_EXPORT void GOMP_barrier() {
  const uint64_t at = caller(__builtin_return_address(0));
  sync_begin(ompt_sync_region_barrier_explicit, at);
  g_real.barrier();
  sync_end(ompt_sync_region_barrier_explicit, at);
}

// A worksharing loop's end (dynamic, guided, runtime schedules, and static ones GCC hands to the
// runtime), then its implicit barrier.
OMPSCOPE_EXPORT void GOMP_loop_end() {
  const uint64_t at = caller(__builtin_return_address(0));
  loop_end(at);
  sync_begin(ompt_sync_region_barrier_implicit_workshare, at);
  g_real.loop_end();
  sync_end(ompt_sync_region_barrier_implicit_workshare, at);
}

OMPSCOPE_EXPORT void GOMP_loop_end_nowait() {
  loop_end(caller(__builtin_return_address(0)));
  g_real.loop_end_nowait();
}

OMPSCOPE_EXPORT void GOMP_sections_end() {
  const uint64_t at = caller(__builtin_return_address(0));
  sync_begin(ompt_sync_region_barrier_implicit_workshare, at);
  g_real.sections_end();
  sync_end(ompt_sync_region_barrier_implicit_workshare, at);
}

OMPSCOPE_EXPORT void GOMP_critical_start() {
  const uint64_t at = caller(__builtin_return_address(0));
  lock_acquire(ompt_mutex_critical, &g_unnamed_critical, at);
  g_real.critical_start();
  lock_acquired(ompt_mutex_critical, &g_unnamed_critical, at);
}

OMPSCOPE_EXPORT void GOMP_critical_end() {
  g_real.critical_end();
  lock_released(ompt_mutex_critical, &g_unnamed_critical, caller(__builtin_return_address(0)));
}

OMPSCOPE_EXPORT void GOMP_critical_name_start(void** name) {
  const uint64_t at = caller(__builtin_return_address(0));
  lock_acquire(ompt_mutex_critical, name, at);
  g_real.critical_name_start(name);
  lock_acquired(ompt_mutex_critical, name, at);
}

OMPSCOPE_EXPORT void GOMP_critical_name_end(void** name) {
  g_real.critical_name_end(name);
  lock_released(ompt_mutex_critical, name, caller(__builtin_return_address(0)));
}

OMPSCOPE_EXPORT void GOMP_atomic_start() {
  const uint64_t at = caller(__builtin_return_address(0));
  lock_acquire(ompt_mutex_atomic, &g_atomic, at);
  g_real.atomic_start();
  lock_acquired(ompt_mutex_atomic, &g_atomic, at);
}

OMPSCOPE_EXPORT void GOMP_atomic_end() {
  g_real.atomic_end();
  lock_released(ompt_mutex_atomic, &g_atomic, caller(__builtin_return_address(0)));
}

OMPSCOPE_EXPORT void GOMP_ordered_start() {
  const uint64_t at = caller(__builtin_return_address(0));
  lock_acquire(ompt_mutex_ordered, &g_ordered, at);
  g_real.ordered_start();
  lock_acquired(ompt_mutex_ordered, &g_ordered, at);
}

OMPSCOPE_EXPORT void GOMP_ordered_end() {
  g_real.ordered_end();
  lock_released(ompt_mutex_ordered, &g_ordered, caller(__builtin_return_address(0)));
}

OMPSCOPE_EXPORT void omp_set_lock(void* lock) {
  const uint64_t at = caller(__builtin_return_address(0));
  if (set_lock_counted(at)) [[likely]] return g_real.set_lock(lock);
  set_lock_sampled(g_real.set_lock, lock, at);
}

OMPSCOPE_EXPORT void omp_unset_lock(void* lock) {
  if (t_locks.held_count == 0) [[likely]] return g_real.unset_lock(lock);
  unset_lock_sampled(g_real.unset_lock, lock, caller(__builtin_return_address(0)));
}

// gfortran passes the lock variable's address; libgomp's Fortran entry points take it as it is.
OMPSCOPE_EXPORT void omp_set_lock_(void* lock) {
  const uint64_t at = caller(__builtin_return_address(0));
  if (set_lock_counted(at)) [[likely]] return g_real.set_lock_fortran(lock);
  set_lock_sampled(g_real.set_lock_fortran, lock, at);
}

OMPSCOPE_EXPORT void omp_unset_lock_(void* lock) {
  if (t_locks.held_count == 0) [[likely]] return g_real.unset_lock_fortran(lock);
  unset_lock_sampled(g_real.unset_lock_fortran, lock, caller(__builtin_return_address(0)));
}

// libgomp's nest lock (config/linux/omp-lock.h): {int lock; int count; void *owner;}. The count
// after the set says whether the owner took it again (OMPT's nest_lock begin) or acquired it; the
// count before the unset whether the release is the last one.
namespace {
struct GompNestLock {
  int lock;
  int count;
  void* owner;
};
}  // namespace

OMPSCOPE_EXPORT void omp_set_nest_lock(void* lock) {
  const uint64_t at = caller(__builtin_return_address(0));
  lock_acquire(ompt_mutex_nest_lock, lock, at);
  g_real.set_nest_lock(lock);
  if (static_cast<GompNestLock*>(lock)->count == 1) {
    lock_acquired(ompt_mutex_nest_lock, lock, at);
  } else if (g_active && !t_light_depth) {
    if (const uint32_t weight = lock_acquired_weight(t_locks))
      emit_mutex(ompscope::EventKind::NestLockNext, static_cast<ompt_mutex_t>(ompt_scope_begin), lock, at, weight);
  }
}

OMPSCOPE_EXPORT void omp_unset_nest_lock(void* lock) {
  const bool last = static_cast<GompNestLock*>(lock)->count == 1;
  g_real.unset_nest_lock(lock);
  const uint64_t at = caller(__builtin_return_address(0));
  if (last) {
    lock_released(ompt_mutex_nest_lock, lock, at);
  } else if (g_active && !t_light_depth && lock_release_recorded(t_locks)) {
    emit_mutex(ompscope::EventKind::NestLockNext, static_cast<ompt_mutex_t>(ompt_scope_end), lock, at);
  }
}

OMPSCOPE_EXPORT void GOMP_task(OutlinedFn fn, void* data, CopyFn cpyfn, long arg_size, long arg_align,
                               bool if_clause, unsigned flags, void** depend, int priority, void* detach) {
  if (!g_active) return g_real.task(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority, detach);
  const uint64_t at = caller(__builtin_return_address(0));
  uint32_t id = 0, level = kUncountedLevel;
  if (!t_state.begun) [[unlikely]] begin_thread(false);  // its own counts first
  if (!t_light_depth) {
    if (t_tasks.running_light) ++t_tasks.batch_nested;  // a light task's child
    if (t_state.task_level != kUncountedLevel && !g_paused.load(std::memory_order_relaxed))
      count_task_level(level = child_task_level(t_state.task_level));
  }
  if (!dark()) {
    if (const uint32_t weight = task_creation_weight(t_tasks, g_sampling, at)) {
      const bool deps = depend != nullptr && (flags & kGompTaskFlagDepend);
      id = record_task_create(at, !if_clause, weight);
      if (deps) record_gomp_depends(id, depend);
    }
  }
  // The header, then the arguments at their alignment; on this stack frame, copied by libgomp.
  const long align = arg_align > static_cast<long>(alignof(TaskHeader)) ? arg_align : static_cast<long>(alignof(TaskHeader));
  const long offset = (static_cast<long>(sizeof(TaskHeader)) + align - 1) / align * align;
  char* raw = static_cast<char*>(__builtin_alloca(offset + (cpyfn ? 0 : arg_size) + align));
  char* block = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(raw) + align - 1) & ~static_cast<uintptr_t>(align - 1));
  TaskHeader* h = reinterpret_cast<TaskHeader*>(block);
  *h = TaskHeader{fn, cpyfn, data, id, static_cast<uint32_t>(offset), level};
  if (!cpyfn && arg_size > 0) memcpy(block + offset, data, static_cast<size_t>(arg_size));
  g_real.task(task_body, block, cpyfn ? task_copy : nullptr, offset + arg_size, align, if_clause, flags, depend,
              priority, detach);
}

// A taskwait or a taskgroup's end: the wait as a sync region, in which the timed light task, if
// it is the one waiting (it runs at the innermost depth), has no time of its own.
static void wait_for_tasks(ompt_sync_region_t kind, void (*real)(), uint64_t at) {
  const bool timed = t_tasks.light_timed && t_tasks.light_timed_depth == t_task_depth;
  if (timed) [[unlikely]] light_timed_waits(true);
  sync_begin(kind, at);
  real();
  sync_end(kind, at);
  if (timed) [[unlikely]] light_timed_waits(false);
}

OMPSCOPE_EXPORT void GOMP_taskwait() {
  wait_for_tasks(ompt_sync_region_taskwait, g_real.taskwait, caller(__builtin_return_address(0)));
}

OMPSCOPE_EXPORT void GOMP_taskgroup_end() {
  wait_for_tasks(ompt_sync_region_taskgroup, g_real.taskgroup_end, caller(__builtin_return_address(0)));
}
