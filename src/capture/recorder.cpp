#include "capture/recorder.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "capture/fatal_signal_flush.h"
#include "capture/run_meta.h"
#include "capture/thread_usage.h"

namespace ompscope::capture {

LogConfig g_config;
ClockSource g_clock = ClockSource::Monotonic;
SamplingPolicy g_sampling;
thread_local ThreadLog t_log __attribute__((tls_model("initial-exec")));
thread_local LockSampling t_locks __attribute__((tls_model("initial-exec")));
thread_local TaskSampling t_tasks __attribute__((tls_model("initial-exec")));
thread_local uint32_t t_light_depth __attribute__((tls_model("initial-exec")));
TaskLevelCounts g_uncounted_levels;
thread_local TaskLevelCounts* t_task_levels __attribute__((tls_model("initial-exec"))) = &g_uncounted_levels;
thread_local SerialUsageState t_serial __attribute__((tls_model("initial-exec")));
thread_local uint32_t t_usage_instances __attribute__((tls_model("initial-exec")));
thread_local UsageStretches t_usage_stretches __attribute__((tls_model("initial-exec")));
std::atomic<bool> g_paused{false};

namespace {

char g_directory[4096];

// The thread's hardware counters: a group opened on the thread at its first reading, read beside
// the kernel's accounting. Where a thread's group does not open (no PMU, as on a VM;
// perf_event_paranoid), meta.txt says why once and no thread tries again: the readings then cost
// one load and a branch.
std::atomic<bool> g_counters_unusable{false};
std::atomic<bool> g_counters_said{false};
thread_local CounterGroup t_counters __attribute__((tls_model("initial-exec")));
thread_local bool t_counters_tried __attribute__((tls_model("initial-exec")));

[[gnu::noinline]] void open_thread_counters() {
  t_counters_tried = true;
  if (const int error = open_counter_group(kHardwareCounters, 3, &t_counters)) {
    if (!g_counters_unusable.exchange(true)) meta_line("hw_counters none %s", counter_failure_text(error));
  } else if (!g_counters_said.exchange(true)) {
    meta_line("hw_counters cycles instructions llc_misses");
  }
}

void record_counters(uint8_t edge) {
  if (g_counters_unusable.load(std::memory_order_relaxed)) return;
  if (!t_counters_tried) [[unlikely]] {
    open_thread_counters();
    if (!t_counters.open()) return;
  }
  uint64_t v[3];
  if (!read_counter_group(t_counters, v)) return;
  append_event(t_log, g_config, g_clock,
               Event{0, v[0], static_cast<uint32_t>(v[1]), static_cast<uint32_t>(v[1] >> 32),
                     static_cast<uint32_t>(v[2]), 0, EventKind::HwCounters, edge});
}

// A forked child's thread is not the thread its parent's group counts, nor are its logs its
// parent's (thread_log.h).
void forget_after_fork() {
  disown_logs_after_fork();
  close_counter_group(&t_counters);
  t_counters_tried = false;
}

void write_clock_point(const char* key) {
  meta_line("%s %llu %llu", key, static_cast<unsigned long long>(read_ticks(g_clock)),
            static_cast<unsigned long long>(monotonic_ns()));
}

// CLOCK_REALTIME beside CLOCK_MONOTONIC: the ranks of a job on different nodes share the one
// (docs/mpi.md, "Traces of a job").
void write_realtime_point() {
  meta_line("clock_realtime %llu %llu", static_cast<unsigned long long>(ompscope::realtime_ns()),
            static_cast<unsigned long long>(monotonic_ns()));
}

size_t chunk_bytes_from_env() {
  const char* kb = getenv("OMPSCOPE_CHUNK_KB");
  long page = sysconf(_SC_PAGESIZE);
  size_t bytes = kb ? static_cast<size_t>(strtoul(kb, nullptr, 10)) * 1024u : LogConfig{}.chunk_bytes;
  if (bytes < static_cast<size_t>(page)) bytes = static_cast<size_t>(page);
  return bytes / static_cast<size_t>(page) * static_cast<size_t>(page);
}

}  // namespace

void write_light_batch() {
  Event batch{0, t_tasks.batch_first, t_tasks.batch_nested, static_cast<uint32_t>(t_tasks.batch_timed_ticks),
              t_tasks.batch_tasks, static_cast<uint16_t>(t_tasks.batch_timed), EventKind::LightTasks, 0};
  t_tasks.batch_tasks = 0;
  t_tasks.batch_nested = 0;
  t_tasks.batch_timed_ticks = 0;
  t_tasks.batch_timed = 0;
  append_event(t_log, g_config, g_clock, batch);
}

void write_task_levels(TaskLevelCounts& c, ThreadLog& log) {
  constexpr uint32_t kPerRecord = 5;
  for (uint32_t first = 1; first <= c.deepest; first += kPerRecord) {
    uint32_t n = std::min(kPerRecord, c.deepest + 1 - first), v[kPerRecord] = {};
    bool any = false;
    for (uint32_t i = 0; i < n; ++i) any = (v[i] = c.created[first + i]) != 0 || any;
    if (!any) continue;
    append_event(log, g_config, g_clock,
                 Event{0, v[3] | (uint64_t{v[4]} << 32), v[0], v[1], v[2], static_cast<uint16_t>(first),
                       EventKind::TaskLevels, static_cast<uint8_t>(n)});
  }
  std::memset(c.created, 0, sizeof(uint32_t) * (c.deepest + 1));
  c.deepest = 0;
}

void write_own_task_levels() {
  TaskLevelCounts& c = *t_task_levels;
  if (&c == &g_uncounted_levels || t_light_depth || g_paused.load(std::memory_order_relaxed)) {
    std::memset(c.created, 0, sizeof c.created);
    c.deepest = 0;
    return;
  }
  if (t_tasks.batch_tasks) write_light_batch();  // what ran before, in order
  write_task_levels(c, t_log);
}

void open_task_levels() {
  if (t_task_levels != &g_uncounted_levels) return;
  if (auto* own = static_cast<TaskLevelCounts*>(std::calloc(1, sizeof(TaskLevelCounts)))) t_task_levels = own;
}

void close_task_levels() {
  if (t_task_levels == &g_uncounted_levels) return;
  std::free(std::exchange(t_task_levels, &g_uncounted_levels));
}

void stamp_light_batch_start() { t_tasks.batch_first = read_ticks(g_clock); }

void start_light_timing(const void* task, uint32_t depth) {
  t_tasks.light_countdown = kLightTimedEvery - 1;
  // One at a time: a timed task's children wait for the next draw. The record's fields hold what
  // a batch timed, a count of 16 bits and ticks of 32 (a second and more of bodies at any
  // clock); past either, the batch's first ones are its sample.
  if (t_tasks.light_timed || t_tasks.batch_timed >= kMostTimedPerBatch ||
      t_tasks.batch_timed_ticks >= (uint64_t{1} << 31))
    return;
  t_tasks.light_timed = task;
  t_tasks.light_timed_ticks = 0;
  t_tasks.light_timed_depth = depth;
  t_tasks.light_timed_waiting = false;
  t_tasks.light_timed_since = read_ticks(g_clock);
}

void pause_light_timing() {
  if (!t_tasks.light_timed_since) return;
  const uint64_t now = read_ticks(g_clock);
  if (now > t_tasks.light_timed_since) t_tasks.light_timed_ticks += now - t_tasks.light_timed_since;
  t_tasks.light_timed_since = 0;
}

void resume_light_timing() {
  if (!t_tasks.light_timed_waiting && !t_tasks.light_timed_since) t_tasks.light_timed_since = read_ticks(g_clock);
}

void end_light_timing(bool body_done) {
  pause_light_timing();
  t_tasks.light_timed = nullptr;
  // A body longer than the field holds leaves the batch untimed rather than short.
  if (!body_done || t_tasks.light_timed_ticks >= (uint64_t{1} << 31)) return;
  t_tasks.batch_timed_ticks += t_tasks.light_timed_ticks;
  ++t_tasks.batch_timed;
}

void light_timed_waits(bool begins) {
  if (begins) {
    pause_light_timing();
    t_tasks.light_timed_waiting = true;
  } else {
    t_tasks.light_timed_waiting = false;
    resume_light_timing();
  }
}

void record_usage(uint8_t edge) {
  drain_samples(t_log, g_config);
  if (append_thread_usage(t_log, g_config, g_clock, edge)) record_counters(edge);
}

void read_body_starts(uint32_t task) {
  UsageStretches& u = t_usage_stretches;
  if (task == 0 || dark() || t_log.pos == nullptr) return;
  // The switch's own record was the last one appended: its time is now, without another read.
  const uint64_t now = t_log.pos[-1].time;
  if (u.body_ticks != 0 && now - u.body_ticks < (uint64_t{1} << u.body_gap_shift)) return;
  if (!append_thread_usage(t_log, g_config, g_clock, kUsageBodyStarts)) return;
  u.body_ticks = t_log.pos[-1].time;  // the body itself starts after the reading
  u.body_task = task;
}

void read_body_end() {
  UsageStretches& u = t_usage_stretches;
  u.body_task = 0;
  if (t_tasks.batch_tasks) write_light_batch();  // what ran before it, in order
  if (dark() || !append_thread_usage(t_log, g_config, g_clock, kUsageBodyEnds)) return;
  // The body's length from the two readings' own records: it sets the gap to the next one.
  const bool short_body = t_log.pos[-1].time - u.body_ticks < (uint64_t{1} << (kBodyGapFirstShift - 4));
  if (short_body && u.body_gap_shift < kBodyGapLastShift) ++u.body_gap_shift;
  if (!short_body) u.body_gap_shift = kBodyGapFirstShift;
}

void close_thread_counters() { close_counter_group(&t_counters); }

bool open_session(void (*runtime_lines)()) {
  const char* disable = getenv("OMPSCOPE_DISABLE");
  if (disable && disable[0] && disable[0] != '0') return false;  // lets another tool load
  if (!open_log_directory(g_directory, sizeof g_directory)) return false;
  g_config.directory = g_directory;
  g_config.chunk_bytes = chunk_bytes_from_env();
  g_clock = tsc_is_invariant() ? ClockSource::Tsc : ClockSource::Monotonic;
  meta_line("ompscope-log %u", kLogVersion);
  write_process_meta();
  write_rank_meta();
  runtime_lines();
  meta_line("clock %s", clock_source_name(g_clock));
  write_clock_point("clock_start");
  write_realtime_point();
  meta_line("lock_record_gap %llu", static_cast<unsigned long long>(calibrate_lock_record_gap(g_config, g_clock)));
  meta_line("atomic_floor %llu %u", static_cast<unsigned long long>(calibrate_atomic_floor(g_clock)), kAtomicFloorOps);
  meta_line("page_fault_floor %llu", static_cast<unsigned long long>(calibrate_page_fault_floor(g_clock)));
  meta_line("usage_reading %llu", static_cast<unsigned long long>(calibrate_usage_reading(g_clock)));
  // The scheduler's tick: getrusage's user/system split is a sample of it (analysis/region_causes.h,
  // kKernelSplitResolutionS). The coarse clock advances once a tick, and says by how much.
  if (timespec tick{}; clock_getres(CLOCK_MONOTONIC_COARSE, &tick) == 0)
    meta_line("kernel_tick_ns %llu", static_cast<unsigned long long>(tick.tv_sec * 1000000000LL + tick.tv_nsec));
  meta_line("chunk_bytes %zu", g_config.chunk_bytes);
  const char* sampling = getenv("OMPSCOPE_SAMPLING");
  g_sampling.enabled = !(sampling && (strcmp(sampling, "0") == 0 || strcmp(sampling, "off") == 0));
  if (g_sampling.enabled)
    meta_line("sampling regions %u %u locks %u %u tasks %u %u %u lock_max %u", g_sampling.full_instances,
              g_sampling.region_every, g_sampling.full_lock_ops, g_sampling.lock_every, g_sampling.full_tasks,
              g_sampling.task_every, g_sampling.max_task_every, g_sampling.max_lock_every);
  else
    meta_line("sampling off");
  open_pc_sampling(g_clock, &g_paused);
  return true;
}

void arm_session() {
  write_module_map();
  install_fatal_signal_flush([] { meta_line_from_signal("clock_end", read_ticks(g_clock), monotonic_ns()); });
  pthread_atfork(nullptr, nullptr, forget_after_fork);
}

void close_session() {
  end_thread_sampling(t_log, g_config);
  record_serial_usage(t_serial, t_log, g_config, g_clock, 2, true);
  write_clock_point("clock_end");
  if (t_tasks.batch_tasks && !t_light_depth) write_light_batch();
  flush_lock_counts();
  flush_task_levels();
  close_thread_log(t_log, g_config);
  flush_all_logs();  // workers' logs: their thread-end callbacks may come later or never
  write_module_map();
  meta_line("threads %u", threads_seen());
  meta_line("dropped %llu", static_cast<unsigned long long>(total_dropped_events()));
  meta_line("pc_samples_dropped %llu", static_cast<unsigned long long>(dropped_samples()));
  meta_line("finalized 1");
  close_run_meta();
}

void flush_session_at_exit() {
  if (!recording()) return;
  drain_samples(t_log, g_config);
  flush_all_logs();
}

int control_tool(uint64_t command) {
  if (!recording()) return 0;
  const auto edge = [command] {
    append_event(t_log, g_config, g_clock, Event{0, 0, 0, 0, 0, 0, EventKind::ToolControl, static_cast<uint8_t>(command)});
  };
  switch (command) {
    case 1:  // start again
      if (!g_paused.load()) return 0;
      g_paused.store(false);
      edge();
      return 0;
    case 2:  // pause
    case 4:  // end: a pause that lasts
      if (g_paused.load()) return 0;
      drain_samples(t_log, g_config);
      edge();
      g_paused.store(true);
      return 0;
    case 3:  // flush
      drain_samples(t_log, g_config);
      flush_all_logs();
      return 0;
    default:
      return -1;
  }
}

}  // namespace ompscope::capture
