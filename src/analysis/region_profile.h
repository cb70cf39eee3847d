// Per-callsite summary of one run: how often each parallel region ran, how long, and how each
// thread's time inside it splits into work, barrier wait, lock wait and fork/join.
#pragma once
#include <cstdint>
#include <vector>

#include "analysis/timeline.h"
#include "report/report.h"

namespace ompscope::analysis {

using report::ThreadSplit;

// Sums every time field and the task count; `thread` stays the left side's.
ThreadSplit& operator+=(ThreadSplit& into, const ThreadSplit& s);
// Every time field and the task count times f (scaling a sample to the whole); `thread` unchanged.
ThreadSplit operator*(ThreadSplit s, double f);

// One region: the instances sharing a site (RegionInstance::site, their outlined body or fork).
struct RegionProfile {
  uint64_t codeptr = 0;      // the fork's return address (of the first instance)
  uint64_t body = 0;         // the outlined body's entry (0: unknown)
  uint64_t site() const { return body ? body : codeptr; }
  uint64_t instances = 0;
  double time_s = 0;         // sum over instances of region wall time (master's begin → end)
  uint64_t recorded_instances = 0;  // recorded in full (the others were sampled out)
  double recorded_time_s = 0;       // their wall time
  double light_time_s = 0;          // wall time of the sampled-out instances
  // The recorded instance of median length: what a one-off delay is measured against
  // (represents_light).
  const RegionInstance* typical = nullptr;
  uint32_t max_team_size = 0;
  bool nested = false;       // ran inside another parallel region
  bool complete = true;      // false if the program died inside an instance
  std::vector<ThreadSplit> per_thread;  // by index in team, summed over instances
  // Page faults (minor + major) of the team in the recorded instances where the kernel's
  // accounting was read, and in the first of them: whether instances after the first fault
  // again (memory allocated per instance: page_faults) or the first touched the data once.
  uint64_t faults_read_instances = 0;
  double faults_read = 0;
  double first_faults_read = 0;
};

// Of the serial time blocked, what the kernel's accounting says it waited for, stretch by
// stretch between two readings (event_record.h: SerialWaits): a stretch in which a child process
// ended and was waited for is a child's; else one with block I/O is I/O; the rest (a sleep, a
// pipe, a socket, a signal) neither. read: the readings carried the counts.
struct SerialWaits {
  bool read = false;
  double child_s = 0;
  double io_s = 0;
  double io_operations = 0;  // block input and output operations in the I/O stretches
};

struct ProgramProfile {
  double wall_s = 0;          // clock start → finalize (or last event)
  double in_regions_s = 0;    // top-level regions' wall time
  double serial_s = 0;        // wall_s - in_regions_s - mpi_s
  double mpi_s = 0;           // the initial thread's MPI calls outside top-level regions (docs/mpi.md)
  // Of serial_s, the time the initial thread was off its CPU without waiting for one (sleep, I/O,
  // a child), and waiting for one (descheduled), from its SerialUsage readings (serial_split);
  // both 0 and serial_usage_read false where none was recorded.
  double serial_blocked_s = 0;
  double serial_runqueue_s = 0;
  bool serial_usage_read = false;
  SerialWaits serial_waits;
  std::vector<RegionProfile> regions;  // ordered by first appearance
  std::vector<ThreadSplit> threads;    // by log thread index
};

// The recorded instance of median length (nullptr if none): what sampled-out instances of the
// same callsite are taken to look like.
const RegionInstance* typical_instance(std::vector<const RegionInstance*> recorded);

// Whether the recorded instance `r` of p's callsite is one that its sampled-out instances are split
// like (their time's split, their barrier phases): recorded, and not delayed once (preempted, a
// page-fault storm: longer than 10 times the typical instance). Where instances are of several
// kinds (a wavefront's diagonals of 1 to 7 iterations; beside a competing process, instances
// where a worker is woken late), no one of them stands for the others: all of them do, in
// proportion to time.
bool represents_light(const RegionProfile& p, const RegionInstance& r);

// Split of one thread's time in one region instance. Exposed for unit tests.
ThreadSplit split_thread_time(const RegionInstance& region, const ThreadInRegion& part);

ProgramProfile profile_program(const Timeline& timeline);

// The split of serial time between the initial thread's readings (docs/design.md, "Serial time
// off the CPU"): between two readings, the wall time its CPU time and run-queue wait do not cover
// is time blocked; of it, at most the serial time between them (outside top-level regions and
// MPI calls: `busy`, sorted) is serial time blocked. The process's start reads 0 for both.
struct SerialSplit {
  double blocked_s = 0;
  double runqueue_s = 0;
  bool read = false;
  SerialWaits waits;
};
SerialSplit serial_split(const std::vector<SerialReading>& readings, double start,
                         const std::vector<std::pair<double, double>>& busy);

}  // namespace ompscope::analysis
