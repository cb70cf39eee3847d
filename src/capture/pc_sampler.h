// Where the CPU time goes inside a region and in serial code: each recording thread is sampled on
// its own CPU-time clock (a POSIX timer on CLOCK_THREAD_CPUTIME_ID, signalled to the thread
// itself), which needs no PMU and no perf_event permission. The signal handler stores the
// interrupted program counter and the frame-pointer chain (read only inside the thread's own
// stack, so a frame without a frame pointer ends the chain and never faults) into a fixed ring
// the thread owns; the thread moves the ring into its log at the edges it records anyway (a
// region instance's kernel accounting, the serial edges, its end), so the handler never touches
// the log (docs/sampling.md, "Sampled lines").
//
// The kernel runs CPU-time timers at its tick: at 250 Hz a 1 ms period fires every 4 ms and the
// timer's overrun counts the periods that elapsed; each sample carries that weight, so time
// attributed to a line is weight × period whatever the tick.
#pragma once
#include <atomic>
#include <cstdint>

#include "capture/thread_log.h"
#include "common/clock.h"

namespace ompscope::capture {

// Frames kept per sample after the interrupted program counter.
constexpr uint32_t kSampleFrames = 13;

// Reads OMPSCOPE_SAMPLE_HZ (default 1000; 0: off), installs the handler and writes meta.txt's
// "pc_sampling" line. Before any thread starts sampling. The sampler knows nothing of the
// recorder's session: it is handed the clock its samples are stamped with, the flag under which
// the program paused the recording (omp_control_tool), and each thread's log at a drain.
void open_pc_sampling(ClockSource clock, const std::atomic<bool>* paused);
// The calling thread's timer and ring (at its begin), and their end (at its end, after a last drain).
void begin_thread_sampling();
void end_thread_sampling(ThreadLog& log, const LogConfig& config);
// Appends the samples the ring holds to the calling thread's `log`.
void drain_samples(ThreadLog& log, const LogConfig& config);
// Samples lost to a full ring, over the threads that ended sampling.
uint64_t dropped_samples();

}  // namespace ompscope::capture
