/* The cost floor of observing tasks through OMPT: a minimal tool registering the same task
 * callbacks as libompscope. FLOOR_MODE=empty: callbacks that do nothing (what libomp's OMPT
 * task path costs by itself); FLOOR_MODE=all: the same plus every other callback libompscope
 * registers, empty too; FLOOR_MODE=tsc: one TSC read and one 32-byte store into a small
 * per-thread ring that stays in cache (the least a timestamped record can cost). overhead.py
 * runs tiny_tasks under both, beside ompscope, to show how far ompscope is from the floor. */
#include <omp-tools.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

typedef struct { uint64_t time, a; uint32_t b, c, d, e; } record_t;
static __thread record_t ring[256] __attribute__((tls_model("initial-exec")));
static __thread unsigned ring_pos __attribute__((tls_model("initial-exec")));

static inline void stamp(uint64_t a, uint32_t b, uint32_t c) {
  record_t* r = &ring[ring_pos++ & 255];
  r->time = __rdtsc();
  r->a = a;
  r->b = b;
  r->c = c;
}
static void create_empty(ompt_data_t* e, const ompt_frame_t* f, ompt_data_t* n, int fl, int d, const void* c) {
  (void)e, (void)f, (void)n, (void)fl, (void)d, (void)c;
}
static void schedule_empty(ompt_data_t* p, ompt_task_status_t s, ompt_data_t* n) { (void)p, (void)s, (void)n; }
static void create_tsc(ompt_data_t* e, const ompt_frame_t* f, ompt_data_t* n, int fl, int d, const void* c) {
  (void)e, (void)f, (void)n;
  stamp((uint64_t)c, (uint32_t)fl, (uint32_t)d);
}
static void schedule_tsc(ompt_data_t* p, ompt_task_status_t s, ompt_data_t* n) {
  (void)p, (void)n;
  stamp(0, (uint32_t)s, 0);
}

/* Any callback signature: the arguments are ignored (System V passes them in registers). */
static void ignore_all(void) {}

static int initialize(ompt_function_lookup_t lookup, int device, ompt_data_t* data) {
  (void)device, (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  const char* mode = getenv("FLOOR_MODE");
  int tsc = mode && strcmp(mode, "tsc") == 0;
  set(ompt_callback_task_create, tsc ? (ompt_callback_t)create_tsc : (ompt_callback_t)create_empty);
  set(ompt_callback_task_schedule, tsc ? (ompt_callback_t)schedule_tsc : (ompt_callback_t)schedule_empty);
  if (mode && strcmp(mode, "all") == 0) {
    /* Every other callback libompscope registers, doing nothing: what libomp spends on them. */
    const ompt_callbacks_t others[] = {ompt_callback_thread_begin, ompt_callback_thread_end, ompt_callback_parallel_begin,
                                       ompt_callback_parallel_end, ompt_callback_implicit_task, ompt_callback_work,
                                       ompt_callback_dispatch, ompt_callback_sync_region, ompt_callback_sync_region_wait,
                                       ompt_callback_mutex_acquire, ompt_callback_mutex_acquired,
                                       ompt_callback_mutex_released, ompt_callback_nest_lock, ompt_callback_lock_init,
                                       ompt_callback_lock_destroy, ompt_callback_masked, ompt_callback_dependences,
                                       ompt_callback_task_dependence};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; ++i) set(others[i], (ompt_callback_t)ignore_all);
  }
  return 1;
}
static void finalize(ompt_data_t* data) { (void)data; }

ompt_start_tool_result_t* ompt_start_tool(unsigned version, const char* runtime) {
  (void)version, (void)runtime;
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  return &result;
}
