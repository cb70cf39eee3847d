#include "analysis/timeline.h"

#include <omp-tools.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <span>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "common/dense_index.h"
#include "common/sort_runs.h"

namespace ompscope::analysis {

namespace {

constexpr size_t kNoPart = std::numeric_limits<size_t>::max();

SyncKind classify_sync(uint8_t kind) {
  switch (kind) {
    case ompt_sync_region_barrier:
    case ompt_sync_region_barrier_implicit:
    case ompt_sync_region_barrier_explicit:
    case ompt_sync_region_barrier_implementation:
    case ompt_sync_region_barrier_implicit_workshare:
    case ompt_sync_region_barrier_implicit_parallel:
    case ompt_sync_region_barrier_teams:
      return SyncKind::Barrier;
    case ompt_sync_region_taskwait:
      return SyncKind::Taskwait;
    case ompt_sync_region_taskgroup:
      return SyncKind::Taskgroup;
    default:
      return SyncKind::Other;
  }
}

bool is_implicit_barrier(uint8_t kind) {
  return kind == ompt_sync_region_barrier_implicit || kind == ompt_sync_region_barrier_implicit_parallel;
}

bool is_loop(uint8_t work) {
  return work == ompt_work_loop || work == ompt_work_distribute || work == ompt_work_taskloop || work >= 10;
}

// The region instances as the walk meets them, by a parallel id's first record on any thread (a
// worker's implicit task may be walked before its master's fork): each thread's part is added to
// its instance's threads where the walk reads it, never copied again. An instance whose fork was
// not read (begun false) is left out of the timeline. A part is named by a handle, its instance's
// index and its place among the instance's threads (kNoPart: the initial task, in no region).
struct RegionTable {
  std::vector<RegionInstance> regions;  // end -1 while open
  std::vector<bool> begun;              // parallel to regions: its ParallelBegin was read
  std::unordered_map<uint32_t, uint32_t> index;  // parallel id → regions

  uint32_t of(uint32_t parallel_id) {
    const auto [it, added] = index.try_emplace(parallel_id, static_cast<uint32_t>(regions.size()));
    if (added) {
      regions.emplace_back();
      regions.back().parallel_id = parallel_id;
      regions.back().end = -1;
      begun.push_back(false);
    }
    return it->second;
  }
  // The instance whose fork was read; null where none was.
  RegionInstance* begun_region(uint32_t parallel_id) {
    const auto it = index.find(parallel_id);
    return it == index.end() || !begun[it->second] ? nullptr : &regions[it->second];
  }
  const RegionInstance* begun_region(uint32_t parallel_id) const {
    return const_cast<RegionTable*>(this)->begun_region(parallel_id);
  }
  // The place of the instance with that id (kNoRegion: none), `hint` the place found last
  // (kNoRegion at first), updated where one is found: a thread's lock records, in order of time,
  // name its instances in the order they were added, so the place found last and the one after it
  // are tried before the hash map (the parts' lock waits, a lookup and a part's load per lock
  // record, were about a third of the timeline's steps after the walk, 10 M loop events).
  static constexpr uint32_t kNoRegion = std::numeric_limits<uint32_t>::max();
  uint32_t place(uint32_t parallel_id, uint32_t& hint) const {
    uint32_t at = kNoRegion;
    if (hint < regions.size() && regions[hint].parallel_id == parallel_id) {
      at = hint;
    } else if (hint + 1 < regions.size() && regions[hint + 1].parallel_id == parallel_id) {
      at = hint + 1;
    } else if (const auto it = index.find(parallel_id); it != index.end()) {
      at = it->second;
    }
    if (at != kNoRegion) hint = at;
    return at;
  }
  const RegionInstance* begun_region(uint32_t parallel_id, uint32_t& hint) const {
    const uint32_t at = place(parallel_id, hint);
    return at != kNoRegion && begun[at] ? &regions[at] : nullptr;
  }
  // Threads the log holds: an instance's parts are reserved for its requested team, never more.
  size_t log_threads = 0;

  size_t add_part(uint32_t parallel_id) {
    const uint32_t r = of(parallel_id);
    // Room for the team its fork asked for (where it was read before this part), held once: its
    // parts added one by one were an allocation, a copy and a free more per instance (147 000
    // instances of two threads in the 10 M synthetic log).
    std::vector<ThreadInRegion>& parts = regions[r].threads;
    if (parts.empty() && begun[r]) parts.reserve(std::min<size_t>(regions[r].requested_threads, log_threads));
    parts.emplace_back();
    return (size_t{r} << 32) | (regions[r].threads.size() - 1);
  }
  ThreadInRegion& part(size_t handle) { return regions[handle >> 32].threads[handle & 0xffffffffu]; }
};

// A recorded task's place in Timeline::tasks by its id. The capture hands ids out from one counter
// in blocks per thread (capture/thread_log.cpp), so a run's ids are dense: a table indexed by id,
// 4 bytes an id, where ids run to no more than a few times the tasks (a 16-byte hash node and its
// bucket were 42 MB of a 10 M-event report), else (a log built by hand) a hash map. An id created
// twice is the later task.
class TaskIndex {
 public:
  static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

  explicit TaskIndex(const std::vector<TaskInstance>& tasks) {
    uint32_t largest = 0;
    for (const TaskInstance& t : tasks) largest = std::max(largest, t.id);
    dense_ = largest <= 4 * tasks.size() + (1u << 20);
    if (dense_) table_.assign(size_t{largest} + 1, kNone);
    else sparse_.reserve(tasks.size());
    for (size_t i = 0; i < tasks.size(); ++i) {
      if (dense_) table_[tasks[i].id] = static_cast<uint32_t>(i);
      else sparse_[tasks[i].id] = static_cast<uint32_t>(i);
    }
  }
  // Its place, or kNone.
  uint32_t find(uint32_t id) const {
    if (dense_) return id < table_.size() ? table_[id] : kNone;
    const auto it = sparse_.find(id);
    return it == sparse_.end() ? kNone : it->second;
  }
  bool contains(uint32_t id) const { return find(id) != kNone; }

 private:
  bool dense_ = true;
  std::vector<uint32_t> table_;
  std::unordered_map<uint32_t, uint32_t> sparse_;
};

struct OpenSync {
  size_t part;
  SyncVisit visit;
};

// The own work of a task in a recursive tree by the tasks it created: base + per_child × children.
struct TreeBody {
  double base = 0;
  double per_child = 0;
};

// A light task's own time: timed by the capture where enough were (TimedLight), else from the
// recorded bodies, per region instance and thread, per instance, over the run.
struct MeanBody {
  std::unordered_map<uint64_t, double> per_thread;  // by region_thread_key(parallel id, thread)
  std::unordered_map<uint32_t, double> per_region;  // by parallel id
  std::optional<double> overall;

  std::optional<double> of(uint32_t parallel, uint32_t thread) const;
};

struct LightBody {
  MeanBody timed, recorded;
  std::unordered_map<uint32_t, TreeBody> tree_per_region;  // by parallel id, where fitted
  std::optional<TreeBody> tree_overall;

  double of(uint32_t parallel, uint32_t thread) const;
  // How long a batch of `count` light tasks that created `children` tasks ran.
  double batch(uint32_t parallel, uint32_t thread, uint32_t count, uint32_t children) const;
};

uint64_t region_thread_key(uint32_t parallel, uint32_t thread) { return (uint64_t{parallel} << 32) | thread; }

std::optional<double> MeanBody::of(uint32_t parallel, uint32_t thread) const {
  if (auto it = per_thread.find(region_thread_key(parallel, thread)); it != per_thread.end()) return it->second;
  if (auto it = per_region.find(parallel); it != per_region.end()) return it->second;
  return overall;
}

double LightBody::of(uint32_t parallel, uint32_t thread) const {
  if (const auto t = timed.of(parallel, thread)) return *t;
  return recorded.of(parallel, thread).value_or(0);
}

// A batch whose tasks created tasks is a piece of a recursive tree, below the recorded tasks: the
// recorded ones in the sampled phase, which of() averages, are the tree's upper levels, each
// creating more tasks than a light one (nqueens_tasks 11 at 2 threads: 540-610 ns against 259 ns
// recording every task, its fine_grained_tasks gain half the real one). By the tasks they created
// the batch's own work is what the tree's recorded tasks say of tasks creating that many.
double LightBody::batch(uint32_t parallel, uint32_t thread, uint32_t count, uint32_t children) const {
  // Timed light tasks are a sample of the batch's own tasks, whatever level of a tree they are.
  if (const auto t = timed.of(parallel, thread)) return *t * count;
  const TreeBody* tree = nullptr;
  if (children > 0) {
    if (auto it = tree_per_region.find(parallel); it != tree_per_region.end()) tree = &it->second;
    else if (tree_overall) tree = &*tree_overall;
  }
  if (tree == nullptr) return of(parallel, thread) * count;
  return tree->base * count + tree->per_child * children;
}

// Lock operations a thread counted but did not record (a LockOps record).
struct UnrecordedLocks {
  uint32_t thread;
  uint32_t parallel_id;
  uint64_t site;  // the sampling slot + 1, or (a log without slots) the acquiring codeptr
  uint64_t count;
};

struct Frame {
  uint32_t parallel_id;
  uint32_t implicit_task;
  size_t part;  // kNoPart for the initial task
};

// Everything one thread's stream contributes; the threads are walked in turn, epoch by epoch
// (walk_log), each walk resumed where it stopped.
class ThreadWalk {
 public:
  // `light_body`: mean body of a light task per region instance; null on the first pass, which
  // only times the recorded tasks.
  // `part_syncs`: the sync regions of each of the thread's parts, in order (ThreadEvents::part_syncs;
  // empty: not counted).
  ThreadWalk(const RunLog& log, uint32_t thread, const std::vector<uint32_t>& part_syncs, RegionTable& regions,
             const TaskIndex& task_index, const LightBody* light_body, Timeline& out)
      : log_(log), thread_(thread), part_syncs_(part_syncs), regions_(regions), task_index_(task_index),
        light_body_(light_body), out_(out) {
    usage_reading_s_ = static_cast<double>(log.meta.usage_reading_ticks) / log.ticks_per_second;
  }

  void on(const Event& e) {
    // A sample is written when its thread drained them (`time`), with its own time inside: it
    // moves no clock of the walk.
    if (e.kind == EventKind::Sample) {
      frames_left_ = e.detail;
      const double period = log_.meta.sample_period_ns * 1e-9;
      out_.samples.push_back({thread_, log_.seconds((uint64_t{e.id2} << 32) | e.id), period * std::max(1u, e.arg),
                              e.codeptr, {}});
      out_.samples.back().frames.reserve(frames_left_);
      return;
    }
    if (e.kind == EventKind::SampleFrames) {
      for (uint64_t frame : {e.codeptr, (uint64_t{e.id2} << 32) | e.id})
        if (frames_left_ > 0 && !out_.samples.empty()) {
          --frames_left_;
          if (frame) out_.samples.back().frames.push_back(frame);
        }
      return;
    }
    const double t = log_.seconds(e.time);
    last_ = t;
    // Only a body's or a segment's kernel readings may come between an untied light task's hand
    // back and its continuation's end (on_task_schedule).
    const double handed_back_at = light_handed_back_at_;
    if (e.kind != EventKind::ThreadUsage && e.kind != EventKind::HwCounters) light_handed_back_at_ = -1;
    switch (e.kind) {
      case EventKind::ThreadBegin:
        thread_begin_ = t;
        break;
      case EventKind::ToolControl:
        if (e.detail == 1 && !out_.paused.empty() && out_.paused.back().second < 0) out_.paused.back().second = t;
        else if ((e.detail == 2 || e.detail == 4) && (out_.paused.empty() || out_.paused.back().second >= 0))
          out_.paused.emplace_back(t, -1.0);
        break;
      case EventKind::ParallelBegin: {
        const uint32_t r = regions_.of(e.id);
        RegionInstance& s = regions_.regions[r];
        s.codeptr = e.codeptr;
        s.requested_threads = e.arg;
        s.master_thread = thread_;
        s.parent_parallel_id = current_parallel();
        s.begin = t;
        s.end = -1;
        s.light = (e.detail & 1) != 0;
        regions_.begun[r] = true;
        break;
      }
      case EventKind::ParallelEnd: {
        if (RegionInstance* r = regions_.begun_region(e.id)) r->end = t;
        break;
      }
      case EventKind::ImplicitTaskBegin:
        if (e.detail & ompt_task_initial) {
          frames_.push_back({e.id, e.id2, kNoPart});
        } else {
          const size_t handle = regions_.add_part(e.id);
          ThreadInRegion& p = regions_.part(handle);
          p.thread = thread_;
          p.index = e.arg2;
          p.implicit_task = e.id2;
          if (parts_begun_ < part_syncs_.size()) p.syncs.reserve(part_syncs_[parts_begun_]);
          ++parts_begun_;
          p.start = t;
          p.end = -1;
          p.thread_begin = std::exchange(thread_begin_, -1.0);
          frames_.push_back({e.id, e.id2, handle});
          part_start_pending_ = true;
        }
        loop_in_segment_ = false;
        mpi_in_segment_ = 0;
        mark_valid_ = false;
        arrival_valid_ = false;
        break;
      case EventKind::ImplicitTaskEnd:
        mark_valid_ = false;
        arrival_valid_ = false;
        if (!frames_.empty()) {
          close_syncs_of(frames_.back().part, t);
          if (frames_.back().part != kNoPart) {
            ThreadInRegion& part = regions_.part(frames_.back().part);
            part.end = t;
            // Its visits are all in. Sized by the checking read's count they fill their vector;
            // grown by doubling (a log held in memory is not counted) it holds up to twice them,
            // and the parts' visits are the largest share of a loop program's timeline.
            part.syncs.shrink_to_fit();
          }
          frames_.pop_back();
        }
        break;
      case EventKind::WorkBegin:
        work_.push_back(WorkSpan{thread_, e.detail, e.codeptr, t, -1, current_parallel(),
                                 is_loop(e.detail) ? e.arg : 0});
        if (is_loop(e.detail)) {
          loop_iterations_ = e.arg;
          loop_schedule_ = e.detail >= 10 ? e.detail : 0;
        }
        break;
      case EventKind::MaskedBegin:
        work_.push_back(WorkSpan{thread_, kWorkMasked, e.codeptr, t, -1, current_parallel()});
        break;
      case EventKind::MaskedEnd:
        end_work(kWorkMasked, t);
        break;
      case EventKind::WorkEnd:
        end_work(e.detail, t);
        if (is_loop(e.detail)) loop_in_segment_ = true;
        break;
      case EventKind::SyncBegin: {
        SyncVisit v;
        v.kind = classify_sync(e.detail);
        v.codeptr = e.codeptr;
        v.arrive = t;
        v.depart = -1;
        v.follows_loop = loop_in_segment_;
        v.loop_iterations = loop_in_segment_ ? loop_iterations_ : 0;
        v.loop_schedule = loop_in_segment_ ? loop_schedule_ : 0;
        v.nested = !syncs_.empty();
        v.task = running_task_;
        if (v.kind == SyncKind::Barrier || v.kind == SyncKind::JoinBarrier)
          if (const double mpi = std::exchange(mpi_in_segment_, 0.0); mpi != 0) v.write_readings().mpi = mpi;
        v.implicit = is_implicit_barrier(e.detail);
        syncs_.push_back({current_part(), v});
        loop_in_segment_ = false;
        break;
      }
      case EventKind::SyncEnd:
        if (!syncs_.empty()) {
          // A barrier's departure reading comes before its end, where it was taken at all (past
          // an instance's first barriers the capture reads some only, capture/thread_usage.h):
          // an arrival read in it measures no later visit.
          if (syncs_.back().visit.kind == SyncKind::Barrier || syncs_.back().visit.kind == SyncKind::JoinBarrier)
            arrival_valid_ = false;
          syncs_.back().visit.depart = t;
          // The next segment starts at this departure (MPI calls of tasks run in it are the part's).
          if (syncs_.back().visit.kind == SyncKind::Barrier) mpi_in_segment_ = 0;
          finish_sync(syncs_.back());
          syncs_.pop_back();
        }
        break;
      case EventKind::MutexAcquire: {
        LockAcquisition a;
        a.thread = thread_;
        a.wait_id = e.wait_id();
        a.codeptr = e.codeptr;
        a.mutex_kind = e.detail;
        a.parallel_id = current_parallel();
        a.request = t;
        a.acquired = -1;
        a.released = -1;
        locks_.push_back(a);
        break;
      }
      // Lock wait is added to the thread's part once sampling's scales are known (walk_log).
      case EventKind::MutexAcquired:
        if (LockAcquisition* a = find_lock(e.wait_id(), false)) {
          a->acquired = t;
          a->weight = std::max(1u, e.arg);
          a->sampling_slot = static_cast<uint8_t>(e.arg2);
        }
        break;
      case EventKind::NestLockNext:
        // A nest lock taken again by its owner: acquired at once, held until its outer release.
        if (e.detail == ompt_scope_begin) {
          if (LockAcquisition* a = find_lock(e.wait_id(), false)) {
            a->acquired = a->released = t;
            a->weight = std::max(1u, e.arg);
            a->sampling_slot = static_cast<uint8_t>(e.arg2);
            retire_lock(a);
          }
        }
        break;
      case EventKind::LockOps:
        unrecorded_locks.push_back({thread_, current_parallel(), e.detail ? e.detail : e.codeptr, e.arg});
        break;
      case EventKind::MutexReleased:
        if (LockAcquisition* a = find_lock(e.wait_id(), true)) {
          a->released = t;
          retire_lock(a);
        }
        break;
      case EventKind::TaskCreate:
        // The task itself was recorded by the creation pre-pass; here it learns its region.
        if (const uint32_t i = task_index_.find(e.id); i != TaskIndex::kNone)
          out_.tasks[i].parallel_id = current_parallel();
        break;
      case EventKind::TaskSchedule:
        on_task_schedule(e, t, handed_back_at);
        break;
      case EventKind::TaskDependence:
        if (const uint32_t i = task_index_.find(e.id2); i != TaskIndex::kNone && task_index_.contains(e.id))
          out_.tasks[i].add_runtime_predecessor(e.id);
        break;
      case EventKind::ThreadUsage:
        on_usage(e, t);
        break;
      case EventKind::HwCounters:
        on_counters(e);
        break;
      case EventKind::SerialUsage:
        if (thread_ == 0)
          out_.serial_usage.push_back(
              {t, static_cast<double>(e.codeptr) * 1e-9,
               e.arg2 ? static_cast<double>((uint64_t{e.id2} << 32) | e.id) * 1e-9 : -1.0});
        break;
      case EventKind::SerialWaits:
        // The kernel's counts read right after the reading before it (capture/serial_usage.h).
        if (thread_ == 0 && !out_.serial_usage.empty()) {
          SerialReading& r = out_.serial_usage.back();
          r.waits_read = true;
          r.children_cpu_s = static_cast<double>(e.codeptr) * 1e-9;
          r.block_io = e.id + e.id2;
          r.voluntary_switches = e.arg;
        }
        break;
      case EventKind::MpiCall: {
        const double begin = std::min(t, log_.seconds(e.codeptr));
        out_.mpi.push_back({thread_, begin, t});
        // Inside a region (MPI_THREAD_MULTIPLE, or FUNNELED from the master): the part's MPI time
        // and its segment's, which its split and its barrier's imbalance leave out of work.
        if (size_t p = current_part(); p != kNoPart) {
          regions_.part(p).mpi += t - begin;
          mpi_in_segment_ += t - begin;
        }
        break;
      }
      case EventKind::TaskLevels:
        if (const uint32_t parallel = current_parallel(); parallel != 0) {
          const uint32_t counts[] = {e.id, e.id2, e.arg, static_cast<uint32_t>(e.codeptr),
                                     static_cast<uint32_t>(e.codeptr >> 32)};
          for (uint32_t i = 0; i < std::min<uint32_t>(e.detail, 5); ++i)
            if (counts[i] != 0) out_.task_levels.push_back({parallel, e.arg2 + i, counts[i]});
        }
        break;
      case EventKind::LightTasks:
        out_.light_tasks += e.arg;
        if (size_t p = current_part(); p != kNoPart) regions_.part(p).tasks_completed += e.arg;
        if (light_body_) on_light_batch(e, t);
        break;
      default:
        break;
    }
  }

  std::vector<UnrecordedLocks> unrecorded_locks;

  // In no region's part: serial code, or a worker between the parts it runs (an epoch of the walk
  // may end there: walk_log).
  bool outside_regions() const { return current_parallel() == 0; }

  // A stream that stops early (the program died) leaves intervals open: close them at the
  // run's last event, since a thread blocked (on a lock, in a barrier) was blocked until then.
  void finish(double run_end) {
    for (WorkSpan& w : work_) {  // at the thread's own last event: a construct's end is its own
      w.end = last_;
      out_.work.push_back(w);
    }
    work_.clear();
    last_ = std::max(last_, run_end);
    if (running_task_) close_fragment(last_);
    while (!syncs_.empty()) {
      syncs_.back().visit.depart = last_;
      finish_sync(syncs_.back());
      syncs_.pop_back();
    }
    for (const Frame& f : frames_)
      if (f.part != kNoPart && regions_.part(f.part).end < 0) regions_.part(f.part).end = last_;
    for (LockAcquisition& a : locks_) {
      if (a.acquired < 0) a.acquired = last_;
      a.released = last_;
      out_.locks.push_back(a);
    }
    locks_.clear();
  }

 private:
  struct UsageReading {
    double time;
    uint64_t cpu_ns;
    uint32_t system_us, minor_faults;
    uint16_t switches, voluntary_switches;  // involuntary, voluntary (event_record.h: ThreadUsage)
    uint16_t major_faults;
    // Since `from`: where the thread was switched out involuntarily between the two readings, the
    // wall time its CPU time does not cover (runnable, not running); 0 where it was not.
    double off_cpu_since(const UsageReading& from) const {
      if (switches == from.switches) return 0;
      return std::max(0.0, (time - from.time) - static_cast<double>(cpu_ns - from.cpu_ns) * 1e-9);
    }
  };

  // A reading at the start of a stretch of work marks it; the reading at its end (a barrier
  // arrival) adds the difference to the thread's part and to the barrier visit it arrives at.
  void on_usage(const Event& e, double t) {
    const UsageReading r{t,
                         e.codeptr,
                         e.id,
                         e.id2,
                         static_cast<uint16_t>(e.arg & 0xffffu),
                         static_cast<uint16_t>(e.arg >> 16),
                         e.arg2};
    // A recorded task's body read at its edges, inside the fragment now running: what it spent
    // switched out involuntarily goes to that fragment, nothing to the stretches of work. The
    // readings are the tool's: the body runs from the first one's record (taken after it) to the
    // start of the second (its record less one reading), and the fragment is that.
    if (e.detail == kUsageBodyStarts || e.detail == kUsageBodyEnds) {
      if (running_task_ == 0) return;
      if (e.detail == kUsageBodyStarts) {
        if (running_since_ <= t) running_since_ = t;
        body_.mark = r;
        body_.started = true;
      } else if (body_.started) {
        body_.off_cpu_s += r.off_cpu_since(body_.mark);
        body_.started = false;
        body_.end = std::max(running_since_, t - usage_reading_s_);
        body_.ended = true;
      }
      return;
    }
    const size_t p = current_part();
    stretch_part_ = kNoPart;
    // The reading at a part's start, beside the thread's last arrival before it (at the previous
    // part's join barrier): switched out involuntarily between them, the wall time its CPU time
    // does not cover is time it was runnable and not running. libomp's worker leaves that join
    // barrier only when the next fork wakes it, so a worker switched out there starts the next
    // part late (false_sharing beside a busy loop: 7 ms after the fork, its join departure read
    // then).
    const bool part_start = std::exchange(part_start_pending_, false);  // only the part's first reading
    if (e.detail == 0 && part_start && p != kNoPart && arrived_)
      regions_.part(p).start_off_cpu_s = static_cast<float>(r.off_cpu_since(arrival_));
    if (e.detail == 0) {
      // A departure from the barrier the last end edge arrived at: where the thread was switched
      // out involuntarily in the visit, the wall time its CPU time does not cover is time it was
      // runnable and not running (another process held its CPU), which can hold the barrier's
      // release back (barrier_phases). A voluntary sleep in the runtime's wait is the barrier's.
      if (arrival_valid_ && p != kNoPart && !syncs_.empty() && syncs_.back().part == p) {
        SyncVisit& v = syncs_.back().visit;
        const double cpu = static_cast<double>(r.cpu_ns - arrival_.cpu_ns) * 1e-9;
        const bool preempted = r.switches != arrival_.switches;
        if (preempted) v.write_readings().off_cpu = r.off_cpu_since(arrival_);
        // A visit in which the thread ran tasks: its bodies' kernel accounting (a task region's
        // bodies run in barriers, outside every work stretch).
        if (v.tasks > 0) {
          TaskVisitsUsage& visits = regions_.part(p).write_task_visits();
          WorkUsage& u = visits.usage;
          u.wall_s += cpu + (preempted ? v.readings().off_cpu : 0.0);
          u.cpu_s += cpu;
          u.system_s += static_cast<uint32_t>(r.system_us - arrival_.system_us) * 1e-6;
          u.minor_faults += static_cast<uint32_t>(r.minor_faults - arrival_.minor_faults);
          u.major_faults += static_cast<uint16_t>(r.major_faults - arrival_.major_faults);
          u.switches += static_cast<uint16_t>(r.switches - arrival_.switches);
          u.voluntary_switches += static_cast<uint16_t>(r.voluntary_switches - arrival_.voluntary_switches);
          u.readings += 1;
          visits.tasks_s += v.tasks;
        }
      }
      arrival_valid_ = false;
      counters_valid_ = false;  // until this edge's counters come
      mark_ = r;
      mark_valid_ = p != kNoPart;
      return;
    }
    arrival_valid_ = p != kNoPart && !syncs_.empty() && syncs_.back().part == p;
    arrival_ = r;
    arrived_ = true;
    if (!mark_valid_ || p == kNoPart) return;
    mark_valid_ = false;
    // At an implicit task's end (no barrier open) only a team without a join barrier ends its
    // work there; after the join barrier's late departure, the time since is idle, not work.
    if (syncs_.empty() || syncs_.back().part != p) {
      const std::vector<SyncVisit>& syncs = regions_.part(p).syncs;
      if (std::any_of(syncs.begin(), syncs.end(), [](const SyncVisit& v) { return v.implicit; })) return;
    }
    WorkUsage& u = regions_.part(p).write_usage();
    const double cpu = static_cast<double>(r.cpu_ns - mark_.cpu_ns) * 1e-9;
    u.wall_s += r.time - mark_.time;
    u.cpu_s += cpu;
    // Cumulative counters truncated to their field: differences modulo the width.
    u.system_s += static_cast<uint32_t>(r.system_us - mark_.system_us) * 1e-6;
    u.minor_faults += static_cast<uint32_t>(r.minor_faults - mark_.minor_faults);
    u.major_faults += static_cast<uint16_t>(r.major_faults - mark_.major_faults);
    u.switches += static_cast<uint16_t>(r.switches - mark_.switches);
    u.voluntary_switches += static_cast<uint16_t>(r.voluntary_switches - mark_.voluntary_switches);
    u.readings += 1;
    if (!syncs_.empty() && syncs_.back().part == p) syncs_.back().visit.write_readings().cpu = cpu;
    stretch_part_ = p;
    stretch_s_ = r.time - mark_.time;
  }

  // Hardware counters come right after the ThreadUsage record of the same edge: a stretch gets
  // them where both of its edges read them and its kernel accounting was counted.
  struct CounterReading {
    uint64_t cycles = 0, instructions = 0;
    uint32_t llc_misses = 0;
  };
  void on_counters(const Event& e) {
    const CounterReading c{e.codeptr, (uint64_t{e.id2} << 32) | e.id, e.arg};
    if (e.detail == 0) {
      counters_mark_ = c;
      counters_valid_ = mark_valid_;
      return;
    }
    const size_t p = stretch_part_;
    const bool valid = counters_valid_ && p != kNoPart && p == current_part();
    counters_valid_ = false;
    stretch_part_ = kNoPart;
    if (!valid) return;
    WorkUsage& u = regions_.part(p).write_usage();
    u.counted_s += stretch_s_;
    u.cycles += static_cast<double>(c.cycles - counters_mark_.cycles);
    u.instructions += static_cast<double>(c.instructions - counters_mark_.instructions);
    u.llc_misses += static_cast<uint32_t>(c.llc_misses - counters_mark_.llc_misses);
  }

  uint32_t current_parallel() const {
    for (auto it = frames_.rbegin(); it != frames_.rend(); ++it)
      if (it->part != kNoPart) return it->parallel_id;
    return 0;
  }
  size_t current_part() const { return frames_.empty() ? kNoPart : frames_.back().part; }

  bool is_implicit_task(uint32_t id) const {
    return std::any_of(frames_.begin(), frames_.end(), [&](const Frame& f) { return f.implicit_task == id; });
  }

  LockAcquisition* find_lock(uint64_t wait_id, bool acquired) {
    for (auto it = locks_.rbegin(); it != locks_.rend(); ++it)
      if (it->wait_id == wait_id && (it->acquired >= 0) == acquired) return &*it;
    return nullptr;
  }

  void retire_lock(LockAcquisition* a) {
    out_.locks.push_back(*a);
    locks_.erase(locks_.begin() + (a - locks_.data()));
  }

  void end_work(uint8_t work, double t) {
    for (size_t k = work_.size(); k-- > 0;) {
      if (work_[k].work != work) continue;
      work_[k].end = t;
      out_.work.push_back(work_[k]);
      work_.erase(work_.begin() + static_cast<std::ptrdiff_t>(k));
      return;
    }
  }

  void finish_sync(const OpenSync& s) {
    if (s.part == kNoPart) return;
    regions_.part(s.part).syncs.push_back(s.visit);
  }

  void close_syncs_of(size_t part, double t) {
    while (!syncs_.empty() && syncs_.back().part == part) {
      syncs_.back().visit.depart = t;
      finish_sync(syncs_.back());
      syncs_.pop_back();
    }
  }

  void close_fragment(double t) {
    if (body_.ended) t = std::min(t, body_.end);  // its edges read: the body ended before them
    if (const uint32_t i = task_index_.find(running_task_); i != TaskIndex::kNone)
      out_.tasks[i].fragments.push_back({thread_, running_since_, t, static_cast<float>(body_.off_cpu_s), body_.ended});
    add_task_time(running_since_, t, running_task_);
    running_task_ = 0;
    body_ = {};
  }

  // Task time inside a barrier or taskwait is not waiting: every enclosing visit gets the part
  // of [from, to] after its arrival, except a taskwait opened by `task` itself (it is suspended
  // there, not running).
  void add_task_time(double from, double to, uint32_t task) {
    bool inside_sync = false;
    for (OpenSync& s : syncs_) {
      if (task != 0 && s.visit.task == task) continue;
      s.visit.tasks += std::max(0.0, to - std::max(from, s.visit.arrive));
      inside_sync = true;
    }
    if (!inside_sync)
      if (size_t p = current_part(); p != kNoPart) regions_.part(p).tasks_outside_syncs += to - from;
  }

  // Light tasks ran from the batch's start on; how long, the log does not say: the count times
  // the mean recorded body on this thread in the region, within the time until this record.
  void on_light_batch(const Event& e, double t) {
    if (e.arg == 0) return;
    const double begin = std::min(t, log_.seconds(e.codeptr));
    const uint32_t parallel = current_parallel();
    const double end = begin + std::min(t - begin, light_body_->batch(parallel, thread_, e.arg, e.id));
    TaskInstance batch;
    batch.light = e.arg;
    batch.light_children = e.id;
    batch.parallel_id = parallel;
    batch.creator_thread = thread_;
    batch.created = begin;
    batch.completed = end;
    batch.fragments.push_back({thread_, begin, end});
    out_.tasks.push_back(std::move(batch));
    last_batch_ = out_.tasks.size() - 1;
    add_task_time(begin, end, 0);
  }

  // libomp runs an untied task as parts: at its start it hands its continuation back to the task
  // it was started from (a switch to it, not a completion: kmp_tasking.cpp, "scheduling the
  // continuation of an UNTIED task"), then runs it at once (a switch from the task to itself).
  // Where that task is a recorded one and the untied one light, the hand back is recorded (a
  // recorded task resumes) and its light batch written before it, its window ending 30-60 ns
  // after the body's start; the body runs after it, unrecorded, and completes into the recorded
  // task. The next record of the thread being that completion says so: the batch ran until then.
  // Capped at its window, BOTS sparselu's light tasks took 0.15 us for 5.2 (the bodies' own time,
  // as the capture timed them).
  void extend_light_batch(double handed_back_at, double t) {
    if (light_body_ == nullptr || last_batch_ == kNoBatch) return;
    TaskInstance& batch = out_.tasks[last_batch_];
    if (batch.completed > handed_back_at || batch.fragments.empty()) return;
    const double end =
        batch.created + std::min(t - batch.created, light_body_->batch(batch.parallel_id, thread_, batch.light, batch.light_children));
    if (end <= batch.completed) return;
    add_task_time(batch.completed, end, 0);
    batch.completed = end;
    batch.fragments.back().end = end;
  }

  void on_task_schedule(const Event& e, double t, double handed_back_at) {
    const uint32_t prior = e.id, next = e.id2;
    // Compared as the recorded byte: a damaged log may hold a value outside ompt_task_status_t,
    // and converting it to the enum would be undefined (found by tests/fuzz).
    const uint8_t status = e.detail;
    if (prior == 0 && status == ompt_task_complete && next != 0 && next == running_task_ && handed_back_at >= 0)
      extend_light_batch(handed_back_at, t);
    if (running_task_ != 0 && running_task_ == prior) close_fragment(t);
    if (status == ompt_task_complete || status == ompt_task_cancel || status == ompt_task_late_fulfill) {
      const uint32_t i = task_index_.find(prior);
      if (i != TaskIndex::kNone && out_.tasks[i].completed < 0) {
        out_.tasks[i].completed = t;
        if (size_t p = current_part(); p != kNoPart) ++regions_.part(p).tasks_completed;
      }
    }
    // A light task (not in the index) is not followed: its batch record accounts for it.
    if (next != 0 && !is_implicit_task(next) && task_index_.contains(next)) {
      running_task_ = next;
      running_since_ = t;
      body_ = {};
      if (prior == 0 && status == ompt_task_switch) light_handed_back_at_ = t;  // an untied one's hand back?
    }
  }

  const RunLog& log_;
  uint32_t thread_;
  const std::vector<uint32_t>& part_syncs_;
  size_t parts_begun_ = 0;  // the thread's parts begun so far: the next one's count in part_syncs_
  RegionTable& regions_;
  const TaskIndex& task_index_;
  const LightBody* light_body_;
  UsageReading mark_{};
  bool mark_valid_ = false;
  bool part_start_pending_ = false;  // a part began and its first reading has not come yet
  // The last end edge's reading, at a barrier arrival; valid for its visit while arrival_valid_,
  // and for the thread's next part start once any was read (arrived_).
  UsageReading arrival_{};
  bool arrival_valid_ = false;
  bool arrived_ = false;
  CounterReading counters_mark_{};
  bool counters_valid_ = false;
  size_t stretch_part_ = kNoPart;  // the part the last stretch's kernel accounting went to
  double stretch_s_ = 0;
  Timeline& out_;

  std::vector<Frame> frames_;
  std::vector<OpenSync> syncs_;
  std::vector<LockAcquisition> locks_;  // requested or held, not yet released
  std::vector<WorkSpan> work_;          // begun, not yet ended
  uint32_t running_task_ = 0;
  double running_since_ = 0;
  static constexpr size_t kNoBatch = static_cast<size_t>(-1);
  size_t last_batch_ = kNoBatch;        // this thread's last light batch, in out_.tasks
  double light_handed_back_at_ = -1;    // the last record: a light task's switch to a recorded one
  // The running fragment's body read at its edges (ThreadUsage edges 2 and 3).
  struct BodyReadings {
    UsageReading mark{};   // the reading at its start, while `started`
    bool started = false;
    bool ended = false;    // its end was read: the body ended at `end`
    double end = 0;
    double off_cpu_s = 0;  // its time off the CPU between its readings
  } body_;
  double usage_reading_s_ = 0;  // one reading's cost (RunMeta::usage_reading_ticks)
  double thread_begin_ = -1;  // until the thread's first region takes it
  bool loop_in_segment_ = false;
  double mpi_in_segment_ = 0;  // MPI calls since the segment began (the part's start or last sync)
  uint32_t loop_iterations_ = 0;  // of the last loop begun
  uint8_t loop_schedule_ = 0;     // its schedule as reported (libomp 19), 0: none
  double last_ = 0;
  uint32_t frames_left_ = 0;  // of the last Sample, in the SampleFrames records to come
};

}  // namespace

double TaskInstance::exclusive() const {
  double sum = 0;
  for (const TaskFragment& f : fragments) sum += f.end - f.begin;
  return sum;
}

void time_queued_behind_others(const std::vector<const LockAcquisition*>& by_acquired, std::vector<double>& out) {
  out.assign(by_acquired.size(), 0.0);
  for (size_t i = 1; i < by_acquired.size(); ++i) {
    const LockAcquisition& a = *by_acquired[i];
    if (by_acquired[i - 1]->thread == a.thread || by_acquired[i - 1]->released <= a.request) continue;
    // Back over the acquisitions ahead of it whose request-to-release ended inside the wait (holds
    // of one lock follow one another, so the first that ended before the request ends the walk),
    // adding the union of those stretches from the request on. A thread waits for one acquisition
    // at a time, so each is walked over once per other thread: linear in the records.
    double queued = 0, low = a.acquired, high = a.acquired;  // the stretch being merged
    for (size_t j = i; j-- > 0;) {
      const LockAcquisition& h = *by_acquired[j];
      if (h.released <= a.request) break;
      const double from = std::max(h.request, a.request), to = std::min(h.released, a.acquired);
      if (to < low) {  // ends (releases fall going back) before the stretch merged so far: a gap
        queued += high - low;
        high = to;
      }
      low = std::min(low, from);
    }
    out[i] = queued + (high - low);
  }
}

namespace {

struct WeightedBody {
  double body;
  double weight;
};

// The weighted mean with every body above the weighted 99th percentile counted as that
// percentile. Noise only ever lengthens a recorded body (a preemption, a timer interrupt, the
// log writer taking the core), and the weight multiplies it: one recorded task preempted for
// 0.74 ms, standing for 128 creations, made the light tasks of fine_tasks 3.5 times longer than
// in a run recording every task. Fewer than 100 bodies: the plain weighted mean.
double winsorized_mean(std::vector<WeightedBody> samples) {
  double total = 0;
  for (const WeightedBody& s : samples) total += s.weight;
  if (total <= 0) return 0;
  std::sort(samples.begin(), samples.end(), [](const WeightedBody& a, const WeightedBody& b) { return a.body < b.body; });
  double cap = samples.back().body, below = 0;
  if (samples.size() >= 100)
    for (const WeightedBody& s : samples)
      if ((below += s.weight) >= 0.99 * total) {
        cap = s.body;
        break;
      }
  double sum = 0;
  for (const WeightedBody& s : samples) sum += std::min(s.body, cap) * s.weight;
  return sum / total;
}

// The value at the 99th percentile of `v` (reordered).
double percentile_99(std::vector<double>& v) {
  auto at = v.begin() + static_cast<std::ptrdiff_t>(0.99 * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), at, v.end());
  return *at;
}

struct ChildrenAndBody {
  double children;
  double body;
};

// The least-squares line of the bodies on the tasks created, each body above the 99th percentile
// counted as that percentile (noise only ever lengthens one, as in winsorized_mean); none where
// fewer than 100 tasks, all created as many, or the line has a negative part.
std::optional<TreeBody> fit_tree_body(const std::vector<ChildrenAndBody>& samples) {
  if (samples.size() < 100) return std::nullopt;
  std::vector<double> bodies;
  bodies.reserve(samples.size());
  for (const ChildrenAndBody& s : samples) bodies.push_back(s.body);
  const double cap = percentile_99(bodies), n = static_cast<double>(samples.size());
  double mean_children = 0, mean_body = 0;
  for (const ChildrenAndBody& s : samples) {
    mean_children += s.children / n;
    mean_body += std::min(s.body, cap) / n;
  }
  double sxx = 0, sxy = 0;
  for (const ChildrenAndBody& s : samples) {
    sxx += (s.children - mean_children) * (s.children - mean_children);
    sxy += (s.children - mean_children) * (std::min(s.body, cap) - mean_body);
  }
  if (sxx <= 0) return std::nullopt;
  const TreeBody line{mean_body - sxy / sxx * mean_children, sxy / sxx};
  if (line.base < 0 || line.per_child < 0) return std::nullopt;
  return line;
}

// The body of a light task, estimated from the recorded ones: per region instance and thread
// that ran them, the winsorized mean over those recorded after the sampled phase began
// (weight > 1; the light ones are their siblings), each counted as often as its weight says.
// Per thread, because the same body costs more on a thread that stole the task (its data is in
// the creator's cache): on a 2-vCPU AMD VM, fine_tasks' worker took 250 ns per task against its
// creator's 30. Where a thread recorded too few of them: the region's over the sampled phase;
// else over all recorded; else over the whole run.
// A body is the task's own work: its fragments less the time it sat in its own taskwaits and
// taskgroups running nothing. A light task's waits are not recorded, and in a recursive tree the
// recorded tasks are the ones that wait (fib_tasks 26 at 2 threads: a mean body of 303 ns with
// the waits, 120 ns without, 131 ns recording every task): the waits stay waiting in the visit
// around the batch.
// A batch of a recursive tree (LightBody::batch) by the line of the bodies on the tasks created,
// fitted per region instance (else over the run) on the tasks whose creations were all recorded:
// recorded with weight 1 (their creator's site was not sampling yet) and with no recorded child
// standing for light ones. In a tree run depth-first those are its first subtrees, every level.
// A body read at its edges is a sample of the bodies' length where it lasts this many readings.
constexpr double kReadBodySampleReadings = 64;

// Light tasks the capture timed (their own time: capture/recorder.h, kLightTimedEvery) stand for
// the light tasks wherever at least kFewestTimed were timed: a recorded body's window holds the
// tool's records (on a 2-vCPU Sapphire Rapids VM fine_tasks' creator read 74 ns recorded against
// 51 ns timed, and CI's runner 111-131 ns recorded, its graph's parallelism 4.1-8.1 where it is
// 1.2), and in a tree the recorded tasks of the sampled phase are its upper levels (BOTS fft: 2.2
// µs a light task from the recorded leaves against 1.2 µs a task recording every one). Each batch's
// mean weighs as many as it timed, capped at the same 99th percentile: a timed task preempted is
// as rare and as long as a recorded one.
constexpr size_t kFewestTimed = 8;

// The light bodies the capture timed start to end (event_record.h, LightTasks), per region
// instance and thread (region_thread_key): each batch's mean and how many.
struct TimedLightBatch {
  double mean_s;
  uint32_t count;
};
using TimedLight = std::unordered_map<uint64_t, std::vector<TimedLightBatch>>;

MeanBody timed_light_body(const TimedLight& timed_light) {
  MeanBody out;
  const auto enough_timed = [&](const std::vector<WeightedBody>& batches) {
    double timed = 0;
    for (const WeightedBody& b : batches) timed += b.weight;
    return timed >= kFewestTimed;
  };
  std::unordered_map<uint32_t, std::vector<WeightedBody>> timed_regions;
  std::vector<WeightedBody> timed_run;
  for (const auto& [key, batches] : timed_light) {
    std::vector<WeightedBody> samples;
    for (const TimedLightBatch& b : batches) samples.push_back({b.mean_s, static_cast<double>(b.count)});
    std::vector<WeightedBody>& region = timed_regions[static_cast<uint32_t>(key >> 32)];
    region.insert(region.end(), samples.begin(), samples.end());
    timed_run.insert(timed_run.end(), samples.begin(), samples.end());
    if (enough_timed(samples)) out.per_thread[key] = winsorized_mean(std::move(samples));
  }
  for (auto& [parallel, samples] : timed_regions)
    if (enough_timed(samples)) out.per_region[parallel] = winsorized_mean(std::move(samples));
  if (enough_timed(timed_run)) out.overall = winsorized_mean(std::move(timed_run));
  return out;
}

// What the recorded tasks say of the light ones (LightBody::recorded and the tree's line); the
// timed ones are read with the creations (read_creations).
LightBody light_body_of(const Timeline& first_pass) {
  constexpr size_t kFewestPerThread = 8;  // recorded tasks a thread's own mean needs
  struct Samples {
    std::vector<WeightedBody> sampled, all;
  };
  std::unordered_map<uint32_t, std::vector<std::pair<double, double>>> own_waits;  // by task id
  for (const RegionInstance& r : first_pass.regions)
    for (const ThreadInRegion& part : r.threads)
      for (const SyncVisit& v : part.syncs)
        if (v.task != 0 && v.kind != SyncKind::Other) own_waits[v.task].emplace_back(v.arrive, v.depart);
  std::unordered_map<uint32_t, Samples> regions;
  std::unordered_map<uint64_t, std::vector<WeightedBody>> threads;
  std::vector<WeightedBody> run;
  const TaskIndex index(first_pass.tasks);
  constexpr uint32_t kUnknown = std::numeric_limits<uint32_t>::max();  // a child stands for light ones
  std::vector<uint32_t> children(first_pass.tasks.size(), 0);
  for (const TaskInstance& t : first_pass.tasks)
    if (const uint32_t parent = index.find(t.parent); parent != TaskIndex::kNone)
      children[parent] = t.weight > 1 || children[parent] == kUnknown ? kUnknown : children[parent] + 1;
  std::unordered_map<uint32_t, std::vector<ChildrenAndBody>> tree_regions;
  std::vector<ChildrenAndBody> tree_run;
  for (size_t i = 0; i < first_pass.tasks.size(); ++i) {
    const TaskInstance& t = first_pass.tasks[i];
    if (t.fragments.empty()) continue;
    // A body read at its edges holds what its second reading cost beyond the cheapest one, 1-5 us
    // on a VM, and a window of two readings that a preemption lands in far more often than a
    // 30 ns body: weighted by the hundreds of sampled-out tasks it stands for, a few such bodies
    // made fine_tasks' light bodies 30-97 ns for 20. Its length is a sample only where it is long
    // beside a reading (kReadBodySampleReadings of them), its time off the CPU taken out.
    double body = t.exclusive();
    bool read = false;
    for (const TaskFragment& f : t.fragments) {
      body -= f.off_cpu_s;
      read = read || f.read;
    }
    if (read && body < kReadBodySampleReadings * first_pass.kernel.usage_reading_s) continue;
    if (auto waits = own_waits.find(t.id); waits != own_waits.end())
      for (const TaskFragment& f : t.fragments)
        for (const auto& [arrive, depart] : waits->second)  // a task's own waits do not overlap
          body -= std::max(0.0, std::min(f.end, depart) - std::max(f.begin, arrive));
    body = std::max(0.0, body);
    if (t.weight == 1 && children[i] != kUnknown) {
      tree_regions[t.parallel_id].push_back({static_cast<double>(children[i]), body});
      tree_run.push_back({static_cast<double>(children[i]), body});
    }
    Samples& s = regions[t.parallel_id];
    s.all.push_back({body, 1});
    run.push_back({body, 1});
    if (t.weight > 1) {
      s.sampled.push_back({body, static_cast<double>(t.weight)});
      threads[region_thread_key(t.parallel_id, t.fragments.front().thread)].push_back({body, static_cast<double>(t.weight)});
    }
  }
  LightBody out;
  for (auto& [parallel, s] : regions)
    out.recorded.per_region[parallel] = winsorized_mean(s.sampled.empty() ? std::move(s.all) : std::move(s.sampled));
  for (auto& [key, samples] : threads)
    if (samples.size() >= kFewestPerThread) out.recorded.per_thread[key] = winsorized_mean(std::move(samples));
  out.recorded.overall = winsorized_mean(std::move(run));
  for (const auto& [parallel, samples] : tree_regions)
    if (const auto line = fit_tree_body(samples)) out.tree_per_region[parallel] = *line;
  out.tree_overall = fit_tree_body(tree_run);
  return out;
}

// Groups of lock operations by key, numbered in the order they are first met. Consecutive records
// mostly share their key (a thread's operations at one site in one instance), so the last one
// found is tried first; the others are found through an open-addressed index (a node allocated
// per key was 18% of a loop log's timeline, when every record's instance was a group).
class LockGroups {
 public:
  using Key = std::tuple<uint32_t, uint64_t, uint64_t>;  // thread, site, region instance or callsite

 private:
  struct Hash {
    size_t operator()(const Key& k) const {
      uint64_t h = std::get<0>(k) * 0x9E3779B97F4A7C15ull;
      h = (h ^ std::get<1>(k)) * 0xBF58476D1CE4E5B9ull;
      h = (h ^ std::get<2>(k)) * 0x94D049BB133111EBull;
      return static_cast<size_t>(h ^ (h >> 31));
    }
  };
  DenseIndex<Key, Hash> index_;
  uint32_t last_ = 0;

 public:
  static constexpr uint32_t kNone = DenseIndex<Key, Hash>::kNone;
  explicit LockGroups(size_t expected = 0) : index_(expected) {}
  uint32_t of(const Key& k) {
    if (!index_.empty() && k == index_.key(last_)) return last_;
    return last_ = index_.add(k).first;
  }
  // The key's group; kNone where it has none.
  uint32_t find(const Key& k) const { return index_.find(k); }
  const Key& key(uint32_t g) const { return index_.key(g); }
  uint32_t size() const { return static_cast<uint32_t>(index_.size()); }
};

// Lock sampling (docs/locks.md): how many operations each recorded acquisition stands for, and
// the caps on its durations; returns the operations left untimed. A "site" is the capture's
// sampling slot (the sites hashed to it share its schedule). A thread's operations at a
// site in one region instance are its records' weights plus the unrecorded ones it counted
// there (LockOps), spread over those records in proportion to their weights; where an instance
// recorded none, over the thread's records at that site in the other instances of the region.
// The caps: a weight multiplies a duration, and noise only ever lengthens one (a preemption
// while waiting or holding), so a duration above the 99th percentile of the thread's recorded
// ones at that site and region counts as that percentile. Multiplying each record by its own
// weight uncapped let one preempted acquisition stand for 16 preempted ones: a thread showed a
// lock wait of 3.74 s inside a 1.38 s region, and one lock of 334 600 was "held 134%" of it.
// A record that stands for itself multiplies nothing: its hold is what it was (the lock was held
// that long, others waited), and where every operation of its lock was recorded a wait keeps,
// beyond the percentile, the time it queued behind others. Capped whole, the waits a 1.5-CPU quota's stops (25 ms in every
// 100) lengthened while the holder was stopped too gave 58 ms per thread of shared_lock_fortran's
// queueing to its work, read as the CPU running slower and ranked above the lock; uncapped, a
// per-thread lock's wait interrupted by the kernel read as a lock costing 64 ns, not 19.
void apply_lock_sampling(std::vector<LockAcquisition>& locks, const std::vector<UnrecordedLocks>& unrecorded,
                             const RegionTable& instances_of, const LockRecordCorrection& correction) {
  // Each record's group by region (thread, site, the region's callsite), and by instance (thread,
  // site, region instance) where the capture counted unrecorded operations in that instance: a
  // record's scale is its weight times its instance group's (weights + unrecorded) / weights,
  // exactly its weight where nothing went unrecorded, so only the instances the unrecorded counts
  // name are grouped (a loop program's log has an instance per lock record: numbering them all
  // was 18% of its timeline's build). A group's sums are taken over its records in the log's
  // order, as the lists of a tree map of groups held them (a map node and a list for each
  // instance and thread were a sixth of the walk's time on the 10 M synthetic log, most of it
  // allocating).
  uint32_t hint = RegionTable::kNoRegion;
  const auto callsite = [&](uint32_t parallel) -> uint64_t {
    const RegionInstance* r = parallel == 0 ? nullptr : instances_of.begun_region(parallel, hint);
    return r ? r->codeptr : 0;
  };
  LockGroups instances(unrecorded.size()), regions;
  std::vector<double> instance_unrecorded;  // by instance group: the operations it did not record
  for (const UnrecordedLocks& u : unrecorded) {
    const uint32_t g = instances.of({u.thread, u.site, u.parallel_id});
    if (g == instance_unrecorded.size()) instance_unrecorded.push_back(0);
    instance_unrecorded[g] += static_cast<double>(u.count);
  }
  std::vector<double> weights(instances.size(), 0.0);  // and its records' weights
  std::vector<size_t> instance_records(instances.size(), 0);
  std::vector<uint32_t> instance_of(locks.size()), region_of(locks.size());
  for (size_t i = 0; i < locks.size(); ++i) {
    const LockAcquisition& a = locks[i];
    const uint64_t site = a.sampling_slot ? a.sampling_slot : a.codeptr;
    const uint32_t g = instances.find({a.thread, site, a.parallel_id});
    instance_of[i] = g;
    if (g != LockGroups::kNone) {
      weights[g] += a.weight;
      ++instance_records[g];
    }
    region_of[i] = regions.of({a.thread, site, callsite(a.parallel_id)});
  }
  std::vector<double> region_unrecorded(regions.size(), 0.0);
  for (uint32_t g = 0; g < instances.size(); ++g) {
    if (instance_records[g] > 0) continue;
    const auto& [thread, site, parallel] = instances.key(g);
    const uint32_t r = regions.of({thread, site, callsite(static_cast<uint32_t>(parallel))});
    if (r == region_unrecorded.size()) region_unrecorded.push_back(0);
    region_unrecorded[r] += instance_unrecorded[g];
  }
  for (size_t i = 0; i < locks.size(); ++i) {
    const uint32_t g = instance_of[i];
    locks[i].scale = g == LockGroups::kNone ? locks[i].weight
                                            : locks[i].weight * ((weights[g] + instance_unrecorded[g]) / weights[g]);
  }
  std::vector<uint32_t>().swap(instance_of);
  // Operations of a region whose thread recorded none at that site (rare: a site's first
  // operations are always recorded) have no time to stand for.
  std::vector<double> region_scale(regions.size(), 0.0);
  std::vector<uint32_t> region_records(regions.size(), 0);
  for (size_t i = 0; i < locks.size(); ++i) {
    region_scale[region_of[i]] += locks[i].scale;
    ++region_records[region_of[i]];
  }
  for (size_t i = 0; i < locks.size(); ++i) {
    const uint32_t r = region_of[i];
    if (region_unrecorded[r] > 0) locks[i].scale *= (region_scale[r] + region_unrecorded[r]) / region_scale[r];
  }
  // The records of each region group of 100 or more, in the log's order.
  std::vector<uint32_t> first(regions.size() + 1, 0);
  for (uint32_t r = 0; r < regions.size(); ++r) first[r + 1] = first[r] + (region_records[r] >= 100 ? region_records[r] : 0);
  std::vector<uint32_t> members(first.back());
  {
    std::vector<uint32_t> filled(first.begin(), first.end() - 1);
    for (size_t i = 0; i < locks.size(); ++i)
      if (region_records[region_of[i]] >= 100) members[filled[region_of[i]]++] = static_cast<uint32_t>(i);
  }
  // A record that stands for itself keeps its hold whole, and a wait above its cap the time it
  // queued behind others (time_queued_behind_others) where every operation of the lock was
  // recorded: those locks are gathered after the caps, from the records above them alone (a pass
  // over all of lock_per_item's 2 M records by lock cost 20% more CPU, read out of order).
  std::vector<double> waits, holds;
  std::unordered_map<uint64_t, std::vector<const LockAcquisition*>> over_cap;  // by lock
  for (uint32_t r = 0; r < regions.size(); ++r) {
    const std::span<const uint32_t> records(members.data() + first[r], first[r + 1] - first[r]);
    if (records.empty()) continue;
    waits.clear();
    holds.clear();
    for (uint32_t i : records) {
      waits.push_back(locks[i].wait(correction));  // not capped yet
      holds.push_back(locks[i].hold(correction));
    }
    const double wait_cap = percentile_99(waits), hold_cap = percentile_99(holds);
    for (uint32_t i : records) {
      LockAcquisition& a = locks[i];
      if (a.stands_for_itself() && a.wait(correction) > wait_cap) over_cap.try_emplace(a.wait_id);
      a.wait_cap = wait_cap;
      if (!a.stands_for_itself()) a.hold_cap = hold_cap;
    }
  }
  if (over_cap.empty()) return;
  for (const LockAcquisition& a : locks)
    if (auto it = over_cap.find(a.wait_id); it != over_cap.end()) it->second.push_back(&a);
  std::vector<double> held;
  for (auto& [wait_id, list] : over_cap) {
    if (!std::all_of(list.begin(), list.end(), [](const LockAcquisition* a) { return a->stands_for_itself(); })) continue;
    std::sort(list.begin(), list.end(), [](const LockAcquisition* x, const LockAcquisition* y) { return x->acquired < y->acquired; });
    time_queued_behind_others(list, held);
    for (size_t k = 0; k < list.size(); ++k) locks[static_cast<size_t>(list[k] - locks.data())].wait_cap += held[k];
  }
}

// Of the checking read's counts, the log's records of these kinds.
size_t count_of(const RunLog& log, std::initializer_list<EventKind> kinds) {
  size_t n = 0;
  for (const ThreadEvents& thread : log.threads)
    for (EventKind k : kinds) n += thread.count(k);
  return n;
}

// Task creations must be known before another thread's schedule events name them: the creations
// of all threads (each task and its depend clause) are read before the walk. Where `timed` is
// given, the same read gathers the light tasks the capture timed, by region instance and thread
// (ThreadWalk::current_parallel, from the implicit tasks' begins and ends), thread after thread in
// the log's order, and the light tasks run (`light`). A thread that created no task, nor (where
// asked) ran light ones, is not read: a loop program's log is then read twice, not three times
// (the checking read's counts say so). Sized first: growing the vector of 400 000 tasks a push at a
// time was 6% of the analysis of a task-heavy run, and a vector grown by doubling holds up to twice
// its records.
std::vector<TaskInstance> read_creations(const RunLog& log, TimedLight* timed = nullptr, uint64_t* light = nullptr) {
  std::vector<TaskInstance> tasks;
  tasks.reserve(count_of(log, {EventKind::TaskCreate, EventKind::LightTasks}));
  struct Frame {
    uint32_t parallel_id;
    bool part;  // a region's implicit task, not the initial one
  };
  std::vector<Frame> frames;
  for (const ThreadEvents& thread : log.threads) {
    if (thread.count(EventKind::TaskCreate) == 0 && (timed == nullptr || thread.count(EventKind::LightTasks) == 0)) continue;
    frames.clear();
    // A depend clause's records follow its task's creation on the creating thread; anything else
    // between them (a `taskwait depend`'s clause names the waiting task) is not one.
    uint32_t clause_of = 0;
    for_each_event(thread, [&](const Event& e) {
      if (e.kind == EventKind::TaskDependences) {
        if (e.id != 0 && e.id == clause_of) {
          TaskInstance& task = tasks.back();  // the clause's task, created just before
          const uint64_t second = (uint64_t{e.arg} << 32) | e.id2;
          task.add_depend({e.codeptr, static_cast<uint8_t>(e.arg2 & 0xff)});
          if (e.detail >= 2) task.add_depend({second, static_cast<uint8_t>(e.arg2 >> 8)});
        }
        return;
      }
      clause_of = 0;
      switch (e.kind) {
        case EventKind::TaskCreate: {
          clause_of = e.id;
          TaskInstance task;
          task.id = e.id;
          task.parent = e.id2;
          task.creator_thread = thread.thread_index;
          task.codeptr = e.codeptr;
          task.flags = e.arg;
          task.weight = std::max<uint32_t>(1, e.detail);
          task.created = log.seconds(e.time);
          tasks.push_back(std::move(task));
          break;
        }
        case EventKind::ImplicitTaskBegin:
          frames.push_back({e.id, (e.detail & ompt_task_initial) == 0});
          break;
        case EventKind::ImplicitTaskEnd:
          if (!frames.empty()) frames.pop_back();
          break;
        case EventKind::LightTasks:
          if (timed == nullptr) break;
          *light += e.arg;
          if (e.arg2 > 0) {
            uint32_t parallel = 0;  // ThreadWalk::current_parallel
            for (auto it = frames.rbegin(); it != frames.rend(); ++it)
              if (it->part) {
                parallel = it->parallel_id;
                break;
              }
            (*timed)[region_thread_key(parallel, thread.thread_index)].push_back({log.duration(0, e.id2) / e.arg2, e.arg2});
          }
          break;
        default:
          break;
      }
    });
  }
  return tasks;
}

// The walk of every thread's records, after the creations were read (read_creations: `created`),
// in epochs (docs/design.md, "Streaming"): the initial thread's records up to a fork of a
// top-level region past `epoch_records` of them, then each other thread's up to the first part it
// begins outside every region at or after that fork, then the next epoch. A region instance is
// then walked by all its threads within one epoch (a worker's part, begun before the fork that
// ends its epoch, is walked to its end, however late it learns of it: Q1), which handing each
// epoch's instances on as they close will need; the second thread's walk now meets an instance's
// records while the caches may still hold them (1-4% of the 10 M loop log's walk, no more). A
// walk stops and resumes at any record, so the timeline is the same whatever the epochs; what
// their ends decide is where appended records fall. The records the threads append (worksharing spans, MPI
// calls, lock records) come epoch by epoch, each instance's thread by thread as before; the
// samples and the light batches are put back in thread order. One epoch where a thread other than
// the initial one pauses the tool (the paused stretches are one list) or forks a region outside
// every region (a thread of the program's own that runs OpenMP too: from then on, each thread is
// walked to its end). `epoch_records` 0: one epoch.
Timeline walk_log(const RunLog& log, const LightBody* light_body, std::vector<TaskInstance> created, size_t epoch_records) {
  Timeline out;
  out.tasks = std::move(created);
  const size_t recorded_tasks = out.tasks.size();
  RegionTable regions;
  std::vector<UnrecordedLocks> unrecorded_locks;
  const double run_end = log.seconds(log.last_ticks());

  // The arrays that grow with the log are sized first, by the checking read's counts.
  const size_t forks = count_of(log, {EventKind::ParallelBegin});
  regions.regions.reserve(forks);  // a worker walked before its fork may add one more
  regions.begun.reserve(forks);
  regions.index.reserve(forks);
  regions.log_threads = log.threads.size();
  out.locks.reserve(count_of(log, {EventKind::MutexAcquire}));
  out.work.reserve(count_of(log, {EventKind::WorkBegin, EventKind::MaskedBegin}));
  out.samples.reserve(count_of(log, {EventKind::Sample}));
  out.mpi.reserve(count_of(log, {EventKind::MpiCall}));
  const TaskIndex task_index(out.tasks);

  const size_t n = log.threads.size();
  bool epochs = n > 1 && epoch_records > 0 && log.threads[0].thread_index == 0;
  for (size_t i = 1; i < n && epochs; ++i) epochs = log.threads[i].count(EventKind::ToolControl) == 0;
  // Every thread's file is open and one block of it held while the others walk: past 8 threads,
  // smaller blocks, 8 MiB for all.
  const size_t block_records = n <= 8 ? 0 : std::max<size_t>(1024, kStreamBlockRecords * 8 / n);
  std::vector<ThreadCursor> cursors;
  std::vector<ThreadWalk> walks;
  cursors.reserve(n);
  walks.reserve(n);
  for (const ThreadEvents& thread : log.threads) {
    cursors.emplace_back(thread, block_records);
    walks.emplace_back(log, thread.thread_index, thread.part_syncs, regions, task_index, light_body, out);
  }
  std::vector<bool> finished(n, false);
  // A thread's walk is finished where its records end, before the next thread walks: what it
  // leaves open is added where the walk thread after thread added it.
  const auto walk_thread = [&](size_t i, auto&& stop) {
    ThreadWalk& walk = walks[i];
    const bool stopped = cursors[i].walk_until(stop, [&walk](const Event& e) { walk.on(e); });
    if (!stopped) {
      walk.finish(run_end);
      finished[i] = true;
    }
    return stopped;
  };
  while (n > 0) {
    uint64_t fork = std::numeric_limits<uint64_t>::max();  // the next epoch's first fork, in ticks
    bool initial_stopped = false;
    if (!finished[0]) {
      ThreadWalk& initial = walks[0];
      size_t walked = 0;
      initial_stopped = walk_thread(0, [&](const Event& e) {
        if (!epochs || ++walked <= epoch_records || e.kind != EventKind::ParallelBegin || !initial.outside_regions())
          return false;
        fork = e.time;
        return true;
      });
    }
    for (size_t i = 1; i < n; ++i) {
      if (finished[i]) continue;
      ThreadWalk& walk = walks[i];
      walk_thread(i, [&](const Event& e) {
        if (!epochs) return false;
        if (e.kind == EventKind::ParallelBegin && walk.outside_regions()) {
          epochs = false;  // a fork outside every region: the initial thread's forks bound none of this thread's
          return false;
        }
        return e.time >= fork && e.kind == EventKind::ImplicitTaskBegin && (e.detail & ompt_task_initial) == 0 &&
               walk.outside_regions();
      });
    }
    if (!initial_stopped) break;
  }
  for (size_t i = 0; i < n; ++i) {
    const ThreadEvents& thread = log.threads[i];
    unrecorded_locks.insert(unrecorded_locks.end(), walks[i].unrecorded_locks.begin(), walks[i].unrecorded_locks.end());
    if (!thread.empty())
      out.threads.push_back({thread.thread_index, log.seconds(thread.front_ticks()), log.seconds(thread.back_ticks())});
    out.events += thread.size();
  }
  // Back in thread order, each thread's in its own: the samples' per-line sums are taken in it,
  // and the light batches are numbered in it (the trace's tasks).
  const auto by_thread = [](const CpuSample& a, const CpuSample& b) { return a.thread < b.thread; };
  if (!std::is_sorted(out.samples.begin(), out.samples.end(), by_thread))
    std::stable_sort(out.samples.begin(), out.samples.end(), by_thread);
  const auto by_creator = [](const TaskInstance& a, const TaskInstance& b) { return a.creator_thread < b.creator_thread; };
  const auto batches = out.tasks.begin() + static_cast<std::ptrdiff_t>(recorded_tasks);
  if (!std::is_sorted(batches, out.tasks.end(), by_creator)) std::stable_sort(batches, out.tasks.end(), by_creator);
  out.end = run_end;
  out.sample_period_s = log.meta.sample_period_ns * 1e-9;
  for (auto& [from, to] : out.paused)
    if (to < 0) to = run_end;  // paused until the run ended
  std::sort(out.paused.begin(), out.paused.end());

  LockRecordCorrection& correction = out.lock_correction;
  correction.tool_gap = static_cast<double>(log.meta.lock_record_gap_ticks) / log.ticks_per_second;
  correction.floor = log.meta.atomic_floor_ops > 0 ? static_cast<double>(log.meta.atomic_floor_ticks) /
                                                         log.meta.atomic_floor_ops / log.ticks_per_second
                                                   : 0.0;
  out.kernel = {static_cast<double>(log.meta.page_fault_floor_ticks) / log.ticks_per_second,
                static_cast<double>(log.meta.kernel_tick_ns) * 1e-9,
                static_cast<double>(log.meta.usage_reading_ticks) / log.ticks_per_second};
  apply_lock_sampling(out.locks, unrecorded_locks, regions, correction);
  {
    uint32_t hint = RegionTable::kNoRegion;
    for (const LockAcquisition& a : out.locks) {
      const uint32_t at = regions.place(a.parallel_id, hint);
      if (at == RegionTable::kNoRegion) continue;
      for (ThreadInRegion& part : regions.regions[at].threads)
        if (part.thread == a.thread) part.lock_wait += a.wait(correction) * a.scale;
    }
  }

  out.regions = std::move(regions.regions);
  size_t kept = 0;
  for (size_t i = 0; i < out.regions.size(); ++i) {
    if (!regions.begun[i]) continue;  // its fork was not read: its parts are left out with it
    RegionInstance& r = out.regions[kept++];
    if (kept - 1 != i) r = std::move(out.regions[i]);
    r.complete = r.end >= 0;
    if (!r.complete) r.end = run_end;
    for (ThreadInRegion& p : r.threads) {
      // Workers learn of the region's end late (docs/runtime-quirks.md Q1): clamp to the region's end.
      if (p.end < 0 || p.end > r.end) p.end = r.end;
      for (SyncVisit& v : p.syncs) {
        v.arrive = std::min(v.arrive, r.end);
        v.depart = std::min(v.depart < 0 ? r.end : v.depart, r.end);
        v.tasks = std::min(v.tasks, v.depart - v.arrive);
      }
      for (size_t k = p.syncs.size(); k-- > 0;) {
        if (p.syncs[k].implicit) {
          p.syncs[k].kind = SyncKind::JoinBarrier;
          break;
        }
        if (p.syncs[k].kind == SyncKind::Barrier) break;
      }
    }
    std::sort(r.threads.begin(), r.threads.end(),
              [](const ThreadInRegion& a, const ThreadInRegion& b) { return a.index < b.index; });
    r.team_size = static_cast<uint32_t>(r.threads.size());
  }
  out.regions.resize(kept);
  // Mostly in order already (the forks of one initial thread): the runs merged, with no buffer
  // of half the instances where there is one run (18 MB of a loop log's 416 667 instances).
  stable_sort_runs(out.regions.begin(), out.regions.end(),
                   [](const RegionInstance& a, const RegionInstance& b) { return a.begin < b.begin; });
  // Each thread's records are in order of request: the threads' runs merged, not sorted again
  // (80-byte records moved log n times were 1.5% of the 10 M synthetic log's report).
  stable_sort_runs_in_place(out.locks, [](const LockAcquisition& a, const LockAcquisition& b) { return a.request < b.request; });
  return out;
}

}  // namespace

Timeline build_timeline(const RunLog& log, size_t epoch_records) {
  if (count_of(log, {EventKind::LightTasks}) == 0) return walk_log(log, nullptr, read_creations(log), epoch_records);
  // Sampled tasks: the timeline is built knowing how long a light task takes. Where the capture
  // timed enough of them over the run, their times answer for every batch (LightBody::of and
  // batch ask them first, and the run's mean answers wherever a thread's or a region's does not):
  // the batches' records alone say it, read with the creations. Else a first walk times the
  // recorded tasks, and goes before the second is built (beside it, a sampled log's timeline was
  // held twice). The first walk was a fifth of BOTS health's analysis.
  TimedLight timed_batches;
  uint64_t light = 0;
  std::vector<TaskInstance> created = read_creations(log, &timed_batches, &light);
  if (light == 0) return walk_log(log, nullptr, std::move(created), epoch_records);  // batches of none: nothing to estimate
  MeanBody timed = timed_light_body(timed_batches);
  LightBody body;
  if (!timed.overall) body = light_body_of(walk_log(log, nullptr, created, epoch_records));  // a copy: a walk completes its tasks
  body.timed = std::move(timed);
  return walk_log(log, &body, std::move(created), epoch_records);
}

}  // namespace ompscope::analysis
