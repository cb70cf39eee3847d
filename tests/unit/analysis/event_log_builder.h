// Hand-built event logs for the analysis tests. Times are given in microseconds of a
// "monotonic" clock (ticks are ns, origin 0), so every expected number is written as µs and
// compared in seconds with a picosecond tolerance.
#pragma once
#include <omp-tools.h>

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "analysis/run_log.h"
#include "common/event_record.h"

namespace ompscope::analysis::testing {

// Microseconds → seconds, for expectations.
constexpr double us(double microseconds) { return microseconds * 1e-6; }

// Seconds computed from ns ticks are exact to far below a picosecond at these magnitudes.
#define EXPECT_US(actual, expected_us) EXPECT_NEAR((actual), ::ompscope::analysis::testing::us(expected_us), 1e-12)

inline Event event(uint64_t t_us, EventKind kind, uint32_t id = 0, uint32_t id2 = 0, uint32_t arg = 0,
                   uint16_t arg2 = 0, uint8_t detail = 0, uint64_t codeptr = 0) {
  return Event{t_us * 1000, codeptr, id, id2, arg, arg2, kind, detail};
}

// One thread's stream, written in the order the OMPT callbacks would fire.
class Stream {
 public:
  explicit Stream(ThreadEvents& out) : out_(out) {}

  Stream& thread_begin(uint64_t t, ompt_thread_t type = ompt_thread_initial) {
    return add(event(t, EventKind::ThreadBegin, 0, 0, 0, 0, static_cast<uint8_t>(type)));
  }
  Stream& thread_end(uint64_t t) { return add(event(t, EventKind::ThreadEnd)); }
  // The initial task of the initial thread (its "initial parallel region" has no ParallelBegin).
  Stream& initial_task(uint64_t t, uint32_t parallel, uint32_t task) {
    return add(event(t, EventKind::ImplicitTaskBegin, parallel, task, 1, 0, ompt_task_initial));
  }
  Stream& initial_task_end(uint64_t t, uint32_t parallel, uint32_t task) {
    return add(event(t, EventKind::ImplicitTaskEnd, parallel, task, 1, 0, ompt_task_initial));
  }
  Stream& parallel_begin(uint64_t t, uint32_t parallel, uint32_t encountering, uint32_t requested,
                         uint64_t codeptr) {
    return add(event(t, EventKind::ParallelBegin, parallel, encountering, requested, 0, 0, codeptr));
  }
  // An instance sampled out by adaptive sampling: only its begin and end are in the log.
  Stream& light_parallel(uint64_t begin, uint64_t end, uint32_t parallel, uint32_t encountering,
                         uint32_t requested, uint64_t codeptr) {
    add(event(begin, EventKind::ParallelBegin, parallel, encountering, requested, 0, 1, codeptr));
    return parallel_end(end, parallel, encountering, codeptr);
  }
  Stream& parallel_end(uint64_t t, uint32_t parallel, uint32_t encountering, uint64_t codeptr) {
    return add(event(t, EventKind::ParallelEnd, parallel, encountering, 0, 0, 0, codeptr));
  }
  Stream& implicit_begin(uint64_t t, uint32_t parallel, uint32_t task, uint32_t team, uint16_t index) {
    return add(event(t, EventKind::ImplicitTaskBegin, parallel, task, team, index, ompt_task_implicit));
  }
  // `parallel` is 0 when the runtime no longer knows the region (late worker ends).
  Stream& implicit_end(uint64_t t, uint32_t parallel, uint32_t task, uint16_t index) {
    return add(event(t, EventKind::ImplicitTaskEnd, parallel, task, 0, index, ompt_task_implicit));
  }
  Stream& work_begin(uint64_t t, ompt_work_t work = ompt_work_loop, uint64_t codeptr = 0) {
    return add(event(t, EventKind::WorkBegin, 0, 0, 100, 0, static_cast<uint8_t>(work), codeptr));
  }
  Stream& work_end(uint64_t t, ompt_work_t work = ompt_work_loop, uint64_t codeptr = 0) {
    return add(event(t, EventKind::WorkEnd, 0, 0, 0, 0, static_cast<uint8_t>(work), codeptr));
  }
  Stream& masked_begin(uint64_t t, uint64_t codeptr = 0) { return add(event(t, EventKind::MaskedBegin, 0, 0, 0, 0, 0, codeptr)); }
  Stream& masked_end(uint64_t t, uint64_t codeptr = 0) { return add(event(t, EventKind::MaskedEnd, 0, 0, 0, 0, 0, codeptr)); }
  Stream& sync_begin(uint64_t t, ompt_sync_region_t kind, uint64_t codeptr = 0) {
    return add(event(t, EventKind::SyncBegin, 0, 0, 0, 0, static_cast<uint8_t>(kind), codeptr));
  }
  Stream& sync_end(uint64_t t, ompt_sync_region_t kind, uint64_t codeptr = 0) {
    return add(event(t, EventKind::SyncEnd, 0, 0, 0, 0, static_cast<uint8_t>(kind), codeptr));
  }
  Stream& mutex(uint64_t t, EventKind kind, ompt_mutex_t mutex_kind, uint64_t wait_id, uint64_t codeptr) {
    Event e = event(t, kind, 0, 0, 0, 0, static_cast<uint8_t>(mutex_kind), codeptr);
    e.set_wait_id(wait_id);
    return add(e);
  }
  Stream& acquire(uint64_t t, ompt_mutex_t k, uint64_t wait_id, uint64_t codeptr) {
    return mutex(t, EventKind::MutexAcquire, k, wait_id, codeptr);
  }
  Stream& acquired(uint64_t t, ompt_mutex_t k, uint64_t wait_id, uint64_t codeptr) {
    return mutex(t, EventKind::MutexAcquired, k, wait_id, codeptr);
  }
  // A recorded acquisition standing for `weight` operations (adaptive sampling).
  Stream& acquired(uint64_t t, ompt_mutex_t k, uint64_t wait_id, uint64_t codeptr, uint32_t weight) {
    Event e = event(t, EventKind::MutexAcquired, 0, 0, weight, 0, static_cast<uint8_t>(k), codeptr);
    e.set_wait_id(wait_id);
    return add(e);
  }
  Stream& released(uint64_t t, ompt_mutex_t k, uint64_t wait_id, uint64_t codeptr) {
    return mutex(t, EventKind::MutexReleased, k, wait_id, codeptr);
  }
  Stream& nest_lock(uint64_t t, ompt_scope_endpoint_t endpoint, uint64_t wait_id, uint64_t codeptr) {
    Event e = event(t, EventKind::NestLockNext, 0, 0, 0, 0, static_cast<uint8_t>(endpoint), codeptr);
    e.set_wait_id(wait_id);
    return add(e);
  }
  Stream& task_create(uint64_t t, uint32_t task, uint32_t encountering, uint64_t codeptr,
                      uint32_t flags = ompt_task_explicit) {
    return add(event(t, EventKind::TaskCreate, task, encountering, flags, 0, 0, codeptr));
  }
  // A recorded creation standing for `weight` creations at its site (task sampling).
  Stream& task_create(uint64_t t, uint32_t task, uint32_t encountering, uint64_t codeptr, uint32_t flags,
                      uint8_t weight) {
    return add(event(t, EventKind::TaskCreate, task, encountering, flags, 0, weight, codeptr));
  }
  // A recorded task's depend clause item(s), as the tool writes them right after its creation:
  // one record for one item, or two items in one record.
  Stream& depends(uint64_t t, uint32_t task, uint64_t address, ompt_dependence_type_t type) {
    return add(event(t, EventKind::TaskDependences, task, 0, 0, static_cast<uint16_t>(type), 1, address));
  }
  Stream& depends(uint64_t t, uint32_t task, uint64_t a, ompt_dependence_type_t type_a, uint64_t b,
                  ompt_dependence_type_t type_b) {
    return add(event(t, EventKind::TaskDependences, task, static_cast<uint32_t>(b), static_cast<uint32_t>(b >> 32),
                     static_cast<uint16_t>(type_a | (type_b << 8)), 2, a));
  }
  // The runtime made `sink` wait for `source` (ompt_callback_task_dependence).
  Stream& task_dependence(uint64_t t, uint32_t source, uint32_t sink) {
    return add(event(t, EventKind::TaskDependence, source, sink));
  }
  Stream& task_schedule(uint64_t t, uint32_t prior, ompt_task_status_t status, uint32_t next) {
    return add(event(t, EventKind::TaskSchedule, prior, next, 0, 0, static_cast<uint8_t>(status)));
  }
  // `count` sampled-out tasks ran on this thread from `first_start` on, and created `children`;
  // written at `t`, just before the thread's next record. `timed` of them were timed start to
  // end by the capture, `timed_ns` in all.
  Stream& light_tasks(uint64_t t, uint64_t first_start, uint32_t count, uint32_t children = 0, uint16_t timed = 0,
                      uint32_t timed_ns = 0) {
    return add(event(t, EventKind::LightTasks, children, timed_ns, count, timed, 0, first_start * 1000));
  }
  // The tasks this thread created since its last such records, by level from `first_level` on,
  // up to 5 levels a record as the capture packs them (event_record.h, TaskLevels).
  Stream& task_levels(uint64_t t, uint16_t first_level, std::vector<uint32_t> counts) {
    const auto levels = static_cast<uint8_t>(counts.size());
    counts.resize(5, 0);
    return add(event(t, EventKind::TaskLevels, counts[0], counts[1], counts[2], first_level, levels,
                     counts[3] | (uint64_t{counts[4]} << 32)));
  }
  // The thread's kernel accounting read at an edge of a stretch of work: `edge` 0 at its start,
  // 1 at its end; cumulative CPU time (µs here, ns in the record), system time (µs), faults and
  // involuntary switches.
  // An MPI call from `begin` to `end` (libompscope_mpi.so), written when it returns.
  Stream& mpi_call(uint64_t begin, uint64_t end, MpiCallKind call) {
    return add(event(end, EventKind::MpiCall, 0, 0, 0, 0, static_cast<uint8_t>(call), begin * 1000));
  }
  // `switches` involuntary, `voluntary` voluntary: cumulative, truncated to 16 bits each, as the
  // capture packs them (capture/thread_usage.h, switch_counts).
  Stream& usage(uint64_t t, uint8_t edge, uint64_t cpu_us, uint32_t system_us, uint32_t minor_faults = 0,
                uint16_t major_faults = 0, uint32_t switches = 0, uint32_t voluntary = 0) {
    return add(event(t, EventKind::ThreadUsage, system_us, minor_faults, (switches & 0xffffu) | (voluntary << 16),
                     major_faults, edge, cpu_us * 1000));
  }
  // The thread's hardware counters at the same edge, right after its usage record: cumulative
  // cycles, instructions (64 bits in id and id2) and last-level cache misses (32 bits).
  Stream& counters(uint64_t t, uint8_t edge, uint64_t cycles, uint64_t instructions, uint32_t llc_misses) {
    return add(event(t, EventKind::HwCounters, static_cast<uint32_t>(instructions),
                     static_cast<uint32_t>(instructions >> 32), llc_misses, 0, edge, cycles));
  }

  // A CPU-time sample taken at `sampled` (µs) of `weight` periods at `pc`, with return addresses
  // `frames` (innermost first), as the thread writes it when it drains its ring at `t`.
  Stream& sample(uint64_t t, uint64_t sampled, uint64_t pc, uint32_t weight = 1, std::vector<uint64_t> frames = {}) {
    const uint64_t ticks = sampled * 1000;
    add(event(t, EventKind::Sample, static_cast<uint32_t>(ticks), static_cast<uint32_t>(ticks >> 32), weight, 0,
              static_cast<uint8_t>(frames.size()), pc));
    for (size_t i = 0; i < frames.size(); i += 2) {
      const uint64_t second = i + 1 < frames.size() ? frames[i + 1] : 0;
      add(event(t, EventKind::SampleFrames, static_cast<uint32_t>(second), static_cast<uint32_t>(second >> 32), 0, 0, 0,
                frames[i]));
    }
    return *this;
  }
  // omp_control_tool: 2 pauses, 1 starts again.
  Stream& tool_control(uint64_t t, uint8_t command) { return add(event(t, EventKind::ToolControl, 0, 0, 0, 0, command)); }

 private:
  Stream& add(const Event& e) {
    if (!out_.events.empty()) EXPECT_GE(e.time, out_.events.back().time) << "test log goes back in time";
    out_.events.push_back(e);
    return *this;
  }
  ThreadEvents& out_;
};

// A RunLog as read_run_log would return it for a CLOCK_MONOTONIC run starting at tick 0.
class LogBuilder {
 public:
  explicit LogBuilder(uint32_t threads, uint64_t finalize_us = 0) {
    log_.meta.version = kLogVersion;
    log_.meta.clock = "monotonic";
    log_.meta.runtime = "LLVM OMP (test)";
    log_.meta.clock_start = {0, 1};
    log_.meta.clock_end = {finalize_us * 1000, finalize_us * 1000 + 1};  // ticks 0: died before finalize
    log_.meta.initialized = true;
    log_.meta.finalized = finalize_us != 0;
    log_.ticks_per_second = 1e9;
    log_.origin_ticks = 0;
    for (uint32_t i = 0; i < threads; ++i) log_.threads.push_back(ThreadEvents{i, {}});
  }
  Stream thread(uint32_t index) { return Stream(log_.threads.at(index)); }
  // The cheapest reading of a thread's kernel accounting (meta.txt's usage_reading).
  void usage_reading_us(uint64_t us) { log_.meta.usage_reading_ticks = us * 1000; }
  // The period of the run's CPU-time sampling (meta.txt's pc_sampling).
  void sample_period_us(uint64_t period) { log_.meta.sample_period_ns = period * 1000; }
  const RunLog& log() const { return log_; }

 private:
  RunLog log_;
};

}  // namespace ompscope::analysis::testing
