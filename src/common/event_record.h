// The event log's record: the one contract between src/capture (writer, inside the user's
// process) and src/analysis (reader, offline). Fixed size, trivially copyable, versioned.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace ompscope {

inline constexpr char kLogMagic[8] = {'O', 'M', 'P', 'S', 'C', 'E', 'V', 'T'};
inline constexpr uint32_t kLogVersion = 1;

// ThreadUsage's edges at a recorded task's body (see ThreadUsage below).
inline constexpr uint8_t kUsageBodyStarts = 2, kUsageBodyEnds = 3;

// Kind 0 is deliberately invalid: a log file's unwritten tail is zero-filled, so a reader stops
// at the first zero kind, which is how a log cut short by a crash stays readable.
enum class EventKind : uint8_t {
  None = 0,
  ThreadBegin,        // detail: ompt_thread_t
  ThreadEnd,          // not recorded (nothing read it); the number stays, as for the others so marked
  ParallelBegin,      // id: parallel, arg: requested team size,
                      // detail: 1 = a light instance (sampled out: nothing recorded inside it)
  ParallelEnd,        // id: parallel, id2: encountering task, arg2: flags
  ImplicitTaskBegin,  // id: parallel, id2: implicit task, arg2: index in team, detail: flags
  ImplicitTaskEnd,    // id: parallel (0 when the runtime no longer knows it), id2: implicit task, arg2: index
  WorkBegin,          // detail: ompt_work_t, arg: iteration count (saturated), id: parallel
  WorkEnd,            // detail: ompt_work_t, id: parallel
  Dispatch,           // not recorded
  SyncBegin,          // detail: ompt_sync_region_t, id: parallel (0 if none), id2: task
  SyncEnd,
  SyncWaitBegin,      // not recorded: it doubled the records of every barrier
  SyncWaitEnd,        // not recorded
  MutexAcquire,       // detail: ompt_mutex_t, wait_id(): lock
  MutexAcquired,      // detail: ompt_mutex_t, wait_id(): lock, arg: operations it stands for (sampling; 0 = 1),
                      // arg2: lock sampling slot + 1 (0: not sampled)
  MutexReleased,      // detail: ompt_mutex_t, wait_id(): lock
  NestLockNext,       // detail: ompt_scope_endpoint_t (begin = acquired again, end = released once)
  LockInit,           // not recorded
  LockDestroy,        // not recorded
  TaskCreate,         // id: new task, id2: encountering task, arg: ompt_task_flag_t,
                      // detail: creations it stands for (task sampling; 0 = 1)
  TaskSchedule,       // id: prior task, id2: next task, detail: ompt_task_status_t
  MaskedBegin,        // id: parallel, id2: task (a masked/master construct, on the thread that runs it)
  MaskedEnd,
  LightTasks,         // sampled-out tasks this thread ran since codeptr (ticks of the first one's start)
                      // until this record's time; arg: how many; id: tasks created inside them;
                      // arg2: how many of them were timed start to end (capture/recorder.h,
                      // kLightTimedEvery), id2: their ticks in all (0 and 0 in older logs)
  LockOps,            // lock operations in sampling slot detail - 1 (first site: codeptr) not recorded
                      // since its last record, written when an implicit task begins or ends; arg: how many
  ThreadUsage,        // the thread's kernel accounting (CLOCK_THREAD_CPUTIME_ID, getrusage) at the edge of a
                      // stretch of work in a recorded region instance; detail: 0 = work starts
                      // (implicit task begin, barrier departure), 1 = work ends (barrier arrival;
                      // the implicit task's end in a team of one, which has no barrier), 2 = a
                      // recorded task's body starts (right after the switch into it), 3 = it
                      // ends or is suspended (right before the switch away; capture/thread_usage.h,
                      // kBodyGapFirstShift: one body in many where they are short).
                      // codeptr: CPU time in ns (user + system); id: system time in us;
                      // id2: minor faults; arg: context switches, involuntary in its low 16 bits and
                      // voluntary in its high 16 (logs written before 2026-12 hold the involuntary
                      // ones alone, which read as no voluntary switch); arg2: major faults.
                      // The counters are cumulative and truncated: readers take differences modulo
                      // their width.
  MpiCall,            // an MPI call on this thread (libompscope_mpi.so, docs/mpi.md), written when it
                      // returns: codeptr: ticks at its entry; detail: the call (MpiCallKind)
  HwCounters,         // the thread's hardware counters (user space), right after a ThreadUsage record,
                      // where they opened (docs/lost-time.md, "Hardware counters"); detail: its edge;
                      // codeptr: cycles; id (low) and id2 (high): instructions; arg: last-level cache
                      // misses. Cumulative since the thread's group opened; arg is truncated.
  TaskDependences,    // a recorded task's depend clause, up to two items per record, in the clause's
                      // order (written at its creation, right after its TaskCreate; every record of
                      // one clause carries the callback's one timestamp): id: the task; codeptr: the
                      // first item's address; id2 (low) and arg (high): the second's; arg2: their
                      // types (ompt_dependence_type_t; low byte: the first's, high byte: the
                      // second's); detail: items in this record (1 or 2)
  TaskDependence,     // the runtime made a recorded task wait for another (ompt_callback_task_dependence,
                      // libomp: only predecessors not yet complete): id: the predecessor, id2: the successor
  SerialUsage,        // the initial thread at an edge of serial code (capture/serial_usage.h): detail:
                      // 0 = a top-level join, 1 = a top-level fork, 2 = the run ends; codeptr: its CPU
                      // time in ns; id (low) and id2 (high): its run-queue wait in ns (schedstat),
                      // where arg2 is 1 (0: unknown). Both count from the thread's start.
  SerialWaits,        // right after a SerialUsage record, what the kernel counted that says what the
                      // initial thread waited for (getrusage): codeptr: the CPU time, in ns, of the
                      // process's children that ended and were waited for; id: block input
                      // operations; id2: block output operations; arg: voluntary context switches
                      // (the thread's). Cumulative and truncated, as ThreadUsage's counters are.
  Sample,             // a CPU-time sample of this thread (capture/pc_sampler.h), written when the thread
                      // moved its sample ring into the log (so `time` is that moment, not the sample's):
                      // codeptr: the interrupted program counter; id (low) and id2 (high): the sample's
                      // own ticks; arg: its weight in sampling periods (1 + the timer's overrun);
                      // detail: frames that follow in SampleFrames records (return addresses, innermost
                      // first)
  SampleFrames,       // two frames of the Sample before it: codeptr, then id (low) and id2 (high); 0: none
  ToolControl,        // omp_control_tool on this thread: detail: ompt_control_tool_t's command
                      // (2 = pause, 1 = start again, 3 = flush, 4 = end); nothing is recorded while paused
  TaskLevels,         // tasks this thread created, light ones included, by their level in the task tree
                      // (1: created by an implicit task; d + 1: by a task at level d; the last level
                      // counted, kTaskLevelsCounted - 1, holds every deeper one), since its
                      // last such records, written where a region's part begins or ends: arg2: the first
                      // level in this record; detail: levels in it (1 to 5); their counts in id, id2, arg,
                      // then codeptr's low and high 32 bits
  Count
};

// The MPI calls libompscope_mpi.so times (docs/mpi.md); names in kMpiCallNames.
enum class MpiCallKind : uint8_t {
  Init, Finalize, Send, Recv, Sendrecv, Wait, Waitall, Barrier, Bcast, Reduce, Allreduce, Gather,
  Allgather, Scatter, Alltoall, Probe, Waitany, Count
};
inline constexpr const char* kMpiCallNames[] = {
    "MPI_Init", "MPI_Finalize", "MPI_Send", "MPI_Recv", "MPI_Sendrecv", "MPI_Wait", "MPI_Waitall", "MPI_Barrier",
    "MPI_Bcast", "MPI_Reduce", "MPI_Allreduce", "MPI_Gather", "MPI_Allgather", "MPI_Scatter", "MPI_Alltoall",
    "MPI_Probe", "MPI_Waitany"};
static_assert(sizeof kMpiCallNames / sizeof *kMpiCallNames == static_cast<size_t>(MpiCallKind::Count));

// The levels a thread's TaskLevels records count tasks at: 1 to kTaskLevelsCounted - 1, the last
// of them holding every deeper level too.
inline constexpr uint32_t kTaskLevelsCounted = 64;

// 32 bytes, laid out without padding. Field meaning depends on `kind` (see EventKind).
// codeptr is the callsite's return address (0 when the runtime gives none).
struct Event {
  uint64_t time;     // clock ticks (TSC, or CLOCK_MONOTONIC ns: the log's meta says which)
  uint64_t codeptr;
  uint32_t id;
  uint32_t id2;
  uint32_t arg;
  uint16_t arg2;
  EventKind kind;
  uint8_t detail;

  // Mutex events carry a 64-bit wait id (the lock's address) in id/id2.
  uint64_t wait_id() const { return (uint64_t{id2} << 32) | id; }
  void set_wait_id(uint64_t w) {
    id = static_cast<uint32_t>(w);
    id2 = static_cast<uint32_t>(w >> 32);
  }
};
static_assert(sizeof(Event) == 32, "the log format fixes records at 32 bytes");
static_assert(std::is_trivially_copyable_v<Event>);
static_assert(static_cast<int>(EventKind::Count) < 256);

// Each per-thread log file starts with this header, then records until the first zero kind.
struct LogFileHeader {
  char magic[8];
  uint32_t version;
  uint32_t record_size;
  uint32_t thread_index;  // order in which the tool saw the thread begin (0 = initial thread)
  uint32_t pid;
  uint64_t reserved[5];
};
static_assert(sizeof(LogFileHeader) == 64);

// The threads one log holds at most: the tool's static table of logs (capture/thread_log.cpp)
// has this many slots, so a thread file whose index is not below it is corrupt.
inline constexpr uint32_t kMaxThreadLogs = 4096;

inline constexpr const char* kMetaFileName = "meta.txt";
inline constexpr const char* kThreadFilePrefix = "thread-";
inline constexpr const char* kThreadFileSuffix = ".evt";

}  // namespace ompscope
