#include "analysis/region_causes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "analysis/duration_text.h"
#include "analysis/repeats.h"
#include "analysis/task_diagnoses.h"
#include "common/thread_count_phrase.h"

namespace ompscope::analysis {

// The runtime's work outside waits that is the team's lock calls' (kLockCallsMin, kLockCallMaxS):
// it is the locks' cost (lock_overhead), neither the work's nor a spin's.
double lock_call_work_s(const TeamWork& w) {
  const bool lock_calls = w.lock_operations >= kLockCallsMin && w.runtime_work_s <= kLockCallMaxS * w.lock_operations &&
                          w.lock_operations >= kLockCallsPerOtherCall * w.other_runtime_calls;
  return lock_calls ? w.runtime_work_s : 0.0;
}

namespace {

// What work inflation's growth of the runtime's work holds of the team's lock calls
// (lock_call_work_s): lock_overhead's, no part of the work's growth nor a slowed thread's.
double lock_call_growth_s(const TeamWork& now, const TeamWork& base) {
  return std::max(0.0, lock_call_work_s(now) - lock_call_work_s(base));
}

// Work inflation's advice where threads were off their CPU, in either of its hints.
constexpr const char* kDescheduledAdvice =
    "descheduled by another process or by more threads than cores; run on idle cores, one thread per core";

// The on-CPU part of the hint of work_inflation, where the hardware counters name it.
std::string slowdown_text(const CpuSlowdown& c, const std::string& rest) {
  const std::string ipc = fmt::format("IPC {:.2f} -> {:.2f}", c.base_ipc, c.ipc);
  const std::string mpki = fmt::format("last-level cache misses per 1000 instructions {:.2f} -> {:.2f}", c.base_mpki, c.mpki);
  switch (c.kind) {
    case CpuSlowdown::Kind::MoreInstructions:
      return fmt::format("{} slower on the CPU, executing {:.0f}% more instructions for the same work (hardware "
                         "counters): threads spinning in user space (a busy-wait, retried atomics, a lock "
                         "that spins) or work each thread repeats",
                         rest, 100 * c.instruction_growth);
    case CpuSlowdown::Kind::Frequency:
      return fmt::format("{} slower on the CPU at the same cycles per instruction (hardware counters: {}): "
                         "each cycle took longer, the CPU clocked down with more cores busy (turbo, power or "
                         "thermal limits); no change to the code wins it back",
                         rest, ipc);
    case CpuSlowdown::Kind::CacheMisses:
      return fmt::format("{} slower on the CPU, missing the last-level cache more (hardware counters: {}; {}): "
                         "the threads' data no longer fit their share of the cache, or they evict each other's; "
                         "block the loop so each thread's data fits, fuse loops over the same arrays",
                         rest, mpki, ipc);
    case CpuSlowdown::Kind::MemoryBandwidth:
      return fmt::format("{} slower on the CPU, bound by memory bandwidth (hardware counters: as many misses per "
                         "instruction, {}, each {:.0f} cycles slower; {}): block the loop for cache reuse, "
                         "fuse loops over the same arrays, or use fewer threads per memory channel",
                         rest, mpki, c.extra_cycles_per_miss, ipc);
    case CpuSlowdown::Kind::Coherence:
      return fmt::format("{} slower on the CPU with cache lines moving between cores (hardware counters: {} "
                         "with {}, too few to cost it): threads writing the same cache lines (false sharing: "
                         "pad per-thread data to its own 64-byte line, or accumulate in locals), or data one "
                         "thread writes and another reads",
                         rest, ipc, mpki);
    case CpuSlowdown::Kind::Unknown:
      break;
  }
  return {};
}

const char* slowdown_detail(CpuSlowdown::Kind kind) {
  switch (kind) {
    case CpuSlowdown::Kind::MoreInstructions: return "more_instructions_s";
    case CpuSlowdown::Kind::Frequency: return "frequency_s";
    case CpuSlowdown::Kind::CacheMisses: return "cache_misses_s";
    case CpuSlowdown::Kind::MemoryBandwidth: return "memory_bandwidth_s";
    case CpuSlowdown::Kind::Coherence: return "coherence_s";
    case CpuSlowdown::Kind::Unknown: break;
  }
  return nullptr;
}

// Where the team's work did not grow from the smallest count (`inflation` ≤ 0: the run there was
// slowed as much, another process sharing its CPU too), the waits for threads switched out at
// `threads` are still lost there: a fork and barriers held back for a thread that had no CPU. A
// busy loop on the second CPU and another on either: the work was 66 ms at 1 thread and at 2,
// and the 2-thread run's 21 ms of loss, waits for switched-out threads, had no cause (19%
// explained) while thread creation's 5.6 ms was ranked first.
std::optional<Problem> waits_for_switched_out_threads(const TeamWork& now, const TeamWork& base, int threads,
                                                      double descheduled_s, double inflation) {
  if (!(descheduled_s > 0)) return std::nullopt;
  const std::string hint = fmt::format(
      "threads were off their CPU at {} ({:.0f} involuntary switches), and the others waited {} for them at the "
      "fork and at barriers; the team's work did not grow from {} ({} of thread time at {}, {} at {}: the run at {} "
      "was slowed as much): {}",
      threads_phrase(threads), now.usage.switches, duration_text(descheduled_s), threads_phrase(base.threads),
      duration_text(now.work_s), threads_phrase(threads), duration_text(base.work_s), threads_phrase(base.threads),
      threads_phrase(base.threads), kDescheduledAdvice);
  return Problem{"work_inflation", threads, descheduled_s, descheduled_s, hint,
                 {{"work_s", now.work_s},
                  {"base_work_s", base.work_s},
                  {"growth_s", inflation},
                  {"descheduled_imbalance_s", descheduled_s},
                  {"preempted_s", 0.0},
                  {"involuntary_switches", now.usage.switches},
                  {"memory_or_cache_s", 0.0}}};
}

// The growth of the team's work from the smallest count to `threads`, split by what the kernel
// can name: time off the CPU, time in the kernel (page faults first of all: a region's work makes
// few system calls), and the rest, which the CPU spends slower on the same work (memory
// bandwidth, caches, false sharing, NUMA, frequency). Each named part is the growth of its own
// figure, never more than the inflation together. Its wall-clock share at `threads` is the
// inflation spread over the team, plus the imbalance at barriers that the threads' CPU time does
// not explain (`descheduled_s`: a thread off its CPU made the others wait for it).
std::optional<Problem> work_inflation(const TeamWork& now, const TeamWork& base, int threads, double descheduled_s,
                                      double uneven_s, bool uneven_same_threads, double spin_wait_s,
                                      double replicated_s) {
  // Work that grows with the team is replicated_work's, and no false sharing or bandwidth; the
  // lock calls' runtime work is lock_overhead's (lock_per_item: the lookups of 4 M cold locks,
  // 102 ms more at 2 threads, read as threads spinning in the runtime and ranked above the lock).
  const double lock_calls = lock_call_growth_s(now, base);
  const double inflation = now.work_s - base.work_s - replicated_s - lock_calls;
  const bool split = now.usage_read && base.usage_read;
  if (base.work_s <= 0) return std::nullopt;
  if (!(inflation > 0)) return waits_for_switched_out_threads(now, base, threads, split ? descheduled_s : 0.0, inflation);
  double preempted = 0, faulting = 0;
  if (split) {
    preempted = std::max(0.0, now.usage.off_cpu_s() - base.usage.off_cpu_s());
    faulting = std::max(0.0, now.usage.system_s - base.usage.system_s);
    // Below what the split resolves, the kernel's growth is the ticks' sampling, named nowhere (it
    // stays with the rest, the same work slower on the CPU): a tick a thread, and where the log
    // says the machine's tick, twice the sampling's spread. Of the ticks in a CPU time W, the
    // share that landed in the kernel is its system time S: a binomial count, whose spread is
    // sqrt(tick × S × (1 − S/W)); the two counts' differ by the root of both variances at random.
    // At 250 Hz a delay loop read 10.4 ms in the kernel at 2 threads (2.6 ticks) against ~1 ms at
    // 1 thread, and was told to allocate outside the loop, then to move system calls out of it
    // (e2e retries).
    double resolution = std::max(kKernelSplitResolutionS, now.kernel.tick_s) * threads;
    const auto variance = [tick = now.kernel.tick_s](const report::WorkUsage& u) {
      return u.cpu_s > 0 ? tick * u.system_s * std::clamp(1 - u.system_s / u.cpu_s, 0.0, 1.0) : 0.0;
    };
    if (now.kernel.tick_s > 0)
      resolution = std::max(resolution, 2 * std::sqrt(variance(now.usage) + variance(base.usage)));
    if (faulting < resolution) faulting = 0;
  }
  // What the kernel's accounting grew by, before it is scaled to the inflation below: the evidence
  // the hint names, and what the faults are weighed against.
  const double kernel_growth = faulting;
  // The CPU time that grew in the OpenMP runtime outside its waits (TeamWork::runtime_work_s):
  // threads calling it in a loop, on the CPU. NPB LU's pipelined sweeps spin
  // `while (flag[j-1] == 0) { #pragma omp flush }` until the neighbour's row is done: 239 ms of
  // its 260 ms growth was libomp's flush, and the hint said to pad per-thread data.
  double spinning = std::max(0.0, (now.runtime_work_s - lock_call_work_s(now)) - (base.runtime_work_s - lock_call_work_s(base)));
  const bool scaled = preempted + faulting + spinning > inflation;  // then they are all of it: no rest
  if (scaled) {
    const double f = inflation / (preempted + faulting + spinning);
    preempted *= f;
    faulting *= f;
    spinning *= f;
  }
  const double rest = scaled ? 0.0 : inflation - preempted - faulting - spinning;
  const double faults = now.usage.minor_faults + now.usage.major_faults;
  const double base_faults = base.usage.minor_faults + base.usage.major_faults;
  // Each part of the growth: its size, the evidence that names it, and the one thing to do about
  // it. The hint gives the largest part's advice only, with its evidence; the others are figures
  // (docs/lost-time.md, "Work inflation"): one hint per cause, never every possible cause at once.
  struct Part {
    double s;
    std::string evidence, advice;
  };
  std::vector<Part> parts;
  // Time off the CPU is a wait for one (involuntary switches: another thread held it) or a sleep
  // (voluntary ones: a lock in the kernel or the C library, I/O, a page another thread is faulting
  // in), and the kernel counts each kind; the more frequent names it. alloc_touch_free on 16
  // cores slept 434 ms longer than at 1 thread with 7 involuntary switches, its threads' page
  // faults, mmap and munmap taking the process's memory map in turns, and was told "run on idle
  // cores, one thread per core".
  const double involuntary = std::max(0.0, now.usage.switches - base.usage.switches);
  const double voluntary = std::max(0.0, now.usage.voluntary_switches - base.usage.voluntary_switches);
  const bool slept = split && voluntary > involuntary;
  if (split) {
    if (preempted > 0) {
      const std::string waited = descheduled_s > 0 ? fmt::format(", and the others waited {} for them at barriers",
                                                                  duration_text(descheduled_s))
                                                    : "";
      const bool faulted = faults > 0 && now.usage.system_s >= 0.1 * now.work_s;
      parts.push_back(
          slept ? Part{preempted + descheduled_s,
                       fmt::format("threads slept {} longer ({:.0f} voluntary context switches more than at {}, "
                                   "{:.0f} involuntary: blocked, not descheduled){}",
                                   duration_text(preempted), voluntary, threads_phrase(base.threads), involuntary,
                                   waited),
                       faulted ? "they sleep in the kernel while another thread's page faults, mmap or munmap hold "
                                 "the process's memory map (a tenth of the work or more is in the kernel, with page "
                                 "faults): allocate buffers once outside it and reuse them (or keep freed memory: "
                                 "glibc's M_MMAP_THRESHOLD / M_TRIM_THRESHOLD)"
                               : "they wait on a lock in the kernel or the C library (a mutex, malloc's arenas) or "
                                 "on I/O: find what they sleep on (strace -f -T, perf trace) and take it out of the "
                                 "parallel region, or give each thread its own"}
                : Part{preempted + descheduled_s,
                       fmt::format("threads were off their CPU {} longer ({:.0f} involuntary switches){}",
                                   duration_text(preempted), now.usage.switches, waited),
                       kDescheduledAdvice});
    }
    // Page faults are named where the kernel's time grew, and where it is a tenth of the work
    // or more: faults on fresh memory cost at every count, and more when threads fault at once
    // (as many faults at t as at t0, each slower: alloc_touch_free). Kernel time that grew with no
    // page fault at all is system calls, and gets no allocation advice (a region with 57 µs more
    // in the kernel and 0 faults had been told to allocate outside the loop; EPCC syncbench's
    // worker, 0.19 s in the kernel and no fault, read "memory is allocated and first touched").
    // Nor does a fraction of a fault that could not cost the growth at the most a fault costs
    // (kPageFaultMaxCostS): many_barriers read 10.8 ms more in the kernel beside 0.43 faults per
    // run, and was told to allocate outside the loop (the kernel time was the tool's own
    // readings: team_work.h, kReadingsOverWork).
    if (faulting > 0 && !(faults * kPageFaultMaxCostS >= kernel_growth))
      parts.push_back({faulting,
                       fmt::format("{} more in the kernel ({} in all at {}) with {}: system calls",
                                   duration_text(kernel_growth), duration_text(now.usage.system_s), threads_phrase(threads),
                                   faults < 0.5 ? std::string("no page fault")
                                                : fmt::format("{:.0f} page faults, which cost {} at most", faults,
                                                              duration_text(faults * kPageFaultMaxCostS))),
                       "move system calls (I/O, sleeping and waking threads, mapping memory) out of the region"});
    else if (faulting > 0 || (faults > 0 && now.usage.system_s >= 0.1 * now.work_s))
      parts.push_back({faulting,
                       fmt::format("{} more in the kernel ({} in all at {}, with {:.0f} page faults against {:.0f} "
                                   "at {})",
                                   duration_text(kernel_growth), duration_text(now.usage.system_s), threads_phrase(threads),
                                   faults, base_faults, threads_phrase(base.threads)),
                       "memory is allocated and first touched (or freed and allocated again) inside the region; "
                       "allocate buffers once outside it and reuse them (or keep freed memory: glibc's "
                       "M_MMAP_THRESHOLD / M_TRIM_THRESHOLD)"});
  }
  if (spinning > 0)
    parts.push_back({spinning,
                     fmt::format("{} more CPU time in the OpenMP runtime outside its waits{} (CPU-time samples: {} "
                                 "at {}, {} at {}{})",
                                 duration_text(spinning), now.runtime_place.empty() ? "" : ", in " + now.runtime_place,
                                 duration_text(now.runtime_work_s), threads_phrase(threads),
                                 duration_text(base.runtime_work_s), threads_phrase(base.threads),
                                 now.runtime_function.empty() ? "" : "; most in " + now.runtime_function),
                     "threads call the runtime in a loop: a hand-written wait spinning on `omp flush` until another "
                     "thread sets a flag is threads waiting for each other, not slower work (let the runtime order "
                     "the steps: task depend clauses, a doacross loop's ordered depend(sink)/depend(source); or give "
                     "each thread more work between the waits); a runtime call per iteration (an omp_ function, a "
                     "lock, a dynamic schedule's chunks) costs more with more threads (hoist it, or larger chunks)"});
  const CpuSlowdown slowdown = name_cpu_slowdown(now.usage, base.usage);
  if (rest > 0 && slowdown.kind != CpuSlowdown::Kind::Unknown) {
    // The counters' own text: its evidence (the counters' figures) and its advice in one.
    const std::string text = slowdown_text(slowdown, duration_text(rest));
    const std::size_t colon = text.find("): ");
    parts.push_back({rest, colon == std::string::npos ? text : text.substr(0, colon + 1),
                     colon == std::string::npos ? std::string() : text.substr(colon + 3)});
  } else if (rest > 0) {
    parts.push_back({rest,
                     fmt::format("{} slower on the CPU{} with no hardware counters to say why", duration_text(rest),
                                 split ? " (neither off it nor in the kernel)"
                                       : " or off it (the kernel's accounting was not read)"),
                     "the CPU waited on memory bandwidth or on cache lines other threads write (false sharing): pad "
                     "per-thread data to its own 64-byte line, block loops for cache reuse (hardware counters, where perf_event_open is "
                     "allowed, tell which)"});
  }
  std::stable_sort(parts.begin(), parts.end(), [](const Part& a, const Part& b) { return a.s > b.s; });
  std::string hint = fmt::format("the team's work (thread time outside waits) grew {:.0f}% from {} to {} ({} "
                                 "of thread time)",
                                 100 * inflation / base.work_s, threads_phrase(base.threads), threads,
                                 duration_text(inflation));
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i == 0) hint += ": " + parts[i].evidence + (parts[i].advice.empty() ? "" : ": " + parts[i].advice);
    else hint += (i == 1 ? "; besides, " : ", ") + parts[i].evidence;
  }
  if (uneven_s > 0 && uneven_same_threads)
    hint += fmt::format(". It slowed the threads unevenly, the same ones in every instance, and the others waited {} "
                        "for them at barriers: not an imbalance of the loop's iterations, as no thread ran less than "
                        "its share of the work at {}",
                        duration_text(uneven_s), threads_phrase(base.threads));
  else if (uneven_s > 0)
    hint += fmt::format(". It slowed the threads unevenly: the slowest changed from one instance to the next, and "
                        "the others waited {} for it at barriers (not an imbalance of the loop's iterations)",
                        duration_text(uneven_s));
  if (spin_wait_s > 0)
    hint += fmt::format(". The threads that spun reached the barriers last, and the others waited {} for them there "
                        "(not an imbalance of the loop's iterations)",
                        duration_text(spin_wait_s));
  if (!split) descheduled_s = 0;
  // Its time is the growth plus the barrier waits it caused, so that its gain (the growth spread
  // over the team, plus those waits) never exceeds it ("gain 47.8 ms of 38.6 ms" before).
  const double waits = descheduled_s + uneven_s + spin_wait_s;
  Problem p{"work_inflation", threads, inflation + waits, inflation / threads + waits, hint,
            {{"work_s", now.work_s}, {"base_work_s", base.work_s}}};
  if (lock_calls > 0) p.details.emplace_back("lock_calls_growth_s", lock_calls);
  if (descheduled_s > 0) p.details.emplace_back("descheduled_imbalance_s", descheduled_s);
  if (uneven_s > 0) p.details.emplace_back("uneven_imbalance_s", uneven_s);
  if (spin_wait_s > 0) p.details.emplace_back("spin_imbalance_s", spin_wait_s);
  if (split) {
    // Time the threads slept is the program's, not the machine's (report_notes: a busy machine).
    p.details.emplace_back(slept ? "slept_s" : "preempted_s", preempted);
    p.details.emplace_back(report::detail_key::kPageFaults, faults);
    p.details.emplace_back("major_faults", now.usage.major_faults);
    p.details.emplace_back("base_page_faults", base.usage.minor_faults + base.usage.major_faults);
    p.details.emplace_back(report::detail_key::kPageFaultS, faulting);
    p.details.emplace_back("involuntary_switches", now.usage.switches);
    p.details.emplace_back("voluntary_switches", now.usage.voluntary_switches);
    if (now.kernel.page_fault_floor_s > 0) p.details.emplace_back("page_fault_floor_s", now.kernel.page_fault_floor_s);
  }
  p.details.emplace_back("memory_or_cache_s", rest);
  if (spinning > 0) p.details.emplace_back("runtime_spin_s", spinning);
  if (slowdown.kind != CpuSlowdown::Kind::Unknown) {
    p.details.emplace_back(slowdown_detail(slowdown.kind), rest);
    p.details.emplace_back("ipc", slowdown.ipc);
    p.details.emplace_back("base_ipc", slowdown.base_ipc);
    p.details.emplace_back("llc_misses_per_kinstr", slowdown.mpki);
    p.details.emplace_back("base_llc_misses_per_kinstr", slowdown.base_mpki);
    p.details.emplace_back("instruction_growth", slowdown.instruction_growth);
    p.details.emplace_back("extra_cycles_per_miss", slowdown.extra_cycles_per_miss);
  }
  return p;
}

// Memory mapped fresh and faulted in, instance after instance (docs/lost-time.md, "Page faults"):
// time in the kernel that costs at every thread count, not only the part that grows with the team.
// A buffer allocated, touched and freed in each instance of a region spends most of the region in
// the kernel zeroing pages (alloc_touch_free: 95% of its work, at 1 thread as at 2), while the
// growth from 1 thread to 2 is a few percent, within the runs' spread on a kernel whose munmap
// gives up the memory map's lock as it unmaps: work inflation alone saw the growth and missed the
// cost. Named where the kernel holds a tenth of the team's work or more with page faults that take
// at least half of it (kPageFaultCostSpread), and the instances after the first fault again (a
// first touch of the data, NUMA-style, is paid once, in the first instance: no repeated
// allocation). Its time is the kernel time the smallest count had too (at t0, all of it): the
// growth beyond it stays work inflation's, so that the two never claim the same time. Its gain is
// that time spread over the team.
std::optional<Problem> page_faults(const TeamWork& now, const TeamWork* base, const RegionProfile& profile,
                                   int threads) {
  if (!now.usage_read || !(now.work_s > 0) || profile.faults_read_instances < 2) return std::nullopt;
  const double later_each =
      (profile.faults_read - profile.first_faults_read) / static_cast<double>(profile.faults_read_instances - 1);
  if (!(later_each > 0) || later_each < kPageFaultsRepeatShare * profile.first_faults_read) return std::nullopt;
  const uint64_t instances = profile.instances;
  const double faults = now.usage.minor_faults + now.usage.major_faults;
  const double most_per_fault =
      now.kernel.page_fault_floor_s > 0 ? kPageFaultCostSpread * now.kernel.page_fault_floor_s : kPageFaultMaxCostS;
  if (!(faults > 0) || now.usage.system_s < kPageFaultsMinShare * now.work_s ||
      now.usage.system_s > faults * most_per_fault)
    return std::nullopt;
  const bool grown = base && base->usage_read && base->threads < threads;
  const double kernel = grown ? std::min(now.usage.system_s, base->usage.system_s) : now.usage.system_s;
  if (!(kernel > 0)) return std::nullopt;
  std::string hint = fmt::format(
      "the team spent {} of its {} of work in the kernel, with {:.0f} page faults ({} each) over {} instances{}: memory "
      "is allocated and first touched (or freed and allocated again) inside the region, at every thread count; "
      "allocate buffers once outside it and reuse them (or keep freed memory: glibc's M_MMAP_THRESHOLD / "
      "M_TRIM_THRESHOLD)",
      duration_text(now.usage.system_s), duration_text(now.work_s), faults, duration_text(now.usage.system_s / faults),
      instances,
      grown ? fmt::format(" ({} of it at {} as well)", duration_text(kernel), threads_phrase(base->threads)) : "");
  return Problem{"page_faults", threads, kernel, kernel / threads, hint,
                 {{report::detail_key::kPageFaults, faults},
                  {"major_faults", now.usage.major_faults},
                  {"system_s", now.usage.system_s},
                  {"work_s", now.work_s},
                  {"instances", static_cast<double>(instances)}}};
}

// The team's CPU time in its work, where the kernel's accounting was read (else its work).
double team_cpu_s(const TeamWork& w) { return w.usage_read ? w.usage.cpu_s : w.work_s; }

// Work that grows with the team (docs/design.md, "Work that grows with the team"): the team's CPU
// time outside worksharing constructs (the region's share of time there, of the team's CPU time),
// or a loop's iteration count per visit, grew t/t0 within kReplicatedBand. Its time is the team's
// growth there (thread-seconds of work, the CPU time's growth at the rate the team ran), its gain
// that growth spread over the team: what dividing the work among the threads wins back.
std::optional<Problem> replicated_work(const TeamWork& now, const TeamWork& base, int threads) {
  const double expected = static_cast<double>(threads) / std::max(1, base.threads);
  if (base.weak || !(expected > 1) || !(base.time_s > 0) || !(now.time_s > 0)) return std::nullopt;
  const auto proportional = [&](double ratio) { return std::abs(ratio / expected - 1) <= kReplicatedBand; };
  const double share0 = base.outside_worksharing_s / base.time_s, share = now.outside_worksharing_s / now.time_s;
  const double outside0 = team_cpu_s(base) * share0, outside = team_cpu_s(now) * share;
  double outside_growth = 0;
  std::vector<std::string> where;
  // A region whose work is all outside worksharing and whose lock operations did not grow with
  // the team divided its work (locks_per_thread: 4 M updates shared out, each thread's CPU time
  // grown x2 on a loaded machine whose two vCPUs share a core, was called replicated work).
  const bool divided = share0 >= kReplicatedAllOutside && share >= kReplicatedAllOutside &&
                       base.lock_operations >= kReplicatedMinOperations &&
                       !proportional(now.lock_operations / base.lock_operations);
  // Where the hardware counters were read over the team's work at both counts, its instructions
  // measure the work itself, which no machine's speed changes: a team whose work doubled and ran
  // 35% slower per instruction (two threads on one core) grew x2.7 in CPU time, outside the band,
  // and x2 in instructions (EPCC syncbench's delay() on the 2-vCPU VM of BENCHMARKS.md). The work
  // added is then valued at the CPU time per instruction at t; the rest of the CPU time's growth
  // is the same work slower (work_inflation).
  const bool counted = now.usage_read && base.usage_read && now.usage.counted() && base.usage.counted();
  const double instructions0 = counted ? counts_of(base.usage).instructions * share0 : 0.0;
  const double instructions = counted ? counts_of(now.usage).instructions * share : 0.0;
  const double ratio = counted && instructions0 > 0 ? instructions / instructions0 : outside0 > 0 ? outside / outside0 : 0.0;
  // Instructions count the work itself; CPU time alone can grow in proportion by chance.
  const bool unrepeated = !counted && !unrepeated_line(now.sampled_lines, base.sampled_lines, expected).empty();
  if (share0 >= kReplicatedMinShare && outside0 > 0 && proportional(ratio) && !divided && !unrepeated) {
    outside_growth = counted ? std::max(0.0, (instructions - instructions0) * (outside / instructions)) : outside - outside0;
    where.push_back(fmt::format("the team's {} outside any worksharing construct ({:.0f}% of the region) grew "
                                "x{:.2f} from {} to {} (work each thread repeats grows x{:.2f}; within {:.0f}%): a "
                                "loop every thread runs whole, or an SPMD region whose work does not shrink with the "
                                "team; share the loop with #pragma omp for, or divide the work by the team size "
                                "(omp_get_num_threads())",
                                counted ? "instructions (hardware counters)" : "CPU time", 100 * share, ratio,
                                threads_phrase(base.threads), threads, expected, 100 * kReplicatedBand));
  }
  double loop_growth = 0;
  for (const TeamWork::Loop& l : now.loops) {
    auto b = std::find_if(base.loops.begin(), base.loops.end(), [&](const TeamWork::Loop& x) { return x.path == l.path; });
    if (b == base.loops.end() || !(b->iterations_per_visit > 0) || !proportional(l.iterations_per_visit / b->iterations_per_visit))
      continue;
    const double growth = std::max(0.0, l.time_s * threads - b->time_s * base.threads);
    loop_growth += growth;
    where.push_back(fmt::format("the loop at {} ran {:.0f} iterations per visit at {} against {:.0f} at {} (x{:.2f}): "
                                "its trip count grows with the team; divide it by the team size",
                                l.place, l.iterations_per_visit, threads_phrase(threads), b->iterations_per_visit,
                                base.threads, l.iterations_per_visit / b->iterations_per_visit));
  }
  // In wall time at the rate the team ran at t (CPU seconds per second of work; below 1 on a
  // loaded machine): what dividing the work would save there.
  const double rate = now.usage_read && now.usage.wall_s > 0 && now.usage.cpu_s > 0
                          ? std::min(1.0, now.usage.cpu_s / now.usage.wall_s) : 1.0;
  const double growth = (outside_growth + loop_growth) / rate;
  if (!(growth > 0)) return std::nullopt;
  std::string hint = "each thread does a fixed amount of work, so the team's work grows with the team: ";
  for (size_t i = 0; i < where.size(); ++i) hint += (i ? "; " : "") + where[i];
  hint += " (a program meant to scale weakly: ompscope scale --weak)";
  return Problem{"replicated_work", threads, growth, growth / threads, hint,
                 {{"team_cpu_s", team_cpu_s(now)},
                  {"base_team_cpu_s", team_cpu_s(base)},
                  {"expected_growth", expected},
                  {"outside_worksharing_share", share},
                  {"outside_worksharing_growth_s", outside_growth},
                  {"work_growth", ratio},
                  {"loop_growth_s", loop_growth},
                  {"cpu_per_wall", rate}}};
}

// A dynamic schedule's dispatch: ~0.3 us per chunk with libomp 14 at 2 threads on the 2-vCPU VM
// of BENCHMARKS.md (`ompscope bench` constructs: for_dynamic minus for_static, per chunk); the
// bench cache's own figure where it has one for the runtime (docs/tasks.md, "The bench cache").
constexpr double kDispatchS = 0.3e-6;

// A schedule sized for the loop: the smallest chunk whose dispatch costs at most 2% of its work,
// if that still leaves 8 chunks per thread to balance with; else guided with that chunk as its
// smallest (few large chunks first, then smaller ones). `leaves_s`: what it cannot win back of the
// imbalance per loop instance, in wall time: its chunks' dispatch, shared by the team, and its last
// chunk's granularity beyond one iteration's (a thread finishing up to a chunk after another:
// (t-1)/(2t) of a chunk on average; one iteration's is too_few_iterations' or the iterations').
// Without it, a blocked wavefront's guided(9) was predicted to win 9.3 ms and won 5.2.
struct SizedSchedule {
  std::string text;     // "schedule(dynamic, 22) (... why)"
  bool dynamic = true;  // else guided
  double leaves_s = 0;
};

SizedSchedule sized_schedule(double iterations, double per_iteration_s, int threads, double bench_dispatch_s) {
  const double dispatch = bench_dispatch_s > 0 ? bench_dispatch_s : kDispatchS;
  const double smallest = std::max(1.0, std::ceil(dispatch / (0.02 * per_iteration_s)));
  const double largest = std::floor(iterations / (8.0 * threads));
  const std::string why = fmt::format(" ({:.0f} iterations of {} each; a chunk's dispatch costs ~{}, {})", iterations,
                                      duration_text(per_iteration_s), duration_text(dispatch),
                                      bench_dispatch_s > 0 ? "ompscope bench on this machine"
                                                           : "a typical figure: no ompscope bench cached for this runtime");
  SizedSchedule out;
  out.dynamic = smallest <= std::max(1.0, largest);
  out.text = fmt::format("schedule({}, {:.0f}){}", out.dynamic ? "dynamic" : "guided", smallest, why);
  // Chunks per instance: dynamic's fixed ones; guided's (libomp and libgomp) each the remaining
  // iterations over twice the team, never below the smallest.
  double chunks = 0;
  if (out.dynamic) {
    chunks = std::ceil(iterations / smallest);
  } else {
    for (double left = iterations; left > 0 && chunks < 1e6; ++chunks)
      left -= std::min(left, std::max(smallest, std::ceil(left / (2.0 * threads))));
  }
  const double t = threads;
  out.leaves_s = chunks * dispatch / t + (t - 1) / (2 * t) * (std::min(smallest, iterations) - 1) * per_iteration_s;
  return out;
}

// The advice for an imbalanced loop: try the sized schedule, unless the runtime reported (libomp
// 19) that the loop already has that kind of schedule; then only a smaller chunk could help.
// `leaves_s`: what the advised schedule cannot win back, over all the loop's imbalanced instances.
std::string schedule_advice(const BarrierPhases& phases, int threads, double bench_dispatch_s, double& leaves_s) {
  leaves_s = 0;
  if (!(phases.loop_iterations > 0 && phases.loop_work_s > 0))
    return "try schedule(dynamic, chunk) or schedule(guided) on it";
  const double loops = std::max<uint32_t>(1, phases.loops_with_iterations);
  const SizedSchedule sized =
      sized_schedule(phases.loop_iterations / loops, phases.loop_work_s / phases.loop_iterations, threads, bench_dispatch_s);
  const uint32_t imbalanced = std::max<uint32_t>(1, phases.imbalanced_after_loop);
  const bool dynamic = phases.imbalanced_after_dynamic * 2 > imbalanced,
             guided = phases.imbalanced_after_guided * 2 > imbalanced;
  const bool same = (dynamic && sized.dynamic) || (guided && !sized.dynamic);
  if (!same) {
    leaves_s = sized.leaves_s * loops;
    return "try " + sized.text + " on it";
  }
  if (dynamic && sized.text.starts_with("schedule(dynamic, 1) "))
    return fmt::format("the runtime reports it is scheduled dynamically already, and chunks of one iteration are "
                       "the finest ({}): its last iterations are too costly to even out; split the costliest "
                       "iterations, or hand them out first",
                       sized.text.substr(sized.text.find('(', 9) + 1, sized.text.size() - sized.text.find('(', 9) - 2));
  return fmt::format("the runtime reports it is scheduled {} already: its last chunks are too large to even out; "
                     "if its chunk is larger than this, try {}",
                     dynamic ? "dynamically" : "guided", sized.text);
}

// A loop whose threads' CPU time differs consistently by less than this share of each thread's
// work in it has iterations of uniform cost (docs/lost-time.md, "Load imbalance").
constexpr double kUniformShare = 0.05;

bool has_kind(const RegionRun& r, report::ConstructKind kind) {
  return std::find(r.lock_kinds.begin(), r.lock_kinds.end(), kind) != r.lock_kinds.end();
}

// What serial time off the CPU waited for, as the kernel counted it (SerialWaits), and the one
// hint that fits the wait that dominates it: the evidence is named, not every possible wait.
std::pair<std::string, std::vector<std::pair<std::string, double>>> serial_wait_hint(const SerialWaits& w,
                                                                                   double blocked) {
  const double child = std::min(w.child_s, blocked), io = std::min(w.io_s, blocked - child);
  const double neither = std::max(0.0, blocked - child - io);
  std::vector<std::pair<std::string, double>> details;
  if (!w.read)
    return {"sleep, I/O, or waiting for a child process or a signal (the kernel's counts of what it waited for "
            "were not recorded); remove the wait, or overlap it with the computation (asynchronous I/O, a thread "
            "or task that waits while the others compute)",
            details};
  details = {{"wait_child_s", child}, {"wait_block_io_s", io}, {"wait_other_s", neither},
             {"block_io_operations", w.io_operations}};
  if (child >= io && child >= neither)
    return {fmt::format("{} of it while a child process ran, which ended and was waited for (system(), popen, "
                        "fork and wait); run the child in the background and wait for it when its result is "
                        "needed, or do its work in the program",
                        duration_text(child)),
            details};
  if (io >= neither)
    return {fmt::format("{} of it in stretches with block I/O ({:.0f} block input and output operations: files "
                        "read or written past the page cache); overlap the I/O with the computation "
                        "(asynchronous I/O, or a thread or task that reads or writes while the others compute), "
                        "or do less of it",
                        duration_text(io), w.io_operations),
            details};
  return {fmt::format("{} of it with no block I/O and no child process ended (a sleep, or a wait on a pipe, a "
                      "socket, a lock or a signal); remove the wait, or overlap it with the computation (a thread "
                      "or task that waits while the others compute)",
                      duration_text(neither)),
          details};
}

// How the imbalance at the region's barriers splits (typical repeat): the loop's own imbalance
// (load_imbalance), and the waits work_inflation names: for threads off their CPU, and for
// threads slowed unevenly by the growth of the team's work.
struct BarrierWaits {
  double wall_imbalance = 0, cpu_imbalance = 0, consistent_cpu = 0;
  bool cpu_known = false;   // every thread's CPU time in the segments was read
  double rate = 1;          // CPU seconds per wall second with the whole team busy (≤ 1)
  double uneven_cpu = 0;    // CPU-time imbalance that is the growth's, not the loop's
  // Whether uneven_cpu holds imbalance the same threads showed in every instance: no thread ran
  // less than its share of the smaller team's work, so the iterations cost alike.
  bool uneven_same_threads = false;
  double spin_cpu = 0;      // CPU-time imbalance the last threads spent spinning in the runtime
  double imbalance = 0, descheduled = 0, uneven = 0, spin = 0;  // wall time
  // Of `imbalance`, what no schedule evens out (BarrierPhases::indivisible_s): too_few_iterations'.
  double indivisible = 0;
};

BarrierWaits split_barrier_waits(const std::vector<const RegionRun*>& repeats, const RegionRun& first, int threads,
                                 const TeamWork& busy, const TeamWork* base, double replicated_s) {
  BarrierWaits w;
  std::vector<const BarrierPhases*> all_phases;
  for (const RegionRun* r : repeats) all_phases.push_back(&r->phases);
  w.consistent_cpu = consistent_cpu_imbalance(all_phases);
  w.wall_imbalance = first.phases.imbalance_s;
  // Where every thread's CPU time in the segments was read, only their difference in CPU time is
  // the loop's imbalance; the rest is threads that were not running (work inflation names it).
  const double measured = first.phases.measured_imbalance_s;
  w.cpu_imbalance = first.phases.cpu_imbalance_s;
  w.cpu_known = measured > 0;
  // The CPU time the loop's imbalance takes is won back at the rate the threads ran while the
  // whole team was busy (CPU seconds per wall second; below 1 on a loaded machine), never more
  // than the wall imbalance.
  w.rate = busy.usage_read && busy.usage.wall_s > 0 && busy.usage.cpu_s > 0
               ? std::min(1.0, busy.usage.cpu_s / busy.usage.wall_s)
               : 1.0;
  // What the threads that arrived last spent spinning in the runtime outside its waits beyond the
  // others (TeamWork::runtime_work_spread_s, its growth from the smallest count, over the barriers
  // whose CPU time was read): a thread that waited for another's flag worked no more.
  // flag_pipeline's second thread starts each sweep a plane behind the first, and its spin read
  // as "iterations of the loop differ in cost: try schedule(dynamic, 1)". Work inflation's, of
  // what the growth below leaves.
  const bool tasking = first.tasks.tasks > 0;
  const bool grown = w.cpu_known && base && threads > 1 && !tasking;
  const double spun = grown && first.phases.imbalance_s > 0
                          ? std::max(0.0, (busy.runtime_work_spread_s - base->runtime_work_spread_s) * measured /
                                              first.phases.imbalance_s)
                          : 0.0;
  // Of the CPU-time imbalance, the part the same threads showed in every instance is the loop's
  // (its iterations differ in cost). The rest moved between threads: where the team's work grew
  // on the CPU, threads slowed unevenly by that growth (a shared cache line, the kernel's locks)
  // take turns at being the last, and as much of it as the growth could cause (all of it on one
  // thread: (1 − 1/t) of it) is work inflation's; beyond that, the iterations' cost varies from
  // one instance to the next, which is the loop's again. The growth is work inflation's own: work
  // added with the team (replicated_work) and the lock calls' runtime work slow no thread, and
  // replicated_work's 190 ms growth had let 24.5 ms of waits for a vCPU slower in turns read as
  // work inflation in a region whose threads all run the same loop whole.
  // The same threads slow in every instance are the loop's only where some thread ran less than
  // its share of the smaller team's work (the team's CPU time less its growth, over the team
  // size, by more than what two CPUs differ by): a loop whose iterations differ in cost gives the
  // cheap ones to some thread, while threads slowed unevenly by the growth all run at least their
  // share. false_sharing on 16 cores (its 16 counters on two cache lines) kept the same threads
  // slowest and read as "iterations of the loop differ in cost: try schedule(dynamic, 4090)",
  // ranked above the work inflation that caused it; imbalanced_loop's first thread runs 1/256 of
  // its work at 16 threads. Those threads' imbalance is the growth's, less their spin.
  if (grown && base->work_s > 0) {
    double growth_on_cpu = busy.work_s - base->work_s - replicated_s - lock_call_growth_s(busy, *base);
    if (busy.usage_read && base->usage_read)
      growth_on_cpu -= std::max(0.0, busy.usage.off_cpu_s() - base->usage.off_cpu_s());
    const SegmentCpu now = segment_cpu_per_instance(first.phases.positions);  // the positions read
    const double share = now.team / (1 + std::max(0.0, growth_on_cpu / base->work_s)) / threads;
    const bool alike = share > 0 && now.fastest >= (1 - kUniformShare) * share;  // iterations of one cost
    const double movable = alike ? w.cpu_imbalance - spun : w.cpu_imbalance - w.consistent_cpu;
    w.uneven_cpu = std::clamp(std::min(movable, (1 - 1.0 / threads) * growth_on_cpu), 0.0, w.cpu_imbalance);
    w.uneven_same_threads = alike && w.uneven_cpu > w.cpu_imbalance - w.consistent_cpu;
  }
  if (grown && first.phases.imbalance_s > 0) w.spin_cpu = std::clamp(spun, 0.0, w.cpu_imbalance - w.uneven_cpu);
  const auto wall_share = [&](double cpu) {
    return std::min(w.wall_imbalance, w.wall_imbalance * std::min(1.0, cpu / measured) / w.rate);
  };
  w.imbalance = w.cpu_known ? wall_share(w.cpu_imbalance - w.uneven_cpu - w.spin_cpu) : w.wall_imbalance;
  // In wall time: the barrier waits for threads off their CPU, for threads slowed unevenly, and
  // for threads that spun.
  w.descheduled = w.cpu_known ? std::max(0.0, w.wall_imbalance - wall_share(w.cpu_imbalance)) : 0.0;
  w.uneven = w.cpu_known ? std::max(0.0, wall_share(w.cpu_imbalance) - wall_share(w.cpu_imbalance - w.uneven_cpu)) : 0.0;
  w.spin = w.cpu_known ? std::max(0.0, wall_share(w.cpu_imbalance - w.uneven_cpu) - w.imbalance) : 0.0;
  w.indivisible = threads > 1 ? std::clamp(first.phases.indivisible_s, 0.0, w.imbalance) : 0.0;
  return w;
}

// A loop with too few iterations for its team (BarrierPhases::indivisible_s): the busiest thread
// runs one more than the others at each barrier where the count does not divide, and a schedule
// only moves that iteration to another thread. A wavefront's diagonals of 1 to 7 blocks on 2
// threads lost 14% of the loop's time this way, and schedule(dynamic, 1) won none of it back.
std::optional<Problem> too_few_iterations(const RegionRun& first, const BarrierWaits& w, int threads) {
  if (!(threads > 1 && w.indivisible > 0 && first.phases.loops_with_iterations > 0)) return std::nullopt;
  const double per_instance = first.phases.loop_iterations / first.phases.loops_with_iterations;
  // No more iterations than threads: each runs one at most, and the costliest sets the time.
  const std::string hint =
      per_instance <= threads
          ? fmt::format("each instance runs {:.1f} iterations on average where its barrier waits, on {} threads: "
                        "each thread runs one at most whatever the schedule, and the others wait for the costliest "
                        "({} of the barrier waits); give each instance more and smaller iterations (collapse(2) "
                        "with an enclosing loop, smaller blocks)",
                        per_instance, threads, duration_text(w.indivisible))
          : fmt::format("each instance runs {:.1f} iterations on average where its barrier waits, on {} threads: the "
                        "busiest thread runs ceil(iterations/{}) of them while the others run fewer, and no schedule "
                        "evens that out ({} of the barrier waits); give each instance more and smaller iterations "
                        "(collapse(2) with an enclosing loop, smaller blocks), or run a team size that divides the "
                        "iteration count",
                        per_instance, threads, threads, duration_text(w.indivisible));
  return Problem{"too_few_iterations", threads, w.indivisible, w.indivisible, hint,
                 {{"iterations_per_instance", per_instance},
                  {"loops", static_cast<double>(first.phases.loops_with_iterations)}}};
}

std::optional<Problem> load_imbalance(const std::vector<const RegionRun*>& repeats, const RegionRun& first,
                                      const BarrierWaits& waits, int threads, double dispatch_per_chunk_s,
                                      bool replicated) {
  // What a schedule can even out: the indivisible part is too_few_iterations'.
  BarrierWaits w = waits;
  w.imbalance -= w.indivisible;
  if (!(threads > 1 && w.imbalance > 0)) return std::nullopt;
  const bool tasking = first.tasks.tasks > 0;
  const double instances = static_cast<double>(first.profile.instances);
  const bool loop = first.phases.imbalanced_after_loop * 2 >= std::max<uint32_t>(1, first.phases.barriers / 2) &&
                    first.phases.imbalanced_after_loop > 0;
  std::string hint;
  double schedule_leaves = 0;
  const std::string advice = schedule_advice(first.phases, threads, dispatch_per_chunk_s, schedule_leaves);
  // Whether the same threads are the slow ones in every instance (3 or more instances read at a
  // barrier position: consistent_cpu_imbalance): the evidence that the iterations differ in cost.
  double judged = 0;
  for (const RegionRun* r : repeats)
    for (size_t b = 0; b < r->phases.positions.size(); ++b) judged += r->phases.positions[b].instances;
  // The CPU figures are of the instances whose CPU time was read (a subset: capture/
  // thread_usage.h), and so is the work they are weighed against; the indivisible part stays with
  // the same threads in every instance, so it leaves the consistent part as well.
  const BarrierPhases& ph = first.phases;
  const double indivisible_read = ph.loop_work_s > 0 ? w.indivisible * ph.measured_loop_work_s / ph.loop_work_s : 0.0;
  const double loop_cpu = std::max(0.0, w.cpu_imbalance - w.uneven_cpu - w.spin_cpu - indivisible_read);
  const double consistent = std::clamp(w.consistent_cpu - indivisible_read, 0.0, loop_cpu);
  const bool moves = w.cpu_known && judged >= 3 && loop_cpu > 0 && consistent < 0.5 * loop_cpu;
  // The consistent part beside each thread's share of the loop's work: a few per cent is what
  // two CPUs differ by (a busier host core, a lower clock), not iterations that cost more.
  const double per_thread_work = ph.measured_loop_work_s / threads;
  // The hint's figures are the whole run's: the read instances' times the work of all over theirs.
  const double to_all = ph.measured_loop_work_s > 0 ? ph.loop_work_s / ph.measured_loop_work_s : 1.0;
  const bool slight = w.cpu_known && judged >= 3 && per_thread_work > 0 && consistent < kUniformShare * per_thread_work;
  if (loop && !moves && slight)
    hint = fmt::format("the same threads spend {} more CPU time in the loop in every instance, {:.1f}% of each "
                       "thread's {} in it: within what two CPUs differ by (a busier host core, a lower clock), so "
                       "its iterations cost alike and no schedule is advised (a dynamic one would give up the static "
                       "partition's cache reuse); run on idle cores of one kind",
                       duration_text(consistent * to_all), 100 * consistent / per_thread_work,
                       duration_text(per_thread_work * to_all));
  else if (loop && moves)
    // A loop of uniform cost: a different thread is last each time. A schedule cannot even out
    // what moves between threads, and a dynamic one gives up the static partition's locality.
    hint = fmt::format("the thread that reaches the barrier after the loop last changes from one instance to the "
                       "next (only {} of the {} difference in the threads' CPU time stays with the same threads): "
                       "its iterations do not differ in cost, so no schedule is advised; what slows one thread at "
                       "a time lies outside the loop's code (another process, interrupts, memory shared with the "
                       "other threads)",
                       duration_text(consistent * to_all), duration_text(loop_cpu * to_all));
  else if (loop && w.cpu_known && judged >= 3)
    // A CPU slower than the others through the run (a busier host core, a lower clock) looks the
    // same in one run: a thread's CPU time is all the capture reads of it (docs/lost-time.md).
    hint = fmt::format("iterations of the loop differ in cost (the same threads spend {} more CPU time in it in "
                       "every instance, of a {} difference; a CPU slower than the others through the run looks "
                       "the same, and a dynamic schedule evens out either): {}",
                       duration_text(consistent * to_all), duration_text(loop_cpu * to_all), advice);
  else if (loop)
    hint = w.cpu_known ? "iterations of the loop differ in cost (the threads' CPU time in it differs): " + advice
                       : "threads reach the barrier after the loop at different times: if its iterations differ in "
                         "cost, " + advice;
  else if (tasking)
    // A region made of tasks: the runtime hands them out already; "use tasks" is no advice.
    hint = "threads reach the barrier at different times: the last tasks ran on some threads while the others "
           "had none ready; split the longest tasks, or give them a `priority` so that they start first";
  else if (replicated)
    // Every thread ran the same work: no share was unequal. replicated_work at 16 threads on a
    // 16-core Xeon waited 25-90 ms at its barrier and was told to partition the work by cost.
    hint = "every thread runs the same work before the barrier (replicated work), so they reach it at different "
           "times by their speed, not by their shares: CPUs that differ (a busier host core, a lower clock) or "
           "memory that slows some more than others; share the work out (replicated work's advice) and this wait "
           "shrinks with each thread's part";
  else
    hint = "threads get unequal shares of work before the barrier: partition the work by cost rather than "
           "by count, or hand it out dynamically (schedule(dynamic) on a loop, or tasks)";
  // What the advised schedule wins: the imbalance less what it leaves (schedule_advice).
  const bool advised = loop && !moves && !slight;  // the branches whose hint is `advice`
  const double left = advised ? std::min(w.imbalance, schedule_leaves) : 0.0;
  Problem p{"load_imbalance", threads, w.imbalance, w.imbalance, hint,
            {{"barriers", static_cast<double>(first.phases.barriers)},
             {"per_instance_s", w.imbalance / std::max(1.0, instances)}}};
  // The cause's gain is its time (all of it goes if the imbalance does); the advised schedule's
  // own prediction is what it wins of it, in the hint and the details that name it.
  if (advised && schedule_leaves > 0) {
    p.details.emplace_back("schedule_gain_s", w.imbalance - left);
    p.details.emplace_back("schedule_leaves_s", left);
    p.hint += fmt::format("; it would win ~{:.0f}% of this imbalance (the rest stays: its chunks' dispatch, its last "
                          "chunks)",
                          100 * (w.imbalance - left) / w.imbalance);
  }
  if (w.cpu_known) {
    p.details.emplace_back("wall_imbalance_s", w.wall_imbalance);
    p.details.emplace_back("descheduled_s", w.descheduled);
    p.details.emplace_back("uneven_slowdown_s", w.uneven);
    p.details.emplace_back("consistent_cpu_imbalance_s", std::min(w.consistent_cpu, w.cpu_imbalance));
    p.details.emplace_back("cpu_per_wall_s", w.rate);
    p.hint += fmt::format(" (gain at the rate the threads ran with the whole team busy: {:.0f}% of a CPU)",
                          100 * w.rate);
  }
  return p;
}

std::optional<Problem> barrier_overhead(const RegionRun& first, int threads) {
  const double walkthrough = first.phases.walkthrough_s, startup = first.phases.startup_s;
  if (!(threads > 1 && walkthrough + startup > 0)) return std::nullopt;
  const double instances = static_cast<double>(first.profile.instances);
  const double inner = std::max(0.0, static_cast<double>(first.phases.barriers) - instances);  // the join barrier is fork/join cost
  return Problem{"barrier_overhead", threads, walkthrough + startup, walkthrough + startup,
                 barrier_overhead_hint(fmt::format("the {:.0f} barriers inside the region", inner), inner != 1,
                                       (walkthrough + startup) / std::max(1.0, inner)),
                 {{"walkthrough_s", walkthrough}, {"release_skew_s", startup}, {"barriers", inner}}};
}

// thread_creation and fork_join_overhead: starting and ending the region's team.
void fork_join_causes(const RegionRun& first, int threads, std::vector<Problem>& out) {
  const double fork = first.phases.fork_s, join = first.phases.join_s, creation = first.phases.team_creation_s;
  const double instances = static_cast<double>(first.profile.instances);
  // Creating the team at the run's first fork (libomp starts its threads there) is in the
  // region's time at every count above 1, and nowhere at 1 thread: a part of the time lost of its
  // own, which no change to the region wins back (docs/lost-time.md).
  if (threads > 1 && creation > 0)
    out.push_back({"thread_creation", threads, creation, creation,
                   fmt::format("creating the team's threads at the program's first fork took {}, once per run: a "
                               "fixed cost of running with threads, not of this region's code (it weighs only in "
                               "runs this short)",
                               duration_text(creation)),
                   {{"team_creation_s", creation}}});
  if (!(fork + join > 0)) return;
  const std::string created =
      creation > 0 ? fmt::format(" (creating the team at the first fork, {}, is apart: thread creation)",
                                 duration_text(creation))
                   : "";
  // A region that runs once has no enclosing loop to open it around (a hint only what the code can take).
  out.push_back({"fork_join_overhead", threads, fork + join, fork + join,
                 instances > 1
                     ? fmt::format("the region starts {:.0f} times at {} per start and end{}: open one parallel "
                                   "region around the enclosing loop (parallel outside, omp for inside), or give "
                                   "each instance more work",
                                   instances, duration_text((fork + join) / std::max(1.0, instances)), created)
                     : fmt::format("the region runs once, and starting and ending its team took {}{}: threads "
                                   "that start late or finish after the others (a thread waiting for a CPU), "
                                   "not a region started too often",
                                   duration_text(fork + join), created),
                 {{"fork_s", fork}, {"join_s", join}, {"instances", instances}, {"team_creation_s", creation}}});
}

// The lock pattern (typical repeat): how many locks, and whether queueing sits on a few hot ones
// or spreads over many cold ones; a hint fits the pattern ("split the lock" is no advice to code
// with a lock per data item).
struct LockPattern {
  double acquisitions = 0, recorded = 0, contention_sum = 0;
  const LockCost* busiest = nullptr;  // the most contention, else the longest held
  double distinct = 0;
  bool many_locks = false;
  double busiest_share = 0, serialisation = 0;
  std::string held, locks_seen;
  bool critical = false;
};

LockPattern lock_pattern(const RegionRun& first) {
  LockPattern l;
  for (const LockCost& c : first.locks.locks) {
    l.acquisitions += c.operations;
    l.recorded += static_cast<double>(c.recorded);
    l.contention_sum += c.contention_s;
    if (!l.busiest || c.contention_s > l.busiest->contention_s ||
        (c.contention_s == l.busiest->contention_s && c.hold_s > l.busiest->hold_s))
      l.busiest = &c;
  }
  l.distinct = static_cast<double>(first.locks.locks.size());
  l.many_locks = l.distinct >= 16;
  l.busiest_share = l.busiest && l.contention_sum > 0 ? l.busiest->contention_s / l.contention_sum : 0;
  const double region_s = first.profile.time_s;
  l.serialisation = l.busiest && region_s > 0 ? std::min(1.0, l.busiest->hold_s / region_s) : 0;
  l.held = l.serialisation < 0.005 && l.serialisation > 0 ? "under 1%" : fmt::format("{:.0f}%", 100 * l.serialisation);
  l.locks_seen = l.recorded < l.acquisitions ? fmt::format("at least {:.0f}", l.distinct) : fmt::format("{:.0f}", l.distinct);
  l.critical = has_kind(first, report::ConstructKind::kCritical);
  return l;
}

// The locks' own cost: their acquisitions' algorithm time (docs/locks.md, "Contention and algorithm
// cost") and the runtime's work around each call, outside the interval the callbacks bound
// (lock_call_work_s; `team`: the typical repeat's).
std::optional<Problem> lock_overhead(const RegionRun& first, const LockPattern& l, const TeamWork& team, int threads) {
  const double algorithm = first.locks.max_thread_algorithm_s();
  double algorithm_total = 0;
  for (const LockCost& c : first.locks.locks) algorithm_total += c.algorithm_s;
  if (!(algorithm > 0)) return std::nullopt;
  const double calls_total = lock_call_work_s(team);
  const std::vector<double>& by_thread = first.constructs.runtime_work_s;
  const double calls_thread = calls_total > 0 && !by_thread.empty() ? *std::max_element(by_thread.begin(), by_thread.end()) : 0.0;
  // No acquisition costs less than one uncontended atomic (docs/locks.md, "The floor"): the
  // recorded ones are held to it one by one (LockAcquisition::wait), and where operations counted
  // without a time bring the mean below it, the cause is raised to the floor for all of them.
  double floor_scale = 1;
  if (const double floor = first.locks.atomic_floor_s;
      floor > 0 && algorithm_total > 0 && algorithm_total < l.acquisitions * floor)
    floor_scale = l.acquisitions * floor / algorithm_total;
  // Each thread's most of both: no more than their sums, the cause's time.
  const double per_thread = algorithm * floor_scale + calls_thread, total = algorithm_total * floor_scale + calls_total;
  const double acquisitions = std::max(1.0, l.acquisitions);
  const std::string each =
      calls_total > 0 ? fmt::format("{} ({} acquiring, {} in the runtime around the call)", duration_text(total / acquisitions),
                                    duration_text(algorithm_total * floor_scale / acquisitions),
                                    duration_text(calls_total / acquisitions))
                      : duration_text(total / acquisitions);
  Problem p{"lock_overhead", threads, total, per_thread,
            l.critical ? fmt::format("{:.0f} critical-section entries cost {} each even uncontended: use "
                                     "#pragma omp atomic for single updates, or a reduction clause",
                                     l.acquisitions, each)
            : l.many_locks
                ? fmt::format("{:.0f} acquisitions of {} distinct locks (fine-grained already, rarely wanted at "
                              "once) cost {} each: take each lock less often (batch the updates to one item), "
                              "make single updates atomic (omp atomic) instead, or initialise the locks with "
                              "omp_lock_hint_uncontended",
                              l.acquisitions, l.locks_seen, each)
                : fmt::format("{:.0f} lock acquisitions cost {} each even uncontended: take the lock "
                              "less often (batch updates, accumulate privately), or initialise it "
                              "with omp_lock_hint_uncontended / use atomics",
                              l.acquisitions, each),
            {{report::detail_key::kAcquisitions, l.acquisitions}, {report::detail_key::kRecordedAcquisitions, l.recorded}, {"distinct_locks", l.distinct},
             {"thread_seconds", total}}};
  if (first.locks.atomic_floor_s > 0) p.details.emplace_back("atomic_floor_s", first.locks.atomic_floor_s);
  if (floor_scale > 1) p.details.emplace_back("raised_to_floor_by", floor_scale);
  if (calls_total > 0) p.details.emplace_back("runtime_calls_s", calls_total);
  return p;
}

std::optional<Problem> lock_contention(const RegionRun& first, const LockPattern& l, int threads) {
  const double contention = first.locks.max_thread_contention_s();
  double contention_total = 0;
  for (const LockCost& c : first.locks.locks) contention_total += c.contention_s;
  if (!(threads > 1 && contention > 0)) return std::nullopt;
  const char* what = l.critical ? "critical section" : "lock";
  // Among many locks one is hot where it carries most of the queueing, is held long enough to be
  // found taken, and was queued for again and again: one of lock_per_item's 100 000 locks whose
  // holder the kernel stopped once for 3-4 ms carried 76-100% of the queueing (one acquisition)
  // and was held 0.05-1% of the region, beside a busy process and on libomp 19, and the hint
  // said "split it" of code with a lock per item.
  constexpr double kHotLockHeld = 0.01, kHotLockQueued = 10;
  const bool hot = l.busiest && l.busiest_share >= 0.5 && l.serialisation >= kHotLockHeld &&
                   l.busiest->queued >= kHotLockQueued;
  std::string hint;
  if (l.many_locks && !hot) {
    const std::string spread =
        l.busiest_share < 0.5 ? fmt::format("queueing is spread over {} {}s, none of them hot (the busiest takes {:.0f}% of "
                                            "it and is held {} of the region's time)",
                                            l.locks_seen, what, 100 * l.busiest_share, l.held)
                              : fmt::format("threads seldom find any of {} {}s taken (the busiest takes {:.0f}% of the "
                                            "queueing but is held {} of the region's time)",
                                            l.locks_seen, what, 100 * l.busiest_share, l.held);
    hint = fmt::format("{}: splitting them further will not help; take each less often (batch the updates to one "
                       "item), or make single updates atomic (omp atomic) instead",
                       spread);
  } else {
    const std::string which = l.distinct <= 1 ? fmt::format("one {} is held {} of the region's time", what, l.held)
                                              : fmt::format("the busiest of {} {}s takes {:.0f}% of the queueing and is "
                                                            "held {} of the region's time",
                                                            l.locks_seen, what, 100 * l.busiest_share, l.held);
    hint = fmt::format("threads queue for a shared {} ({}): split it (one lock per data item), shorten what runs "
                       "under it, or accumulate privately and combine once (reduction)",
                       what, which);
  }
  return Problem{"lock_contention", threads, contention_total, contention, hint,
                 {{report::detail_key::kAcquisitions, l.acquisitions}, {report::detail_key::kRecordedAcquisitions, l.recorded}, {"distinct_locks", l.distinct},
                  {"thread_seconds", contention_total}, {"max_hold_s", l.busiest ? l.busiest->hold_s : 0.0},
                  {"serialisation", l.serialisation}, {"busiest_share", l.busiest_share}}};
}

// Causes never add up to more than the region could lose: its time lost plus the overheads
// that exist at any thread count (fork/join, barriers, the lock algorithm), and never more than
// its whole time. The runtime's per-task cost counts against the time lost only (kTimeLost).
void cap_gains(std::vector<Problem>& out, double region_time_s, std::optional<double> lost_s) {
  const auto capped_together = [](const Problem& p) {
    return p.kind.cause().cap == report::CauseCap::kRegionLoss || p.kind.cause().cap == report::CauseCap::kTimeLost;
  };
  double overheads = 0, total = 0;
  for (const Problem& p : out) {
    if (!capped_together(p)) continue;
    total += p.gain_s;
    if (p.kind.cause().overhead && p.kind.cause().cap == report::CauseCap::kRegionLoss) overheads += p.gain_s;
  }
  const double limit = lost_s ? std::min(region_time_s, std::max(0.0, *lost_s) + overheads) : region_time_s;
  if (total > limit && total > 0) {
    const double scale = limit / total;
    for (Problem& p : out) {
      if (!capped_together(p)) continue;
      p.gain_s *= scale;
      p.details.emplace_back("gain_scaled_by", scale);
      // A hint that says what its change saves (saves_s) says too what of that the gain counts,
      // or its sentence reads as the gain (BOTS health: "saves about 928 ms" beside a gain of
      // 672 ms, the time lost; the cutoff really saved 570 ms).
      if (report::detail_of(p, "saves_s") > p.gain_s)
        p.hint += fmt::format(", of which {} is time lost to scaling: the gain counted", duration_text(p.gain_s));
    }
  }
}

}  // namespace

std::vector<Problem> diagnose_region(const std::vector<const RegionRun*>& repeats, int threads,
                                     double region_time_s, std::optional<double> lost_s, const TeamWork* base,
                                     double dispatch_per_chunk_s) {
  std::vector<Problem> out;
  if (repeats.empty()) return out;
  // Every figure is the typical repeat's; the repeats together only say whether the threads'
  // CPU-time imbalance is the same in each (consistent_cpu_imbalance).
  const RegionRun& first = typical_repeat(repeats);
  TeamWork busy = team_work({&first});
  // The lines' CPU times are the repeats' mean, as the base's are: one repeat's 4 ms samples of a
  // line that holds a sixth of the region are too few to say whether it grew (unrepeated_line).
  busy.sampled_lines = mean_line_times(repeats);
  // Tasking regions are left to the task analysis (task inflation: a task body slower at t).
  const bool grown = base && threads > 1 && first.tasks.tasks == 0;
  std::optional<Problem> replicated = grown ? replicated_work(busy, *base, threads) : std::nullopt;
  const double replicated_s = replicated ? replicated->time_s : 0.0;
  const BarrierWaits waits = split_barrier_waits(repeats, first, threads, busy, base, replicated_s);
  if (std::optional<Problem> p = too_few_iterations(first, waits, threads)) out.push_back(std::move(*p));
  if (std::optional<Problem> p =
          load_imbalance(repeats, first, waits, threads, dispatch_per_chunk_s, replicated.has_value()))
    out.push_back(std::move(*p));
  // Inner barriers held back by a thread switched out in them (BarrierPhases::descheduled_s):
  // time off the CPU, named with the inflation's, never barrier overhead.
  if (grown) {
    if (replicated) out.push_back(std::move(*replicated));
    if (std::optional<Problem> p = work_inflation(busy, *base, threads, waits.descheduled + first.phases.descheduled_s,
                                                  waits.uneven, waits.uneven_same_threads, waits.spin, replicated_s))
      out.push_back(std::move(*p));
  }
  if (first.tasks.tasks == 0)
    if (std::optional<Problem> p = page_faults(busy, base, first.profile, threads)) out.push_back(std::move(*p));
  if (std::optional<Problem> p = barrier_overhead(first, threads)) out.push_back(std::move(*p));
  fork_join_causes(first, threads, out);
  const LockPattern locks = lock_pattern(first);
  if (std::optional<Problem> p = lock_overhead(first, locks, busy, threads)) out.push_back(std::move(*p));
  if (std::optional<Problem> p = lock_contention(first, locks, threads)) out.push_back(std::move(*p));

  std::vector<const TaskFigures*> tasks;
  for (const RegionRun* r : repeats) tasks.push_back(&r->tasks);
  for (Problem& p : diagnose_tasks(tasks, threads, base ? &base->tasks : nullptr))
    out.push_back(std::move(p));
  if (base && !base->tasks.empty() && first.tasks.tasks > 0) {
    const TeamWork now = team_work(repeats);
    const bool read = now.usage_read && base->usage_read;
    if (std::optional<Problem> p = task_inflation(tasks, base->tasks, threads, base->threads, lost_s.value_or(0.0),
                                                  read ? &now.usage : nullptr, read ? &base->usage : nullptr))
      out.push_back(std::move(*p));
  }
  cap_gains(out, region_time_s, lost_s);
  std::sort(out.begin(), out.end(), [](const Problem& a, const Problem& b) { return a.gain_s > b.gain_s; });
  return out;
}

std::string barrier_overhead_hint(const std::string& subject, bool several, double each_s) {
  return fmt::format("{} {} {} per pass: drop {} where the next construct does not read what the one before wrote "
                     "(nowait on a worksharing construct), or merge phases to synchronise less often",
                     subject, several ? "cost" : "costs", duration_text(each_s), several ? "those" : "it");
}

SerialCauses diagnose_serial(const SerialFigures& f, double lost_s, double spread_s) {
  SerialCauses out;
  const int t = f.threads;
  const double s = f.serial_s;
  // Time off the CPU outside regions (sleep, I/O, a child) is no code to parallelise: its own
  // cause, serial_blocked; serial_code is the rest. Time off the CPU under kSerialBlockedMin of
  // serial code is no cause of its own: it stays serial code's, so that what the causes explain
  // is what the report shows (its share was counted as explained while no serial_blocked was
  // shown: 0.25 ms on serial_phase).
  const bool blocked_shown = t > 1 && f.known && f.blocked_s > 0 && f.blocked_s >= kSerialBlockedMin * s;
  const double blocked = blocked_shown ? f.blocked_s : 0.0;
  const double gain = f.known ? (s - blocked) * (1.0 - 1.0 / t) : 0.0;
  const double blocked_lost = f.known ? blocked * (1.0 - 1.0 / t) : 0.0;
  out.explained_s = t > 1 ? std::max(0.0, gain) + blocked_lost : 0.0;
  if (blocked_shown) {
    auto [what, details] = serial_wait_hint(f.waits, blocked);
    details.insert(details.begin(), {{"serial_s", s}, {"on_cpu_s", std::max(0.0, s - blocked - f.runqueue_s)},
                                     {"runqueue_s", f.runqueue_s}, {"lost_share_s", blocked_lost}});
    out.problems.push_back(
        {"serial_blocked", t, blocked, blocked,
         fmt::format("the program waits {} outside parallel regions at {}, off the CPU: {}; no thread count "
                     "shortens it",
                     duration_text(blocked), threads_phrase(t), what),
         std::move(details)});
  }
  if (t > 1 && gain > 0) {
    const double fraction =
        f.base_program_s > 0 ? std::max(0.0, f.base_serial_s - f.base_blocked_s) / f.base_program_s : 0;
    std::string hint = fmt::format("{:.0f}% of the run is serial code: Amdahl's law caps the speedup at {:.1f}x; "
                                   "parallelise the serial phase (or overlap it with parallel work)",
                                   100 * fraction, fraction > 0 ? 1 / fraction : 0.0);
    std::vector<std::pair<std::string, double>> details{{"serial_fraction", fraction}};
    // Set-up before the program's first OpenMP call (NPB CG builds its matrix there: 75 of its 82
    // ms of serial code) is where the tool had not started recording: no sample names its lines,
    // and a user told only "parallelise the serial phase" would look at what the samples show.
    const double before = std::min(f.before_runtime_s, s - blocked);
    if (before >= kSerialBeforeRuntimeShown * (s - blocked) && before >= kSerialBeforeRuntimeMinS) {
      hint += fmt::format("; {} of it ({:.0f}%) ran before the program's first OpenMP call started the runtime and "
                          "the tool's recording (its set-up: reading input, building data): no CPU-time sample "
                          "places that part",
                          duration_text(before), 100 * before / (s - blocked));
      details.emplace_back(report::detail_key::kBeforeRuntimeS, before);
    }
    out.problems.push_back({"serial_code", t, s - blocked, gain, std::move(hint), std::move(details)});
    share_the_loss(out.problems, out.problems.size() - 1, lost_s, gain, spread_s);
  }
  return out;
}

double unexplained(double lost_s, double explained_s) { return std::max(0.0, lost_s - std::max(0.0, explained_s)); }

void share_the_loss(std::vector<Problem>& problems, size_t from, double lost_s, double explained_s, double spread_s) {
  const double f = lost_s > 0 && explained_s > 0 ? std::min(1.0, lost_s / explained_s) : 0.0;
  for (size_t i = from; i < problems.size(); ++i) {
    problems[i].details.emplace_back("lost_share_s", problems[i].gain_s * f);
    if (spread_s > 0 && problems[i].gain_s < spread_s) problems[i].details.emplace_back("within_spread", 1.0);
  }
}

}  // namespace ompscope::analysis
