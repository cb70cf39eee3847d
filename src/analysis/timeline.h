// The run reconstructed as typed intervals: parallel-region instances with each thread's
// part in them (barrier visits, lock acquisitions), task instances with their fragments of
// execution. Built from the raw per-thread records by build_timeline(); every later metric
// (profile, barrier phases, locks, tasks, scalability, the trace model) is a pure function of these types,
// so unit tests construct them by hand.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <initializer_list>
#include <iterator>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/run_log.h"
#include "common/compact_vector.h"
#include "report/report.h"

namespace ompscope::analysis {

enum class SyncKind : uint8_t { Barrier, JoinBarrier, Taskwait, Taskgroup, Other };

// What was read of the stretch of a thread's work that ends at a visit, where anything was: past
// an instance's first barriers the capture reads the kernel's accounting at some only (1 in ~200
// of many_barriers', capture/thread_usage.h), and a segment makes an MPI call in a hybrid program
// only. Held apart from the visit (SyncVisit::readings), which is 16 bytes smaller without them.
struct SegmentReadings {
  double cpu = -1;   // CPU time the thread used in the segment that ends here; -1: not read
  double mpi = 0;    // time in MPI calls in that segment (docs/mpi.md, "MPI inside parallel regions")
  // Wall time of the visit itself (arrival to departure) its CPU time does not cover, where the
  // kernel's accounting was read at both and the thread was switched out involuntarily in it (0
  // where not): runnable, not running, while another process held its CPU.
  double off_cpu = 0;
};
inline constexpr SegmentReadings kNothingRead{};

struct SyncVisit {  // fields ordered to pack into 56 bytes: a log holds one per barrier and thread
  SyncKind kind = SyncKind::Barrier;
  bool follows_loop = false;  // a worksharing loop ended in the segment just before it
  // The schedule the runtime reported for that loop (libomp 19: ompt_work_loop_static 10, _dynamic
  // 11, _guided 12, _other 13; docs/runtime-quirks.md "Runtime versions"); 0: none reported.
  uint8_t loop_schedule = 0;
  bool nested = false;        // opened inside another visit (a taskwait in a task run in a barrier)
  // The runtime reported a region's implicit barrier (ompt_sync_region_barrier_implicit or
  // _implicit_parallel, not a worksharing construct's): the last one of a part is its join barrier.
  bool implicit = false;
  uint32_t loop_iterations = 0;  // that loop's iteration count (all threads', saturated); 0: none
  uint32_t task = 0;          // explicit task that waits in it (a taskwait in a task); 0: the implicit task
  uint64_t codeptr = 0;
  double arrive = 0;     // sync region begin
  double depart = 0;     // sync region end (clamped to the region's end for the join barrier)
  double tasks = 0;      // time spent running explicit tasks inside this visit

  // What was read of its segment (kNothingRead where nothing was), and the same to write into.
  const SegmentReadings& readings() const { return readings_.empty() ? kNothingRead : readings_.front(); }
  SegmentReadings& write_readings() {
    if (readings_.empty()) readings_.push_back({});
    return readings_.front();
  }

  // Empty, or the one entry. Public only so that a visit stays an aggregate (designated
  // initialisers); read and write it through the two functions above.
  CompactVector<SegmentReadings> readings_;
};
static_assert(sizeof(SyncVisit) == 56);

using report::WorkUsage;

// What each lock record's durations are corrected by, the same for every record of a run (held
// once by the timeline, not by each of a lock-heavy log's millions of records).
struct LockRecordCorrection {
  // The tool's own time inside each of the record's two durations (RunMeta::lock_record_gap_ticks,
  // docs/locks.md "The tool's own time"): taken out of the wait and the hold.
  double tool_gap = 0;
  // One uncontended atomic on the machine (RunMeta::atomic_floor_ticks, docs/locks.md "The
  // floor"): taking the tool's time out never leaves a wait below it (nor below what was
  // recorded, where that is less). On a machine where the gap measured about what the lock's own
  // atomic adds (an AMD EPYC VM: 1.2 ns per acquisition left of private locks) the subtraction
  // ate the lock's cost and the time went to work.
  double floor = 0;
};

struct LockAcquisition {  // fields ordered to pack into 80 bytes: a log holds one per recorded acquisition
  uint32_t thread = 0;
  uint32_t parallel_id = 0;  // innermost region the thread was in (0: serial code)
  uint32_t weight = 1;       // the operations the log's record stands for (lock sampling, below)
  uint8_t mutex_kind = 0; // ompt_mutex_t: lock, nest_lock, critical, atomic, ordered
  uint8_t sampling_slot = 0;  // the capture's sampling slot + 1 (sites of a slot share a schedule); 0: none
  uint64_t wait_id = 0;
  uint64_t codeptr = 0;   // the acquiring callsite
  double request = 0;
  double acquired = 0;
  double released = 0;
  // Lock sampling (docs/locks.md): the log's weight is the operations in this record's sampling
  // slot since the thread's last record there (itself included); `scale` is how many operations the record
  // stands for in every sum, once the unrecorded operations its region part ended with are
  // spread over the part's records (build_timeline). Durations above the 99th percentile of
  // the thread's recorded ones at that site and region are counted as that percentile (the
  // caps), so that one preempted record does not stand for thousands of preempted operations; a
  // record that stands for itself keeps its hold, and its wait the time it queued behind others.
  double scale = 1;
  double wait_cap = 1e300;
  double hold_cap = 1e300;
  // Every operation it stands for was recorded (sampling off, or a site that never reached its
  // sampled phase): its durations are measured once, never multiplied.
  bool stands_for_itself() const { return scale <= 1; }
  double wait(const LockRecordCorrection& c) const {
    const double raw = acquired - request;
    return std::min(std::max({0.0, raw - c.tool_gap, std::min(raw, c.floor)}), wait_cap);
  }
  double hold(const LockRecordCorrection& c) const {
    return std::min(std::max(0.0, released - acquired - c.tool_gap), hold_cap);
  }
};
static_assert(sizeof(LockAcquisition) == 80);

// For the acquisitions of one lock whose every operation was recorded, sorted by acquisition
// time: how long each one queued, i.e. the part of its wait during which an acquisition ahead of
// it (of another thread, acquired before it) was waiting for or holding the lock (0 where it did
// not queue: the acquisition just before it released the lock before it was requested, or was its
// own thread's). A fair lock hands itself to the longest waiter, so a thread can queue while the
// lock is held by nobody: behind a waiter the kernel stopped (shared_lock beside a busy process:
// 1.14 s of each thread's 1.36 s of waiting in a 1.59 s region, the lock held 0.45 s in all). The
// rest of a wait, the lock free and nobody ahead, is its thread not running (a preemption, a
// quota's stop) or the acquisition's own cost, not a queue (docs/locks.md, "Contention and
// algorithm cost"). `out[i]` for `by_acquired[i]`.
void time_queued_behind_others(const std::vector<const LockAcquisition*>& by_acquired, std::vector<double>& out);

// The kernel's accounting over the barrier visits in which a thread ran explicit tasks, and the
// task time in those visits (report::ThreadSplit::task_usage): a task region's bodies run there.
struct TaskVisitsUsage {
  WorkUsage usage;
  double tasks_s = 0;
};
inline constexpr TaskVisitsUsage kNoTaskVisits{};
inline constexpr WorkUsage kNoWorkUsage{};

// One thread's participation in one region instance.
struct ThreadInRegion {
  uint32_t thread = 0;       // log thread index
  uint32_t index = 0;        // omp_get_thread_num() in the team
  uint32_t implicit_task = 0;  // the implicit task's id: the parent of the explicit tasks it creates
  // Time the thread was switched out (involuntarily) between its last end-of-work reading before
  // this part (its arrival at the join barrier before) and the one at its start: after the fork, the
  // team waited for a CPU another process held, not for the runtime (barrier_phases). A float:
  // it fits the padding here, and a log holds a part per region instance and thread.
  float start_off_cpu_s = 0;
  double start = 0;          // implicit task begin
  // The thread's own begin, in its first region only (else -1): a thread that began after the
  // region did was created by this fork, and its late start is the team's one-time creation.
  double thread_begin = -1;
  double end = 0;            // implicit task end (clamped to the region's end)
  std::vector<SyncVisit> syncs;
  double lock_wait = 0;      // acquire request → acquired, summed (scaled by lock sampling)
  double tasks_outside_syncs = 0;  // explicit tasks run outside barriers/taskwaits (e.g. undeferred)
  uint64_t tasks_completed = 0;    // explicit tasks that completed on this thread (light ones by batch)
  double mpi = 0;            // time in MPI calls the thread made in this part (docs/mpi.md)
  // The kernel's accounting over its stretches of work (and its hardware counters), where any
  // was read, and the same to write into: held apart, as past a run's first instances of a
  // region the capture reads it in some only (about 1 in 10 of many_regions' parts), and a part
  // is 88 bytes smaller without it (192 → 112).
  const WorkUsage& usage() const { return usage_.empty() ? kNoWorkUsage : usage_.front(); }
  WorkUsage& write_usage() {
    if (usage_.empty()) usage_.push_back({});
    return usage_.front();
  }
  // Its TaskVisitsUsage, held apart where any was read (a task region's parts), and the same to
  // write into: a part of a loop region is 88 bytes smaller without it (280 → 192 before its
  // usage was held apart too), and a log holds one part per region instance and thread.
  const TaskVisitsUsage& task_visits() const { return task_visits_.empty() ? kNoTaskVisits : task_visits_.front(); }
  TaskVisitsUsage& write_task_visits() {
    if (task_visits_.empty()) task_visits_.push_back({});
    return task_visits_.front();
  }

 private:
  CompactVector<WorkUsage> usage_;              // empty, or the one entry
  CompactVector<TaskVisitsUsage> task_visits_;  // empty, or the one entry
};
static_assert(sizeof(ThreadInRegion) == 112);

struct RegionInstance {  // fields ordered to pack into 80 bytes: a log holds one per region instance
  uint32_t parallel_id = 0;
  uint32_t requested_threads = 0;
  uint64_t codeptr = 0;            // the fork's return address
  // Entry of the outlined function the instance ran (its body), found from the code addresses
  // of events inside it (identify_region_bodies); 0: unknown, the region is its fork's callsite.
  uint64_t body = 0;
  uint64_t site() const { return body ? body : codeptr; }  // the region's identity
  uint32_t team_size = 0;
  uint32_t master_thread = 0;
  uint32_t parent_parallel_id = 0;  // enclosing region on the master (0: top level)
  bool complete = true;  // false when the program died inside it
  bool light = false;    // sampled out: only its begin and end were recorded, no threads
  double begin = 0;
  double end = 0;
  std::vector<ThreadInRegion> threads;  // sorted by index in team
};
static_assert(sizeof(RegionInstance) == 80);

struct TaskFragment {  // a contiguous execution of a task on one thread
  TaskFragment() = default;
  TaskFragment(uint32_t on, double from, double to, float off_cpu = 0, bool edges_read = false)
      : thread(on), read(edges_read), off_cpu_s(off_cpu), begin(from), end(to) {}
  uint32_t thread : 31 = 0;
  // The capture read the body's edges (ThreadUsage edges 2 and 3). Its length then holds what
  // the second reading cost beyond the cheapest one (1-5 us on a VM): no sample of a short body.
  uint32_t read : 1 = 0;
  // Time the thread spent switched out involuntarily (runnable, another process on its CPU)
  // between the readings of a read body; 0 where it was not read. In the padding beside `thread`.
  float off_cpu_s = 0;
  double begin = 0;
  double end = 0;
};

static_assert(sizeof(TaskFragment) == 24 && offsetof(TaskFragment, end) == 16);

// A task's fragments of execution, contiguous, in 24 bytes: most tasks run in one (every leaf of
// a tree, every task of a loop's), held in place with nothing allocated; two or more are a
// CompactVector's block. A CompactVector alone took a 32-byte block per task beside its pointer:
// 56 MB and 1.8 M allocations of the 10 M synthetic log's 1.8 M tasks. The two forms are told
// apart by the place of the fragment's `end`: in the list form it holds kListForm, a signalling
// NaN, which no time computed by arithmetic is (an operation on a NaN gives a quiet one), and the
// CompactVector sits where the fragment's first 8 bytes would. Empty is the list form with
// nothing allocated. A fragment is never moved while the list holds one (pointers to it stay
// valid); it moves once, into the block, when a second is added.
class FragmentList {
 public:
  FragmentList() { new (raw_) List(); set_list_form(); }
  FragmentList(std::initializer_list<TaskFragment> items) : FragmentList() {
    for (const TaskFragment& f : items) push_back(f);
  }
  FragmentList(const FragmentList& o) {
    if (o.is_list()) {
      new (raw_) List(o.list());
      set_list_form();
    } else {
      new (raw_) TaskFragment(o.one());
    }
  }
  FragmentList(FragmentList&& o) noexcept {
    std::memcpy(raw_, o.raw_, sizeof raw_);  // either form moves as its bytes: the block changes hands
    new (o.raw_) List();
    o.set_list_form();
  }
  FragmentList& operator=(const FragmentList& o) {
    if (this != &o) {
      FragmentList copy(o);
      *this = std::move(copy);
    }
    return *this;
  }
  FragmentList& operator=(FragmentList&& o) noexcept {
    if (this != &o) {
      destroy();
      std::memcpy(raw_, o.raw_, sizeof raw_);
      new (o.raw_) List();
      o.set_list_form();
    }
    return *this;
  }
  FragmentList& operator=(std::initializer_list<TaskFragment> items) {
    clear();
    for (const TaskFragment& f : items) push_back(f);
    return *this;
  }
  ~FragmentList() { destroy(); }

  size_t size() const { return is_list() ? list().size() : 1; }
  bool empty() const { return size() == 0; }
  TaskFragment* data() { return is_list() ? list().data() : &one(); }
  const TaskFragment* data() const { return is_list() ? list().data() : &one(); }
  TaskFragment* begin() { return data(); }
  TaskFragment* end() { return data() + size(); }
  const TaskFragment* begin() const { return data(); }
  const TaskFragment* end() const { return data() + size(); }
  TaskFragment& operator[](size_t i) { return data()[i]; }
  const TaskFragment& operator[](size_t i) const { return data()[i]; }
  const TaskFragment& at(size_t i) const {
    return i < size() ? data()[i] : throw std::out_of_range("FragmentList::at");
  }
  TaskFragment& front() { return data()[0]; }
  const TaskFragment& front() const { return data()[0]; }
  TaskFragment& back() { return data()[size() - 1]; }
  const TaskFragment& back() const { return data()[size() - 1]; }

  void push_back(const TaskFragment& item) {
    const TaskFragment copy = item;  // `item` may be ours, which the list form moves
    if (!is_list()) {
      const TaskFragment first = one();
      new (raw_) List();
      set_list_form();
      list().reserve(2);
      list().push_back(first);
      list().push_back(copy);
    } else if (list().capacity() == 0) {
      list().~List();
      new (raw_) TaskFragment(copy);  // its end, a time, is never kListForm
    } else {
      list().push_back(copy);
    }
  }
  void clear() {
    if (is_list()) {
      list().clear();
    } else {
      new (raw_) List();
      set_list_form();
    }
  }

 private:
  using List = CompactVector<TaskFragment>;
  static constexpr uint64_t kListForm = 0x7ff0'0000'5a5a'0001;  // a signalling NaN
  static_assert(sizeof(List) <= offsetof(TaskFragment, end));

  bool is_list() const {
    uint64_t end;
    std::memcpy(&end, raw_ + offsetof(TaskFragment, end), sizeof end);
    return end == kListForm;
  }
  void set_list_form() { std::memcpy(raw_ + offsetof(TaskFragment, end), &kListForm, sizeof kListForm); }
  List& list() { return *std::launder(reinterpret_cast<List*>(raw_)); }
  const List& list() const { return *std::launder(reinterpret_cast<const List*>(raw_)); }
  TaskFragment& one() { return *std::launder(reinterpret_cast<TaskFragment*>(raw_)); }
  const TaskFragment& one() const { return *std::launder(reinterpret_cast<const TaskFragment*>(raw_)); }
  void destroy() {
    if (is_list()) list().~List();
  }

  alignas(TaskFragment) std::byte raw_[sizeof(TaskFragment)];
};

// A recorded task, or (light > 0) a batch of sampled-out tasks one thread ran between two of
// its records (adaptive sampling): the log gives their count and the first one's start; their
// one fragment lasts the count times the mean body recorded on that thread in the region (never
// longer than the time until the thread's next record), from that start.
// One item of a task's depend clause (docs/tasks.md, "Dependences"), or one of the runtime's own
// edges to it (`runtime_edge`: `address` holds the predecessor's task id).
struct TaskDependenceItem {
  uint64_t address = 0;
  uint8_t type = 0;  // ompt_dependence_type_t
  bool runtime_edge = false;  // in the padding: the two lists share one block (TaskInstance)
};

// The task ids held by a run of the runtime's edges (TaskDependenceItem::runtime_edge), read as a
// list of ids.
struct TaskIds {
  struct iterator {
    using iterator_category = std::forward_iterator_tag;
    using value_type = uint32_t;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = uint32_t;
    const TaskDependenceItem* at = nullptr;
    uint32_t operator*() const { return static_cast<uint32_t>(at->address); }
    iterator& operator++() {
      ++at;
      return *this;
    }
    iterator operator++(int) { return {at++}; }
    bool operator==(const iterator&) const = default;
  };
  const TaskDependenceItem* first = nullptr;
  const TaskDependenceItem* last = nullptr;
  iterator begin() const { return {first}; }
  iterator end() const { return {last}; }
  size_t size() const { return static_cast<size_t>(last - first); }
  bool empty() const { return first == last; }
};

struct TaskInstance {  // fields ordered to pack: a log holds one per recorded task
  uint32_t id = 0;
  uint32_t weight = 1;        // creations the creation record stands for (itself and light ones)
  uint32_t light = 0;         // > 0: a batch of this many light tasks, not one task
  uint32_t light_children = 0;  // tasks the batch's tasks created (a recursive task tree)
  uint32_t parent = 0;        // creating task (implicit or explicit)
  uint32_t parallel_id = 0;   // region it was created in
  uint32_t creator_thread = 0;
  uint32_t flags = 0;         // ompt_task_flag_t
  uint64_t codeptr = 0;
  double created = 0;
  double completed = -1;      // -1: never completed (program died)
  FragmentList fragments;

  double exclusive() const;   // sum of fragments: suspension already excluded
  uint64_t count() const { return light ? light : 1; }  // tasks it stands for as run

  // Its depend clause as recorded at its creation.
  std::span<const TaskDependenceItem> depends() const { return {edges_.data(), depend_count()}; }
  // The tasks the runtime made it wait for (libomp's own edges), by id.
  TaskIds runtime_predecessors() const { return {edges_.data() + depend_count(), edges_.data() + edges_.size()}; }
  bool has_edges() const { return !edges_.empty(); }
  void add_depend(TaskDependenceItem item) {
    item.runtime_edge = false;
    edges_.insert_at(depend_count(), item);  // before the runtime's edges, which come later in a log
  }
  void add_runtime_predecessor(uint32_t id) { edges_.push_back({id, 0, true}); }

 private:
  // The clause's items, then the runtime's edges: one list, one pointer, nothing allocated for a
  // task with neither (a recursive tree's every task). Two lists took 8 bytes more of each of a
  // task-heavy log's millions of tasks (96 -> 88 bytes a task).
  size_t depend_count() const {
    size_t n = 0;
    while (n < edges_.size() && !edges_[n].runtime_edge) ++n;
    return n;
  }
  CompactVector<TaskDependenceItem> edges_;
};
static_assert(sizeof(TaskInstance) == 88);

// One worksharing construct (loop, single, sections, ...) or masked construct as one thread ran it, begin and end
// matched per thread; one cut short by the end of the log ends at the thread's last event.
inline constexpr uint8_t kWorkMasked = 0xff;  // WorkSpan::work of a masked (master) construct

struct WorkSpan {
  uint32_t thread = 0;
  uint8_t work = 0;  // ompt_work_t, or kWorkMasked
  uint64_t codeptr = 0;
  double begin = 0;
  double end = 0;
  uint32_t parallel_id = 0;  // innermost region the thread was in (0: serial code)
  // A loop's iteration count as the runtime reported it (all threads', the record's 32 bits); 0:
  // none. Beside parallel_id: a span is 40 bytes, and a loop log holds one per loop and thread.
  uint32_t iterations = 0;
};
static_assert(sizeof(WorkSpan) == 40);

// An MPI call on one thread (libompscope_mpi.so, docs/mpi.md).
struct MpiInterval {
  uint32_t thread = 0;
  double begin = 0;
  double end = 0;
};

// The initial thread at an edge of serial code (event_record.h: SerialUsage): its CPU time and
// run-queue wait since it started.
struct SerialReading {
  double time = 0;
  double cpu_s = 0;
  double run_delay_s = -1;  // -1: unknown (no schedstat)
  // What the thread waited for (event_record.h: SerialWaits), cumulative and truncated to 32
  // bits as recorded (differences are taken modulo 2^32); waits_read false where it has none.
  bool waits_read = false;
  double children_cpu_s = 0;     // children that ended and were waited for
  uint32_t block_io = 0;         // block input + output operations
  uint32_t voluntary_switches = 0;
};

// A CPU-time sample of a thread (capture/pc_sampler.h): where it was, with the return addresses
// of the frames around it (innermost first; as far as frame pointers lead), and the CPU time it
// stands for (its periods × the sampling period).
struct CpuSample {
  uint32_t thread = 0;
  double time = 0;
  double cpu_s = 0;
  uint64_t pc = 0;
  std::vector<uint64_t> frames;
};

struct ThreadSummary {
  uint32_t thread = 0;
  double first = 0;  // first event
  double last = 0;   // last event
};

// The machine's kernel, as the capture measured it at start-up (RunMeta), in seconds; 0: not
// measured. It travels whole from the timeline to each region's runs and their team's work.
struct KernelCalibration {
  // The cheapest page fault (RunMeta::page_fault_floor_ticks): a region's faults bound its kernel
  // time from below (TeamWork).
  double page_fault_floor_s = 0;
  // The scheduler's tick (RunMeta::kernel_tick_ns), the grain of getrusage's user/system split.
  double tick_s = 0;
  // One reading of a thread's kernel accounting (RunMeta::usage_reading_ticks): each read
  // stretch holds one (WorkUsage::readings), which TeamWork takes out.
  double usage_reading_s = 0;
};

// Tasks created at one level of one region instance's task tree (1: created by an implicit task),
// by one thread's part, as the capture counted them (event_record.h, TaskLevels).
struct TaskLevelCount {
  uint32_t parallel_id;
  uint32_t level;
  uint64_t tasks;
};

struct Timeline {
  double start = 0;           // 0: the run's clock origin
  double end = 0;             // finalize (or the last event of a run that died)
  // Of [start, end), the time before the clock origin: from the launch to the runtime's start (the
  // program's first OpenMP call), where the tool recorded nothing (load_run; 0 where the timeline
  // starts at the runtime's start).
  double before_runtime_s = 0;
  std::vector<RegionInstance> regions;   // ordered by begin
  std::vector<LockAcquisition> locks;    // ordered by request
  std::vector<TaskInstance> tasks;       // recorded ones ordered by creation, then light batches
  // Each thread's in order of their ends, the threads' in turn epoch by epoch (build_timeline):
  // an instance's records thread by thread.
  std::vector<WorkSpan> work;
  std::vector<MpiInterval> mpi;          // as `work`
  // The tasks the threads created, light ones included, by level in the task tree, one per
  // thread's part and level, in no order (event_record.h, TaskLevels; empty in logs before it).
  // No cause reads them yet: sizing a depth cutoff's levels by them waits on its gain's model
  // (docs/tasks.md, "Levels counted by the capture").
  std::vector<TaskLevelCount> task_levels;
  std::vector<SerialReading> serial_usage;  // the initial thread's, in order (empty: not recorded)
  std::vector<CpuSample> samples;        // per thread, in order
  double sample_period_s = 0;            // 0: the run took no samples
  // The stretches the program paused the tool (omp_control_tool), in order: nothing was recorded
  // in them and their time is no part of the program's.
  std::vector<std::pair<double, double>> paused;
  std::vector<ThreadSummary> threads;
  uint64_t events = 0;
  uint64_t light_tasks = 0;   // sampled-out tasks that ran (in batches)
  // The tool's own time in each recorded lock duration and one uncontended atomic on the machine,
  // in seconds (0: not measured): every lock record's correction.
  LockRecordCorrection lock_correction;
  KernelCalibration kernel;
};

// The walk goes over the threads' logs in epochs of about this many of the initial thread's
// records (timeline.cpp, walk_log; docs/design.md, "Streaming"), each region instance walked by all
// its threads within one epoch. The timeline is the same whatever the epochs (0: one); tests walk
// in epochs of a record to see that it is.
inline constexpr size_t kEpochRecords = size_t{1} << 14;

Timeline build_timeline(const RunLog& log, size_t epoch_records = kEpochRecords);

}  // namespace ompscope::analysis
