#include "analysis/scalability.h"

#include "analysis/construct_report.h"
#include "analysis/duration_text.h"
#include "analysis/source_excerpt.h"
#include "analysis/task_diagnoses.h"
#include "common/thread_count_phrase.h"
#include "common/version.h"
#include "report/findings.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <tuple>

namespace ompscope::analysis {

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

namespace {

double median_of(const std::vector<const RegionRun*>& runs, const std::function<double(const RegionRun&)>& f) {
  std::vector<double> v;
  for (const RegionRun* r : runs) v.push_back(f(*r));
  return median(std::move(v));
}

std::string region_place(const RegionReport& r) {
  return fmt::format("{} ({}:{})", r.id, r.file.empty() ? r.module : r.file, r.line);
}

// The counts of the stretches they were read over, scaled to all of the work the usage stands for.
struct WorkCounts {
  double cycles = 0, instructions = 0, misses = 0;
};
WorkCounts counts_of(const WorkUsage& u) {
  const double f = u.wall_s / u.counted_s;
  return {u.cycles * f, u.instructions * f, u.llc_misses * f};
}

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

// The growth of the team's work from the smallest count to `threads`, split by what the kernel
// can name: time off the CPU, time in the kernel (page faults first of all: a region's work makes
// few system calls), and the rest, which the CPU spends slower on the same work (memory
// bandwidth, caches, false sharing, NUMA, frequency). Each named part is the growth of its own
// figure, never more than the inflation together. Its wall-clock share at `threads` is the
// inflation spread over the team, plus the imbalance at barriers that the threads' CPU time does
// not explain (`descheduled_s`: a thread off its CPU made the others wait for it).
std::optional<Problem> work_inflation(const TeamWork& now, const TeamWork& base, int threads, double descheduled_s,
                                      double uneven_s, double replicated_s) {
  // Work that grows with the team is replicated_work's, and no false sharing or bandwidth.
  const double inflation = now.work_s - base.work_s - replicated_s;
  if (!(inflation > 0) || base.work_s <= 0) return std::nullopt;
  const bool split = now.usage_read && base.usage_read;
  double preempted = 0, faulting = 0;
  if (split) {
    preempted = std::max(0.0, now.usage.off_cpu_s() - base.usage.off_cpu_s());
    faulting = std::max(0.0, now.usage.system_s - base.usage.system_s);
    if (preempted + faulting > inflation) {
      const double f = inflation / (preempted + faulting);
      preempted *= f;
      faulting *= f;
    }
  }
  const double rest = std::max(0.0, inflation - preempted - faulting);
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
  if (split) {
    if (preempted > 0)
      parts.push_back({preempted + descheduled_s,
                       fmt::format("threads were off their CPU {} longer ({:.0f} involuntary switches){}",
                                   duration_text(preempted), now.usage.switches,
                                   descheduled_s > 0 ? fmt::format(", and the others waited {} for them at barriers",
                                                                   duration_text(descheduled_s))
                                                     : ""),
                       "descheduled by another process or by more threads than cores; run on idle cores, one "
                       "thread per core"});
    // Page faults are named where the kernel's time grew, and where it is a tenth of the work
    // or more: faults on fresh memory cost at every count, and more when threads fault at once
    // (as many faults at t as at t0, each slower: alloc_touch_free). Kernel time that grew with no
    // page fault at all is system calls, and gets no allocation advice (a region with 57 µs more
    // in the kernel and 0 faults had been told to allocate outside the loop; EPCC syncbench's
    // worker, 0.19 s in the kernel and no fault, read "memory is allocated and first touched").
    if (faulting > 0 && !(faults > 0))
      parts.push_back({faulting,
                       fmt::format("{} more in the kernel ({} in all at {}) with no page fault: system calls",
                                   duration_text(faulting), duration_text(now.usage.system_s), threads_phrase(threads)),
                       "move system calls (I/O, sleeping and waking threads, mapping memory) out of the region"});
    else if (faulting > 0 || (faults > 0 && now.usage.system_s >= 0.1 * now.work_s))
      parts.push_back({faulting,
                       fmt::format("{} more in the kernel ({} in all at {}, with {:.0f} page faults against {:.0f} "
                                   "at {})",
                                   duration_text(faulting), duration_text(now.usage.system_s), threads_phrase(threads),
                                   faults, base_faults, threads_phrase(base.threads)),
                       "memory is allocated and first touched (or freed and allocated again) inside the region; "
                       "allocate buffers once outside it and reuse them (or keep freed memory: glibc's "
                       "M_MMAP_THRESHOLD / M_TRIM_THRESHOLD)"});
  }
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
  if (uneven_s > 0)
    hint += fmt::format(". It slowed the threads unevenly: the slowest changed from one instance to the next, and "
                        "the others waited {} for it at barriers (not an imbalance of the loop's iterations)",
                        duration_text(uneven_s));
  if (!split) descheduled_s = 0;
  // Its time is the growth plus the barrier waits it caused, so that its gain (the growth spread
  // over the team, plus those waits) never exceeds it ("gain 47.8 ms of 38.6 ms" before).
  Problem p{"work_inflation", threads, inflation + descheduled_s + uneven_s, inflation / threads + descheduled_s + uneven_s, hint,
            {{"work_s", now.work_s}, {"base_work_s", base.work_s}}};
  if (descheduled_s > 0) p.details.emplace_back("descheduled_imbalance_s", descheduled_s);
  if (uneven_s > 0) p.details.emplace_back("uneven_imbalance_s", uneven_s);
  if (split) {
    p.details.emplace_back("preempted_s", preempted);
    p.details.emplace_back("page_faults", faults);
    p.details.emplace_back("major_faults", now.usage.major_faults);
    p.details.emplace_back("base_page_faults", base.usage.minor_faults + base.usage.major_faults);
    p.details.emplace_back("page_fault_s", faulting);
    p.details.emplace_back("involuntary_switches", now.usage.switches);
  }
  p.details.emplace_back("memory_or_cache_s", rest);
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

bool is_worksharing(const std::string& kind) {
  return kind == "loop" || kind == "sections" || kind == "single" || kind == "workshare" || kind == "distribute" ||
         kind == "taskloop" || kind == "masked" || kind == "scope";
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
// smallest (few large chunks first, then smaller ones).
std::string sized_schedule(double iterations, double per_iteration_s, int threads, double bench_dispatch_s) {
  const double dispatch = bench_dispatch_s > 0 ? bench_dispatch_s : kDispatchS;
  const double smallest = std::max(1.0, std::ceil(dispatch / (0.02 * per_iteration_s)));
  const double largest = std::floor(iterations / (8.0 * threads));
  const std::string why = fmt::format(" ({:.0f} iterations of {} each; a chunk's dispatch costs ~{}, {})", iterations,
                                      duration_text(per_iteration_s), duration_text(dispatch),
                                      bench_dispatch_s > 0 ? "ompscope bench on this machine"
                                                           : "a typical figure: no ompscope bench cached for this runtime");
  if (smallest <= std::max(1.0, largest)) return fmt::format("schedule(dynamic, {:.0f}){}", smallest, why);
  return fmt::format("schedule(guided, {:.0f}){}", smallest, why);
}

// The advice for an imbalanced loop: try the sized schedule, unless the runtime reported (libomp
// 19) that the loop already has that kind of schedule; then only a smaller chunk could help.
std::string schedule_advice(const BarrierPhases& phases, int threads, double bench_dispatch_s) {
  if (!(phases.loop_iterations > 0 && phases.loop_work_s > 0))
    return "try schedule(dynamic, chunk) or schedule(guided) on it";
  const std::string sized =
      sized_schedule(phases.loop_iterations / std::max<uint32_t>(1, phases.imbalanced_after_loop),
                     phases.loop_work_s / phases.loop_iterations, threads, bench_dispatch_s);
  const uint32_t loops = std::max<uint32_t>(1, phases.imbalanced_after_loop);
  const bool dynamic = phases.imbalanced_after_dynamic * 2 > loops, guided = phases.imbalanced_after_guided * 2 > loops;
  const bool same = (dynamic && sized.starts_with("schedule(dynamic")) || (guided && sized.starts_with("schedule(guided"));
  if (!same) return "try " + sized + " on it";
  if (dynamic && sized.starts_with("schedule(dynamic, 1) "))
    return fmt::format("the runtime reports it is scheduled dynamically already, and chunks of one iteration are "
                       "the finest ({}): its last iterations are too costly to even out; split the costliest "
                       "iterations, or hand them out first",
                       sized.substr(sized.find('(', 9) + 1, sized.size() - sized.find('(', 9) - 2));
  return fmt::format("the runtime reports it is scheduled {} already: its last chunks are too large to even out; "
                     "if its chunk is larger than this, try {}",
                     dynamic ? "dynamically" : "guided", sized);
}

// What the causes leave of a loss: never negative (a loss can be explained more than fully when
// overheads present at every count, fork/join for one, are among the causes; the cap in
// diagnose_region bounds that), zero without a loss.
// A run's threads switched out while runnable for this share of their work (or the initial
// thread waiting this share of its serial code for a CPU): the machine was busy.
constexpr double kBusyShare = 0.10;

// A loop whose threads' CPU time differs consistently by less than this share of each thread's
// work in it has iterations of uniform cost (docs/lost-time.md, "Load imbalance").
constexpr double kUniformShare = 0.05;

double unexplained(double lost_s, double explained_s) { return std::max(0.0, lost_s - std::max(0.0, explained_s)); }

// Each cause's part of the time lost (details.lost_share_s), so that the parts and the
// unexplained rest add up to the loss exactly: its gain, all causes' gains scaled down together
// where overheads present at any count bring them above the loss ("100% explained" while the top
// gain was twice the loss); none where nothing was lost (a negative loss: the region ran faster
// than perfect scaling). A cause whose gain is smaller than the spread of the repeats' times
// (`spread_s`, slowest − fastest) carries within_spread = 1: that finding is within the noise.
void share_the_loss(std::vector<Problem>& problems, size_t from, double lost_s, double explained_s, double spread_s) {
  const double f = lost_s > 0 && explained_s > 0 ? std::min(1.0, lost_s / explained_s) : 0.0;
  for (size_t i = from; i < problems.size(); ++i) {
    problems[i].details.emplace_back("lost_share_s", problems[i].gain_s * f);
    if (spread_s > 0 && problems[i].gain_s < spread_s) problems[i].details.emplace_back("within_spread", 1.0);
  }
}

double efficiency_of(double time0, int t0, double time, int t) { return time > 0 ? time0 * t0 / (time * t) : 0; }

// Why a time is below perfect scaling by `faster_s` (docs/lost-time.md, "Faster than perfect"):
// within the spread of the repeats at either count (the base's slowest repeat makes "perfect"
// too generous, or this count's fastest), or, where the team's work (thread time outside waits)
// shrank from t0, superlinear: the threads' data fit their caches. Else the spread does not
// cover it and the work did not shrink: said as it is.
std::string negative_loss_reason(double faster_s, double efficiency, double spread_s, double base_spread_s,
                                 double base_work_s, double work_s, int t0) {
  const std::string head = fmt::format("{} faster (efficiency {:.0f}%)", duration_text(faster_s), 100 * efficiency);
  const double spread = std::max(spread_s, base_spread_s);
  if (spread > 0 && faster_s <= spread)
    return fmt::format("{}, within the spread of the repeats ({} here, {} at {}): noise, not a finding", head,
                       duration_text(spread_s), duration_text(base_spread_s), threads_phrase(t0));
  if (base_work_s > 0 && work_s > 0 && work_s < base_work_s)
    return fmt::format("{}: superlinear, the team's work shrank from {} to {} (the threads' share of the data fits "
                       "their caches)",
                       head, duration_text(base_work_s), duration_text(work_s));
  return fmt::format("{}, more than the spread of the repeats ({}){}", head, duration_text(spread),
                     base_work_s > 0 ? " with the team's work not smaller: the base count ran slower than its work "
                                       "needed (a loaded machine during those runs?)"
                                     : "");
}

bool has_kind(const RegionRun& r, const char* kind) {
  return std::find(r.lock_kinds.begin(), r.lock_kinds.end(), kind) != r.lock_kinds.end();
}

}  // namespace

std::set<int> unmeasured_counts(const std::vector<MeasuredRun>& runs) {
  std::set<int> out;
  for (const MeasuredRun& run : runs)
    if (run.analysis && !run.record.threads_measured) out.insert(run.record.threads);
  return out;
}

std::vector<Note> thread_count_notes(const std::vector<MeasuredRun>& runs) {
  // (asked for, ran) → runs; the counts asked for that ran the same team.
  std::map<std::pair<int, int>, int> differ;
  std::map<int, std::set<int>> asked_for;  // team that ran → counts asked for
  std::set<int> unknown;
  for (const MeasuredRun& run : runs) {
    const RunRecord& r = run.record;
    if (!run.analysis || r.threads_requested <= 0) continue;
    if (!r.threads_measured) {
      unknown.insert(r.threads);
      continue;
    }
    asked_for[r.threads].insert(r.threads_requested);
    if (r.threads != r.threads_requested) ++differ[{r.threads_requested, r.threads}];
  }
  std::vector<Note> notes;
  if (!differ.empty()) {
    Note n{"threads_differ", "", {}};
    std::vector<std::string> pairs;
    for (const auto& [key, count] : differ) {
      pairs.push_back(fmt::format("asked for {}, {} ran", threads_phrase(key.first), key.second));
      n.items.push_back(fmt::format("{} run{} asked for {} ran {}", count, count == 1 ? "" : "s",
                                    threads_phrase(key.first), threads_phrase(key.second)));
    }
    std::vector<std::string> merged;
    for (const auto& [team, asked] : asked_for)
      if (asked.size() > 1) {
        std::vector<std::string> counts;
        for (int a : asked) counts.push_back(std::to_string(a));
        merged.push_back(fmt::format("{} all ran {}", fmt::join(counts, ", "), threads_phrase(team)));
      }
    n.text = fmt::format("the program set its own team size ({}): runs are labelled by the team that ran (the "
                         "largest team of their outermost regions){}",
                         fmt::join(pairs, "; "),
                         merged.empty() ? ""
                                        : fmt::format("; the counts {} are one measurement, with no speedup or "
                                                      "efficiency between them",
                                                      fmt::join(merged, "; ")));
    notes.push_back(std::move(n));
  }
  if (!unknown.empty()) {
    std::vector<std::string> counts;
    for (int t : unknown) counts.push_back(std::to_string(t));
    notes.push_back({"threads_unknown",
                     fmt::format("no parallel region ran in the runs asked for {} threads: the team that ran is "
                                 "unknown there, and no speedup, efficiency or serial-code gain is computed from them",
                                 fmt::join(counts, ", ")),
                     {}});
  }
  return notes;
}

const RegionRun& typical_repeat(const std::vector<const RegionRun*>& repeats) {
  std::vector<double> times;
  for (const RegionRun* r : repeats) times.push_back(r->profile.time_s);
  const double time = median(times);
  return **std::min_element(repeats.begin(), repeats.end(), [time](const RegionRun* a, const RegionRun* b) {
    return std::abs(a->profile.time_s - time) < std::abs(b->profile.time_s - time);
  });
}

// In order: the work itself changed (more instructions); the same cycles per instruction, each
// slower (frequency); more misses per instruction (the data left the cache); as many misses, each
// slower, where the misses can cost the cycles' growth (memory bandwidth); else cycles no miss
// pays for: cache lines moving between cores (false sharing, data shared between threads).
CpuSlowdown name_cpu_slowdown(const WorkUsage& now, const WorkUsage& base) {
  CpuSlowdown c;
  if (!now.counted() || !base.counted() || now.wall_s <= 0 || base.wall_s <= 0) return c;
  const WorkCounts n = counts_of(now), b = counts_of(base);
  c.ipc = n.instructions / n.cycles;
  c.base_ipc = b.instructions / b.cycles;
  c.mpki = 1000 * n.misses / n.instructions;
  c.base_mpki = 1000 * b.misses / b.instructions;
  c.instruction_growth = n.instructions / b.instructions - 1;
  c.extra_cycles_per_miss = n.misses > 0 ? std::max(0.0, n.cycles - b.cycles) / n.misses : 0;
  if (c.instruction_growth > kInstructionGrowth)
    c.kind = CpuSlowdown::Kind::MoreInstructions;
  else if (c.ipc > (1 - kIpcFall) * c.base_ipc)
    c.kind = CpuSlowdown::Kind::Frequency;
  else if (c.mpki >= (1 + kMissGrowth) * c.base_mpki && n.misses > b.misses)
    c.kind = CpuSlowdown::Kind::CacheMisses;
  else if (n.misses > 0 && c.extra_cycles_per_miss <= kMissCostCycles)
    c.kind = CpuSlowdown::Kind::MemoryBandwidth;
  else
    c.kind = CpuSlowdown::Kind::Coherence;
  return c;
}

TeamWork team_work(const std::vector<const RegionRun*>& repeats) {
  std::vector<double> work, wall, cpu, system, minor, major, switches, counted, cycles, instructions, misses,
      lock_operations;
  if (repeats.empty()) return {};
  std::vector<const TaskFigures*> tasks;
  for (const RegionRun* r : {&typical_repeat(repeats)}) {
    ThreadSplit team;
    for (const ThreadSplit& s : r->profile.per_thread) team += s;
    // Time holding locks is left out: critical sections that slow down as the lock and its data
    // move between cores are the lock's cost (lock contention, lock overhead), not the work's.
    double held = 0, operations = 0;
    for (const LockCost& c : r->locks.locks) {
      held += c.hold_s;
      operations += c.operations;
    }
    lock_operations.push_back(operations);
    team.work_s = std::max(0.0, team.work_s - held);
    work.push_back(team.work_s);
    if (r->tasks.tasks > 0) tasks.push_back(&r->tasks);
    // A task region's bodies run in barriers, outside the work stretches: the readings around
    // the visits in which tasks ran cover them (ThreadSplit::task_usage). Together they stand for
    // the work stretches and the task time in those visits.
    WorkUsage read = team.usage;
    read += team.task_usage;
    const double read_over = team.usage.wall_s + team.task_usage_tasks_s;
    if (read_over <= 0 || read.wall_s <= 0) continue;
    const WorkUsage u = read * (team.work_s / read_over);
    wall.push_back(u.wall_s);
    cpu.push_back(u.cpu_s);
    system.push_back(u.system_s);
    minor.push_back(u.minor_faults);
    major.push_back(u.major_faults);
    switches.push_back(u.switches);
    counted.push_back(u.counted_s);
    cycles.push_back(u.cycles);
    instructions.push_back(u.instructions);
    misses.push_back(u.llc_misses);
  }
  TeamWork out;
  out.work_s = median(work);
  out.lock_operations = median(lock_operations);
  out.usage_read = !wall.empty();
  out.tasks = std::move(tasks);
  const RegionRun& typical = typical_repeat(repeats);
  out.time_s = typical.profile.time_s;
  double worksharing = 0;
  for (const ConstructRun& c : typical.constructs.nodes) {
    if (c.parent == -1 && is_worksharing(c.kind)) worksharing += c.time_s;
    if (c.kind == "loop" && c.iterations > 0 && c.instances > 0)
      out.loops.push_back({c.path, fmt::format("{}:{}", c.where.file.empty() ? c.where.module : c.where.file, c.where.line),
                           c.iterations / c.instances, c.time_s});
  }
  out.outside_worksharing_s = std::max(0.0, out.time_s - worksharing);
  std::vector<const RunSamples*> samples;
  for (const RegionRun* r : repeats) samples.push_back(&r->samples);
  for (const auto& [key, line] : mean_lines(samples)) out.sampled_lines[key] = line.cpu_s;
  if (out.usage_read)
    out.usage = {median(wall),     median(cpu),    median(system),       median(minor),  median(major),
                 median(switches), median(counted), median(cycles), median(instructions), median(misses)};
  return out;
}

std::vector<Problem> diagnose_region(const std::vector<const RegionRun*>& repeats, int threads,
                                     double region_time_s, std::optional<double> lost_s, const TeamWork* base,
                                     double dispatch_per_chunk_s) {
  std::vector<Problem> out;
  if (repeats.empty()) return out;
  std::vector<const BarrierPhases*> all_phases;
  for (const RegionRun* r : repeats) all_phases.push_back(&r->phases);
  const double consistent_cpu = consistent_cpu_imbalance(all_phases);
  const RegionRun& first = typical_repeat(repeats);
  // Every figure below is the typical repeat's (median_of over it alone is its value).
  const std::vector<const RegionRun*> typical{&first};
  const double instances = static_cast<double>(first.profile.instances);
  const double barriers = median_of(typical, [](const RegionRun& r) { return double(r.phases.barriers); });

  const double wall_imbalance = median_of(typical, [](const RegionRun& r) { return r.phases.imbalance_s; });
  // Where every thread's CPU time in the segments was read, only their difference in CPU time is
  // the loop's imbalance; the rest is threads that were not running (work inflation names it).
  const double measured = median_of(typical, [](const RegionRun& r) { return r.phases.measured_imbalance_s; });
  const double cpu_imbalance = median_of(typical, [](const RegionRun& r) { return r.phases.cpu_imbalance_s; });
  const bool cpu_known = measured > 0;
  // The CPU time the loop's imbalance takes is won back at the rate the threads ran while the
  // whole team was busy (CPU seconds per wall second; below 1 on a loaded machine), never more
  // than the wall imbalance.
  const TeamWork busy = team_work(typical);
  const double rate = busy.usage_read && busy.usage.wall_s > 0 && busy.usage.cpu_s > 0
                          ? std::min(1.0, busy.usage.cpu_s / busy.usage.wall_s)
                          : 1.0;
  // Of the CPU-time imbalance, the part the same threads showed in every instance is the loop's
  // (its iterations differ in cost). The rest moved between threads: where the team's work grew
  // on the CPU, threads slowed unevenly by that growth (a shared cache line, the kernel's locks)
  // take turns at being the last, and as much of it as the growth could cause (all of it on one
  // thread: (1 − 1/t) of it) is work inflation's; beyond that, the iterations' cost varies from
  // one instance to the next, which is the loop's again.
  const bool tasking = first.tasks.tasks > 0;
  double uneven_cpu = 0;
  if (cpu_known && base && threads > 1 && !tasking && base->work_s > 0) {
    double growth_on_cpu = busy.work_s - base->work_s;
    if (busy.usage_read && base->usage_read)
      growth_on_cpu -= std::max(0.0, busy.usage.off_cpu_s() - base->usage.off_cpu_s());
    uneven_cpu = std::clamp(std::min(cpu_imbalance - consistent_cpu, (1 - 1.0 / threads) * growth_on_cpu), 0.0,
                            cpu_imbalance);
  }
  const auto wall_share = [&](double cpu) {
    return std::min(wall_imbalance, wall_imbalance * std::min(1.0, cpu / measured) / rate);
  };
  const double imbalance = cpu_known ? wall_share(cpu_imbalance - uneven_cpu) : wall_imbalance;
  // In wall time: the barrier waits for threads off their CPU, and for threads slowed unevenly.
  const double descheduled = cpu_known ? std::max(0.0, wall_imbalance - wall_share(cpu_imbalance)) : 0.0;
  const double uneven = cpu_known ? std::max(0.0, wall_share(cpu_imbalance) - imbalance) : 0.0;
  if (threads > 1 && imbalance > 0) {
    const bool loop = first.phases.imbalanced_after_loop * 2 >= std::max<uint32_t>(1, first.phases.barriers / 2) &&
                      first.phases.imbalanced_after_loop > 0;
    std::string hint;
    const std::string advice = schedule_advice(first.phases, threads, dispatch_per_chunk_s);
    // Whether the same threads are the slow ones in every instance (3 or more instances read at a
    // barrier position: consistent_cpu_imbalance): the evidence that the iterations differ in cost.
    double judged = 0;
    for (const BarrierPhases* ph : all_phases)
      for (const BarrierPhases::Position& at : ph->positions) judged += at.instances;
    const double loop_cpu = std::max(0.0, cpu_imbalance - uneven_cpu);
    const double consistent = std::min(consistent_cpu, loop_cpu);
    const bool moves = cpu_known && judged >= 3 && loop_cpu > 0 && consistent < 0.5 * loop_cpu;
    // The consistent part beside each thread's share of the loop's work: a few per cent is what
    // two CPUs differ by (a busier host core, a lower clock), not iterations that cost more.
    const double per_thread_work = first.phases.loop_work_s / threads;
    const bool slight = cpu_known && judged >= 3 && per_thread_work > 0 && consistent < kUniformShare * per_thread_work;
    if (loop && !moves && slight)
      hint = fmt::format("the same threads spend {} more CPU time in the loop in every instance, {:.1f}% of each "
                         "thread's {} in it: within what two CPUs differ by (a busier host core, a lower clock), so "
                         "its iterations cost alike and no schedule is advised (a dynamic one would give up the static "
                         "partition's cache reuse); run on idle cores of one kind",
                         duration_text(consistent), 100 * consistent / per_thread_work, duration_text(per_thread_work));
    else if (loop && moves)
      // A loop of uniform cost: a different thread is last each time. A schedule cannot even out
      // what moves between threads, and a dynamic one gives up the static partition's locality.
      hint = fmt::format("the thread that reaches the barrier after the loop last changes from one instance to the "
                         "next (only {} of the {} difference in the threads' CPU time stays with the same threads): "
                         "its iterations do not differ in cost, so no schedule is advised; what slows one thread at "
                         "a time lies outside the loop's code (another process, interrupts, memory shared with the "
                         "other threads)",
                         duration_text(consistent), duration_text(loop_cpu));
    else if (loop && cpu_known && judged >= 3)
      hint = fmt::format("iterations of the loop differ in cost (the same threads spend {} more CPU time in it in "
                         "every instance, of a {} difference): {}",
                         duration_text(consistent), duration_text(loop_cpu), advice);
    else if (loop)
      hint = cpu_known ? "iterations of the loop differ in cost (the threads' CPU time in it differs): " + advice
                       : "threads reach the barrier after the loop at different times: if its iterations differ in "
                         "cost, " + advice;
    else if (tasking)
      // A region made of tasks: the runtime hands them out already; "use tasks" is no advice.
      hint = "threads reach the barrier at different times: the last tasks ran on some threads while the others "
             "had none ready; split the longest tasks, or give them a `priority` so that they start first";
    else
      hint = "threads get unequal shares of work before the barrier: partition the work by cost rather than "
             "by count, or hand it out dynamically (schedule(dynamic) on a loop, or tasks)";
    Problem p{"load_imbalance", threads, imbalance, imbalance, hint,
              {{"barriers", barriers}, {"per_instance_s", imbalance / std::max(1.0, instances)}}};
    if (cpu_known) {
      p.details.emplace_back("wall_imbalance_s", wall_imbalance);
      p.details.emplace_back("descheduled_s", descheduled);
      p.details.emplace_back("uneven_slowdown_s", uneven);
      p.details.emplace_back("consistent_cpu_imbalance_s", std::min(consistent_cpu, cpu_imbalance));
      p.details.emplace_back("cpu_per_wall_s", rate);
      p.hint += fmt::format(" (gain at the rate the threads ran with the whole team busy: {:.0f}% of a CPU)",
                            100 * rate);
    }
    out.push_back(p);
  }

  // Tasking regions are left to the task analysis (task inflation: a task body slower at t).
  // Inner barriers held back by a thread switched out in them (BarrierPhases::descheduled_s):
  // time off the CPU, named with the inflation's, never barrier overhead.
  const double barrier_off = median_of(typical, [](const RegionRun& r) { return r.phases.descheduled_s; });
  if (base && threads > 1 && !tasking) {
    double replicated = 0;
    if (std::optional<Problem> p = replicated_work(busy, *base, threads)) {
      replicated = p->time_s;
      out.push_back(std::move(*p));
    }
    if (std::optional<Problem> p = work_inflation(busy, *base, threads, descheduled + barrier_off, uneven, replicated))
      out.push_back(std::move(*p));
  }

  const double walkthrough = median_of(typical, [](const RegionRun& r) { return r.phases.walkthrough_s; });
  const double startup = median_of(typical, [](const RegionRun& r) { return r.phases.startup_s; });
  if (threads > 1 && walkthrough + startup > 0) {
    const double inner = std::max(0.0, barriers - instances);  // the join barrier is fork/join cost
    out.push_back({"barrier_overhead", threads, walkthrough + startup, walkthrough + startup,
                   fmt::format("{:.0f} barriers inside the region cost {} each: drop the ones not needed "
                               "(nowait on worksharing constructs), or merge phases to synchronise less often",
                               inner, duration_text((walkthrough + startup) / std::max(1.0, inner))),
                   {{"walkthrough_s", walkthrough}, {"release_skew_s", startup}, {"barriers", inner}}});
  }

  const double fork = median_of(typical, [](const RegionRun& r) { return r.phases.fork_s; });
  const double join = median_of(typical, [](const RegionRun& r) { return r.phases.join_s; });
  const double creation = median_of(typical, [](const RegionRun& r) { return r.phases.team_creation_s; });
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
  if (fork + join > 0) {
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

  // The lock pattern (first repeat): how many locks, and whether queueing sits on a few hot
  // ones or spreads over many cold ones; a hint fits the pattern ("split the lock" is no advice
  // to code with a lock per data item).
  double acquisitions = 0, recorded = 0, contention_sum = 0;
  const LockCost* busiest = nullptr;  // the most contention, else the longest held
  for (const LockCost& c : first.locks.locks) {
    acquisitions += c.operations;
    recorded += static_cast<double>(c.recorded);
    contention_sum += c.contention_s;
    if (!busiest || c.contention_s > busiest->contention_s ||
        (c.contention_s == busiest->contention_s && c.hold_s > busiest->hold_s))
      busiest = &c;
  }
  const double distinct = static_cast<double>(first.locks.locks.size());
  const bool many_locks = distinct >= 16;
  const double busiest_share = busiest && contention_sum > 0 ? busiest->contention_s / contention_sum : 0;
  const double busiest_region_s = first.profile.time_s;
  const double serialisation = busiest && busiest_region_s > 0 ? std::min(1.0, busiest->hold_s / busiest_region_s) : 0;
  const std::string held = serialisation < 0.005 && serialisation > 0 ? "under 1%" : fmt::format("{:.0f}%", 100 * serialisation);
  const std::string locks_seen = recorded < acquisitions ? fmt::format("at least {:.0f}", distinct) : fmt::format("{:.0f}", distinct);
  const bool critical = has_kind(first, "critical");
  const double algorithm = median_of(typical, [](const RegionRun& r) { return r.locks.max_thread_algorithm_s(); });
  const double algorithm_total = median_of(typical, [](const RegionRun& r) {
    double s = 0;
    for (const LockCost& c : r.locks.locks) s += c.algorithm_s;
    return s;
  });
  // No acquisition costs less than one uncontended atomic (docs/locks.md, "The floor"): the
  // recorded ones are held to it one by one (LockAcquisition::wait), and where operations counted
  // without a time bring the mean below it, the cause is raised to the floor for all of them.
  double floor_scale = 1;
  if (const double floor = first.locks.atomic_floor_s;
      floor > 0 && algorithm_total > 0 && algorithm_total < acquisitions * floor)
    floor_scale = acquisitions * floor / algorithm_total;
  const double algorithm_floored = algorithm * floor_scale, algorithm_total_floored = algorithm_total * floor_scale;
  if (algorithm > 0) {
    const double algorithm = algorithm_floored, algorithm_total = algorithm_total_floored;
    const std::string each = duration_text(algorithm_total / std::max(1.0, acquisitions));
    out.push_back({"lock_overhead", threads, algorithm_total, algorithm,
                   critical ? fmt::format("{:.0f} critical-section entries cost {} each even uncontended: use "
                                          "#pragma omp atomic for single updates, or a reduction clause",
                                          acquisitions, each)
                   : many_locks
                       ? fmt::format("{:.0f} acquisitions of {} distinct locks (fine-grained already, rarely wanted at "
                                     "once) cost {} each: take each lock less often (batch the updates to one item), "
                                     "make single updates atomic (omp atomic) instead, or initialise the locks with "
                                     "omp_lock_hint_uncontended",
                                     acquisitions, locks_seen, each)
                       : fmt::format("{:.0f} lock acquisitions cost {} each even uncontended: take the lock "
                                     "less often (batch updates, accumulate privately), or initialise it "
                                     "with omp_lock_hint_uncontended / use atomics",
                                     acquisitions, each),
                   {{"acquisitions", acquisitions}, {"recorded_acquisitions", recorded}, {"distinct_locks", distinct},
                    {"thread_seconds", algorithm_total}}});
    if (first.locks.atomic_floor_s > 0) out.back().details.emplace_back("atomic_floor_s", first.locks.atomic_floor_s);
    if (floor_scale > 1) out.back().details.emplace_back("raised_to_floor_by", floor_scale);
  }
  const double contention = median_of(typical, [](const RegionRun& r) { return r.locks.max_thread_contention_s(); });
  const double contention_total = median_of(typical, [](const RegionRun& r) {
    double s = 0;
    for (const LockCost& c : r.locks.locks) s += c.contention_s;
    return s;
  });
  if (threads > 1 && contention > 0) {
    const char* what = critical ? "critical section" : "lock";
    std::string hint;
    if (many_locks && busiest_share < 0.5) {
      hint = fmt::format("queueing is spread over {} {}s, none of them hot (the busiest takes {:.0f}% of it and is held "
                         "{} of the region's time): splitting them further will not help; take each less often "
                         "(batch the updates to one item), or make single updates atomic (omp atomic) instead",
                         locks_seen, what, 100 * busiest_share, held);
    } else {
      const std::string which = distinct <= 1 ? fmt::format("one {} is held {} of the region's time", what, held)
                                              : fmt::format("the busiest of {} {}s takes {:.0f}% of the queueing and is "
                                                            "held {} of the region's time",
                                                            locks_seen, what, 100 * busiest_share, held);
      hint = fmt::format("threads queue for a shared {} ({}): split it (one lock per data item), shorten what runs "
                         "under it, or accumulate privately and combine once (reduction)",
                         what, which);
    }
    out.push_back({"lock_contention", threads, contention_total, contention, hint,
                   {{"acquisitions", acquisitions}, {"recorded_acquisitions", recorded}, {"distinct_locks", distinct},
                    {"thread_seconds", contention_total}, {"max_hold_s", busiest ? busiest->hold_s : 0.0},
                    {"serialisation", serialisation}, {"busiest_share", busiest_share}}});
  }

  std::vector<const TaskFigures*> tasks;
  for (const RegionRun* r : repeats) tasks.push_back(&r->tasks);
  for (Problem& p : diagnose_tasks(tasks, threads)) out.push_back(std::move(p));
  if (base && !base->tasks.empty() && first.tasks.tasks > 0) {
    const TeamWork now = team_work(repeats);
    const bool read = now.usage_read && base->usage_read;
    if (std::optional<Problem> p = task_inflation(tasks, base->tasks, threads, base->threads,
                                                  read ? &now.usage : nullptr, read ? &base->usage : nullptr))
      out.push_back(std::move(*p));
  }

  // Causes never add up to more than the region could lose: its time lost plus the overheads
  // that exist at any thread count (fork/join, barriers, the lock algorithm), and never more than
  // its whole time. The runtime's per-task cost counts against the time lost only (kTimeLost).
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
    }
  }
  std::sort(out.begin(), out.end(), [](const Problem& a, const Problem& b) { return a.gain_s > b.gain_s; });
  return out;
}

namespace {

// A top-level region that ran n times at t and n0 at t0 is compared per instance: the base's time
// and work scaled by n/n0 (docs/design.md, "Instance counts"). A nested region's count grows with
// the team that forks it, and is compared as it is.
double per_instance_factor(bool nested, double base_instances, double instances) {
  if (nested || !(base_instances > 0) || !(instances > 0) || instances == base_instances) return 1.0;
  return instances / base_instances;
}

TeamWork scaled_to_instances(TeamWork w, double f) {
  if (f == 1.0) return w;
  w.work_s *= f;
  w.usage = w.usage * f;
  w.time_s *= f;
  w.outside_worksharing_s *= f;
  w.lock_operations *= f;
  for (TeamWork::Loop& l : w.loops) l.time_s *= f;
  for (auto& [key, s] : w.sampled_lines) s *= f;
  return w;
}

std::optional<Note> instances_differ_note(const Report& report) {
  Note note{"instances_differ",
            "these regions ran a different number of times at different thread counts, so the runs did different "
            "work (a program that sizes its repetitions by time, or converges in a different number of steps): each "
            "is compared per instance, its time and work at the smallest count scaled by the ratio of the instance "
            "counts; the program's own times are not the same work at each count",
            {}};
  for (const RegionReport& r : report.regions) {
    if (r.kind == "serial" || r.nested || r.instances_at.size() < 2) continue;
    const uint64_t n0 = r.instances_at.begin()->second;
    std::vector<std::string> counts;
    bool differ = false;
    for (const auto& [t, n] : r.instances_at) {
      differ = differ || n != n0;
      counts.push_back(fmt::format("{}{} at {}", n, counts.empty() ? " instances" : "", threads_phrase(t)));
    }
    if (differ) note.items.push_back(fmt::format("{}: {}", region_place(r), fmt::join(counts, ", ")));
  }
  if (note.items.empty()) return std::nullopt;
  return note;
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

}  // namespace

Report build_report(const std::vector<std::string>& command, int cores, const std::vector<MeasuredRun>& runs,
                    const std::optional<BenchCosts>& bench, bool weak) {
  Report report;
  report.weak = weak;
  // The time at t if it scaled ideally from T(t0): T(t0)·t0/t, or T(t0) for weak scaling, where
  // the work grows with the team by design; the efficiency is that over T(t).
  const auto ideal = [weak](int t0, double time0, int t) { return weak ? time0 : time0 * t0 / t; };
  report.bench = bench;
  const double bench_dispatch = bench ? bench->dispatch_per_chunk_s : 0;
  // The entry its figures came from, named (a hint's chunk that changed between two reports says
  // whether the cache did).
  if (bench)
    report.notes.push_back(
        {"bench_cache",
         fmt::format("the runtime's costs from the bench cache{}: the entry for {} measured at {}{} with {} (a task "
                     "{}, a dynamic loop's dispatch {} per chunk, a recursive tree's task deferred {} beyond run at "
                     "once)",
                     bench->cache_file.empty() ? "" : " " + bench->cache_file, bench->runtime_library,
                     bench->measured_at, bench->machine.empty() ? "" : " on " + bench->machine,
                     threads_phrase(bench->threads), duration_text(bench->task_s),
                     bench->dispatch_per_chunk_s > 0 ? duration_text(bench->dispatch_per_chunk_s) : "not measured",
                     bench->task_tree_s > 0 ? duration_text(bench->task_tree_s) : "not measured"),
         {}});
  report.version = kVersion;
  report.command = command;
  report.cores = cores;
  std::set<int> thread_set;
  std::map<int, std::vector<const RunAnalysis*>> by_threads;
  for (const MeasuredRun& run : runs) {
    report.runs.push_back(run.record);
    thread_set.insert(run.record.threads);
    if (run.analysis) {
      by_threads[run.record.threads].push_back(&*run.analysis);
      if (report.runtime.empty()) report.runtime = run.analysis->runtime;
    }
  }
  report.threads.assign(thread_set.begin(), thread_set.end());
  const std::set<int> unmeasured = unmeasured_counts(runs);
  for (Note& note : thread_count_notes(runs)) report.notes.push_back(std::move(note));

  std::map<int, double> serial_spread;  // max − min of the serial time over the repeats
  std::map<int, SerialWaits> serial_waits;  // of serial_blocked_s, what it waited for (medians)
  for (const auto& [t, analyses] : by_threads) {
    std::vector<double> wall, serial, mpi, blocked, queued, child, io, io_operations;
    bool any_mpi = false;
    for (const RunAnalysis* a : analyses) {
      wall.push_back(a->wall_s);
      serial.push_back(a->serial_s);
      mpi.push_back(a->mpi_s);
      any_mpi = any_mpi || a->mpi;
      if (a->serial_usage_read) blocked.push_back(a->serial_blocked_s), queued.push_back(a->serial_runqueue_s);
      if (a->serial_waits.read) {
        child.push_back(a->serial_waits.child_s);
        io.push_back(a->serial_waits.io_s);
        io_operations.push_back(a->serial_waits.io_operations);
      }
    }
    if (!child.empty()) serial_waits[t] = {true, median(child), median(io), median(io_operations)};
    report.program_time_s[t] = median(wall);
    report.program_time_range_s[t] = {*std::min_element(wall.begin(), wall.end()), *std::max_element(wall.begin(), wall.end())};
    report.serial_s[t] = median(serial);
    if (serial.size() > 1) serial_spread[t] = *std::max_element(serial.begin(), serial.end()) -
                                              *std::min_element(serial.begin(), serial.end());
    if (!blocked.empty()) {
      report.serial_blocked_s[t] = std::min(report.serial_s[t], median(blocked));
      report.serial_runqueue_s[t] = median(queued);
    }
    if (any_mpi) report.mpi_s[t] = median(mpi);
    report.program_threads[t] = analyses.front()->threads;
  }
  if (!report.program_time_s.empty()) {
    const auto& [t0, time0] = *report.program_time_s.begin();
    for (const auto& [t, time] : report.program_time_s) {
      // No speedup from a count that is not the team that ran (docs/design.md, "Thread counts").
      if (unmeasured.count(t) || unmeasured.count(t0)) continue;
      report.program_efficiency[t] = time > 0 ? ideal(t0, time0, t) / time : 0;
      if (const auto s = report::speedup_at(t0, time0, t, time); s && !weak) report.program_speedup[t] = *s;
    }
    // MPI calls outside regions do not shrink with the threads either (a singleton's MPI_Init
    // and MPI_Finalize): they bound the speedup with the serial code (CloverLeaf run as one
    // process: "serial code bounds the speedup at 65x" with 390 ms of its 765 ms in MPI).
    const double serial0 = report.serial_s[t0] + (report.mpi_s.count(t0) ? report.mpi_s.at(t0) : 0.0);
    if (serial0 > 0 && time0 > 0) report.amdahl_speedup_bound = time0 / serial0;
  }

  std::set<CallsiteKey> keys;
  for (const auto& [t, analyses] : by_threads)
    for (const RunAnalysis* a : analyses)
      for (const auto& [key, r] : a->regions) keys.insert(key);

  std::vector<std::string> negative;  // regions faster than perfect scaling, and why
  for (const CallsiteKey& key : keys) {
    RegionReport region;
    ConstructReports constructs(bench_dispatch);
    std::optional<std::pair<int, double>> base;  // (t0, T(t0))
    TeamWork base_work;
    double base_instances = 0;  // the region's instances at t0
    std::map<int, std::vector<const RunSamples*>> samples_at;  // each count's repeats, where sampled
    for (const auto& [t, analyses] : by_threads) {
      std::vector<const RegionRun*> repeats;
      for (const RunAnalysis* a : analyses) {
        auto it = a->regions.find(key);
        if (it != a->regions.end()) repeats.push_back(&it->second);
      }
      if (repeats.empty()) continue;
      const RegionRun& first = *repeats.front();
      if (region.function.empty() && region.file.empty()) {
        region.function = first.where.function;
        region.file = first.where.file;
        region.line = first.where.line;
        region.module = first.where.module;
        region.module_offset = first.where.module_offset;
      }
      region.nested = region.nested || first.profile.nested;
      // The time, split and causes of the repeat closest to the median time, so that each
      // thread's parts add up to the time the report shows (the first repeat's split beside the
      // median time was 5% off with two repeats) and the causes to the time lost.
      const RegionRun* typical = &typical_repeat(repeats);
      const double time = typical->profile.time_s;
      region.time_s[t] = time;
      if (repeats.size() > 1) {
        const auto [low, high] = std::minmax_element(repeats.begin(), repeats.end(), [](const RegionRun* a, const RegionRun* b) {
          return a->profile.time_s < b->profile.time_s;
        });
        region.time_spread_s[t] = (*high)->profile.time_s - (*low)->profile.time_s;
      }
      // The typical repeat's count, beside its time (a program that sizes its repetitions by
      // time runs a different number at each repeat).
      region.instances_at[t] = typical->profile.instances;
      if (typical->sampled()) region.recorded_instances_at[t] = typical->profile.recorded_instances;
      region.per_thread[t] = typical->profile.per_thread;
      if (!base) {
        base = std::make_pair(t, time);
        base_work = team_work(repeats);
        base_work.threads = t;
        base_instances = static_cast<double>(typical->profile.instances);
      }
      // A count that ran the region a different number of times did different work: compared per
      // instance (note instances_differ), the base's time and work scaled to this count's instances.
      const double per_instance =
          per_instance_factor(region.nested, base_instances, static_cast<double>(typical->profile.instances));
      const int t0 = base->first;
      const double time0 = base->second * per_instance;
      // Weak scaling: the work at t0 is each thread's share; the team's at t is meant to be t/t0 of it.
      TeamWork base_at_t = scaled_to_instances(base_work, per_instance);
      if (weak && t > t0) {
        const double f = static_cast<double>(t) / t0;
        base_at_t.work_s *= f;
        base_at_t.usage = base_at_t.usage * f;
        base_at_t.weak = true;
      }
      region.efficiency[t] = time > 0 ? ideal(t0, time0, t) / time : 0;
      const std::optional<double> region_speedup = report::speedup_at(t0, time0, t, time);
      if (region_speedup && !weak) region.speedup[t] = *region_speedup;
      const double lost = t == t0 ? 0.0 : time - ideal(t0, time0, t);
      region.time_lost_s[t] = lost;
      const std::optional<double> known_lost = t == t0 && t0 > 1 ? std::nullopt : std::optional<double>(lost);
      double explained = 0;
      const size_t first_problem = region.problems.size();
      for (Problem& p : diagnose_region(repeats, t, time, known_lost, t > t0 ? &base_at_t : nullptr, bench_dispatch)) {
        explained += p.gain_s;
        region.problems.push_back(std::move(p));
      }
      region.unexplained_s[t] = unexplained(lost, explained);
      const double spread = region.time_spread_s.count(t) ? region.time_spread_s.at(t) : 0.0;
      share_the_loss(region.problems, first_problem, lost, explained, spread);
      if (lost < 0 && t > t0) {
        const TeamWork now = team_work(repeats);
        const double spread0 = region.time_spread_s.count(t0) ? region.time_spread_s.at(t0) : 0.0;
        negative.push_back(fmt::format("{} at {}: {}",
                                       region.file.empty() ? fmt::format("{}+{:#x}", region.module, region.module_offset)
                                                           : fmt::format("{}:{}", region.file, region.line),
                                       threads_phrase(t),
                                       negative_loss_reason(-lost, efficiency_of(time0, t0, time, t), spread, spread0,
                                                            base_at_t.work_s, now.work_s, t0)));
      }
      constructs.add(repeats, t, *typical, /*to_median=*/1.0, region);  // the time is the typical repeat's own
      std::vector<const RunSamples*> samples;
      for (const RegionRun* r : repeats) samples.push_back(&r->samples);
      if (std::any_of(samples.begin(), samples.end(), [](const RunSamples* s) { return s->cpu_s > 0; })) {
        region.sampled[t] = summarize_samples(samples, kSampledLinesShown);
        samples_at[t] = std::move(samples);
      }
      std::vector<const TaskFigures*> tasks;
      for (const RegionRun* r : repeats)
        if (r->tasks.tasks > 0) tasks.push_back(&r->tasks);
      if (!tasks.empty()) {
        region.tasks[t] = summarize_tasks(tasks, t, region_speedup.value_or(0));
        if (bench) region.tasks[t].bench_task_s = bench->task_s;
      }
      // The replay from the smallest count (task_replay.h): each count's median over the repeats,
      // where every repeat replayed it.
      if (t == t0 && !tasks.empty() &&
          std::none_of(tasks.begin(), tasks.end(), [](const TaskFigures* f) { return f->replay_s.empty(); })) {
        RegionReport::TaskReplay replay{t0, 0, {}};
        std::vector<double> per_task;
        for (const TaskFigures* f : tasks) per_task.push_back(f->replay_per_task_s);
        replay.per_task_s = median(per_task);
        for (const auto& [count, time] : tasks.front()->replay_s) {
          std::vector<double> times;
          for (const TaskFigures* f : tasks)
            if (f->replay_s.count(count)) times.push_back(f->replay_s.at(count));
          if (times.size() == tasks.size()) replay.predicted_time_s[count] = median(times);
        }
        region.task_replay = replay;
      }
    }
    if (!region.instances_at.empty()) region.instances = region.instances_at.rbegin()->second;
    name_grown_lines(region, samples_at);
    constructs.finish(region);
    report.regions.push_back(std::move(region));
  }

  // The program's serial code competes with the regions as one more place to win time back.
  if (!report.serial_s.empty()) {
    RegionReport serial;
    serial.kind = "serial";
    serial.function = "(outside parallel regions)";
    const auto& [t0, time0] = *report.program_time_s.begin();
    for (const auto& [t, s] : report.serial_s) {
      serial.time_s[t] = s;
      serial.instances_at[t] = 1;
      const bool known = !unmeasured.count(t) && !unmeasured.count(t0);
      // Time off the CPU outside regions (sleep, I/O, a child) is no code to parallelise: its own
      // cause, serial_blocked; serial_code is the rest.
      // Time off the CPU under kSerialBlockedMin of serial code is no cause of its own: it stays serial
      // code's, so that what the causes explain is what the report shows (its share was counted
      // as explained while no serial_blocked was shown: 0.25 ms on serial_phase).
      const double measured_blocked = report.serial_blocked_s.count(t) ? report.serial_blocked_s.at(t) : 0.0;
      const bool blocked_shown = t > 1 && known && measured_blocked > 0 && measured_blocked >= kSerialBlockedMin * s;
      const double blocked = blocked_shown ? measured_blocked : 0.0;
      const double gain = known ? (s - blocked) * (1.0 - 1.0 / t) : 0.0;
      const double blocked_lost = known ? blocked * (1.0 - 1.0 / t) : 0.0;
      const double lost = t == t0 || !known ? 0.0 : s - ideal(t0, report.serial_s[t0], t);
      serial.time_lost_s[t] = lost;
      serial.unexplained_s[t] = unexplained(lost, t > 1 ? std::max(0.0, gain) + blocked_lost : 0.0);
      if (blocked_shown) {
        const SerialWaits waits = serial_waits.count(t) ? serial_waits.at(t) : SerialWaits{};
        auto [what, details] = serial_wait_hint(waits, blocked);
        const double queued = report.serial_runqueue_s.count(t) ? report.serial_runqueue_s.at(t) : 0.0;
        details.insert(details.begin(), {{"serial_s", s}, {"on_cpu_s", std::max(0.0, s - blocked - queued)},
                                         {"runqueue_s", queued}, {"lost_share_s", blocked_lost}});
        serial.problems.push_back(
            {"serial_blocked", t, blocked, blocked,
             fmt::format("the program waits {} outside parallel regions at {}, off the CPU: {}; no thread count "
                         "shortens it",
                         duration_text(blocked), threads_phrase(t), what),
             std::move(details)});
      }
      if (t > 1 && gain > 0) {
        const double blocked0 = report.serial_blocked_s.count(t0) ? report.serial_blocked_s.at(t0) : 0.0;
        const double fraction = time0 > 0 ? std::max(0.0, report.serial_s[t0] - blocked0) / time0 : 0;
        serial.problems.push_back(
            {"serial_code", t, s - blocked, gain,
             fmt::format("{:.0f}% of the run is serial code: Amdahl's law caps the speedup at {:.1f}x; "
                         "parallelise the serial phase (or overlap it with parallel work)",
                         100 * fraction, fraction > 0 ? 1 / fraction : 0.0),
             {{"serial_fraction", fraction}}});
        share_the_loss(serial.problems, serial.problems.size() - 1, lost, gain,
                       serial_spread.count(t) ? serial_spread.at(t) : 0.0);
      }
    }
    serial.instances = 1;
    serial.time_spread_s = serial_spread;
    std::map<int, std::vector<const RunSamples*>> samples_at;
    for (const auto& [t, analyses] : by_threads) {
      std::vector<const RunSamples*> samples;
      for (const RunAnalysis* a : analyses) samples.push_back(&a->serial_samples);
      if (std::none_of(samples.begin(), samples.end(), [](const RunSamples* s) { return s->cpu_s > 0; })) continue;
      serial.sampled[t] = summarize_samples(samples, kSampledLinesShown);
      samples_at[t] = std::move(samples);
    }
    name_serial_lines(serial);
    name_grown_lines(serial, samples_at);
    report.regions.push_back(std::move(serial));
  }

  // The program's time lost adds up the same way: what its top-level regions and serial code
  // explain of their own losses (nested regions' time is inside their parent's).
  if (!report.program_time_s.empty()) {
    const auto& [t0, time0] = *report.program_time_s.begin();
    for (const auto& [t, time] : report.program_time_s) {
      if (unmeasured.count(t) || unmeasured.count(t0)) continue;
      const double lost = t == t0 ? 0.0 : time - ideal(t0, time0, t);
      // Regions that ran faster than ideal (a negative loss) give time back: their gain offsets
      // the others' losses, so what the causes explain may exceed what the program lost.
      double explained = 0, given_back = 0;
      for (const RegionReport& r : report.regions) {
        if (r.nested || !r.time_lost_s.count(t)) continue;
        explained += std::max(0.0, r.time_lost_s.at(t)) - r.unexplained_s.at(t);
        given_back += std::max(0.0, -r.time_lost_s.at(t));
      }
      // MPI calls outside regions (a singleton run's MPI_Init and MPI_Finalize included) do not
      // shrink with the threads: their share of the loss is measured, never unexplained (docs/mpi.md).
      if (t != t0 && report.mpi_s.count(t) && report.mpi_s.count(t0))
        explained += std::max(0.0, report.mpi_s.at(t) - ideal(t0, report.mpi_s.at(t0), t));
      // lost = explained − given back + unexplained, exactly: where the causes explain more than
      // the program lost even with what regions gave back, the rest of the program (its time in
      // neither a region nor serial code) gave back the difference too.
      report.program_time_lost_s[t] = lost;
      report.program_unexplained_s[t] = t == t0 ? 0.0 : std::max(0.0, lost - explained + given_back);
      report.program_given_back_s[t] =
          t == t0 ? 0.0 : given_back + std::max(0.0, explained - given_back - lost);
      if (lost < 0 && t > t0) {
        const auto& [fast, slow] = report.program_time_range_s[t];
        const auto& [fast0, slow0] = report.program_time_range_s[t0];
        negative.insert(negative.begin(),
                        fmt::format("the program at {}: {}", threads_phrase(t),
                                    negative_loss_reason(-lost, efficiency_of(time0, t0, time, t), slow - fast,
                                                         slow0 - fast0, 0, 0, t0)));
      }
    }
  }

  // Region ids name a region, not its rank: numbered in source order (file, line, function, then
  // the module's address for a region without debug info), so r3 is the same region in `profile`,
  // `scale` and `report` of one program, whatever each run measured it to lose.
  {
    std::vector<RegionReport*> by_place;
    for (RegionReport& r : report.regions)
      if (r.kind != "serial") by_place.push_back(&r);
    std::stable_sort(by_place.begin(), by_place.end(), [](const RegionReport* a, const RegionReport* b) {
      return std::tie(a->file, a->line, a->function, a->module, a->module_offset, a->nested) <
             std::tie(b->file, b->line, b->function, b->module, b->module_offset, b->nested);
    });
    int number = 0;
    for (RegionReport* r : by_place) r->id = fmt::format("r{}", ++number);
    for (RegionReport& r : report.regions)
      if (r.kind == "serial") r.id = "serial";
  }
  // Ranked by the time lost at the largest count with a core per thread when there is one (an
  // oversubscribed count's costs are time-sharing: a barrier at 4 threads on 2 cores took 317 ms):
  // what the causes explain and what none does together, so a region that lost 84 ms that no
  // cause explains ranks above 2.58 ms of serial code. A report of one count (profile) has no
  // loss: its regions rank by their largest gain. Equal ranks: by gain, then by time.
  int largest = report.threads.empty() ? 0 : report.threads.back();
  for (int t : report.threads)
    if (!report.oversubscribed(t)) largest = t;
  std::stable_sort(report.regions.begin(), report.regions.end(), [&](const RegionReport& a, const RegionReport& b) {
    const double la = a.rank_loss(largest), lb = b.rank_loss(largest);
    if (la != lb) return la > lb;
    const double ga = a.largest_gain(largest), gb = b.largest_gain(largest);
    if (ga != gb) return ga > gb;
    auto ta = a.time_s.count(largest) ? a.time_s.at(largest) : 0, tb = b.time_s.count(largest) ? b.time_s.at(largest) : 0;
    return ta > tb;
  });
  report.summary_threads = report::summary_counts(report);
  if (std::optional<Note> note = instances_differ_note(report)) report.notes.push_back(std::move(*note));

  // Notes of one kind are one note, whatever the number of regions it is about.
  Note instances{"sampled_instances",
                 "adaptive sampling: these regions were recorded in full on only some of their instances; their "
                 "causes are measured on those and scaled to all instances (OMPSCOPE_SAMPLING=off records every one)",
                 {}};
  Note tasks{"sampled_tasks",
             "adaptive sampling: these regions ran more tasks than were recorded in full; each thread counted the "
             "others, and their time is the count times the mean body recorded on the same thread "
             "(OMPSCOPE_SAMPLING=off records every one)",
             {}};
  Note subtrees{"sampled_subtrees",
                "adaptive sampling: in these regions sampled-out tasks created sampled-out tasks (a recursive task "
                "tree): those subtrees are missing from the task graph's span, so its parallelism is an upper bound, "
                "and their bodies are estimated from tasks higher in the tree",
                {}};
  Note locks{"sampled_locks",
             "adaptive sampling: these regions took more locks than were recorded (per thread and group of acquiring sites: "
             "the first 1000, then one in 16, 32, ... up to one in 65536); the others are counted exactly and their "
             "times scaled from the recorded ones (OMPSCOPE_SAMPLING=off records every one)",
             {}};
  Note dropped{"dropped_events", "events were dropped: the log could not grow (disk full?)", {}};
  for (const RegionReport& r : report.regions) {
    if (r.recorded_instances_at.empty()) continue;
    const auto& [t, recorded] = *r.recorded_instances_at.rbegin();
    instances.items.push_back(fmt::format("{}: {} of {} instances at {}", region_place(r), recorded,
                                          r.instances_at.at(t), threads_phrase(t)));
  }
  for (const RegionReport& r : report.regions) {
    // Lock sampling: the largest count's lock cause says how many operations were recorded.
    for (auto p = r.problems.rbegin(); p != r.problems.rend(); ++p) {
      if (p->kind != "lock_overhead" && p->kind != "lock_contention") continue;
      double ops = 0, recorded = 0;
      for (const auto& [name, value] : p->details) {
        if (name == "acquisitions") ops = value;
        if (name == "recorded_acquisitions") recorded = value;
      }
      if (recorded > 0 && recorded < ops)
        locks.items.push_back(fmt::format("{}: {:.0f} locks at {}, {:.0f} recorded", region_place(r), ops,
                                          threads_phrase(p->threads), recorded));
      break;
    }
  }
  for (const RegionReport& r : report.regions) {
    if (r.tasks.empty()) continue;
    const auto& [t, s] = *r.tasks.rbegin();
    if (s.recorded_tasks >= s.tasks) continue;
    tasks.items.push_back(fmt::format("{}: {:.0f} tasks at {}, {:.0f} recorded in full", region_place(r), s.tasks,
                                      threads_phrase(t), s.recorded_tasks));
    if (s.hidden_subtree_tasks > 0)
      subtrees.items.push_back(fmt::format("{}: {:.0f} such tasks", region_place(r), s.hidden_subtree_tasks));
  }
  for (const MeasuredRun& run : runs)
    if (run.record.dropped_events > 0)
      dropped.items.push_back(fmt::format("{} in the run at {} (repeat {})", run.record.dropped_events,
                                          threads_phrase(run.record.threads), run.record.repeat));
  // The lock calibrations where they disagree (docs/locks.md, "The floor"): the recorded
  // acquisitions, less the tool's own time, came out below one uncontended atomic at the median.
  for (const MeasuredRun& run : runs) {
    if (!run.analysis) continue;
    const LockCalibration& c = run.analysis->lock_calibration;
    if (c.atomic_floor_s <= 0 || c.recorded < 100 || !(c.median_net_s < c.atomic_floor_s)) continue;
    report.notes.push_back(
        {"lock_calibration",
         fmt::format("lock costs: the recorded acquisitions took {} at the median (run at {}), {} once the tool's own "
                     "time per record ({}, measured at start) is taken out: less than one uncontended atomic on this "
                     "machine ({}, measured at start), which no lock acquisition can undercut. The two calibrations "
                     "disagree here (the tool's time took in about what the lock's own atomic adds); {} of {} recorded "
                     "acquisitions are counted at the atomic's cost, the floor, and the gap is trusted only above it",
                     duration_text(c.median_raw_s), threads_phrase(run.record.threads), duration_text(std::max(0.0, c.median_net_s)),
                     duration_text(c.record_gap_s), duration_text(c.atomic_floor_s), c.floored, c.recorded),
         {}});
    break;
  }
  // The machine's state during each run (docs/lost-time.md, "A busy machine"): where the run's
  // threads were switched out while runnable for a tenth of their work or more (involuntary
  // switches, time off the CPU in the stretches read), or the initial thread waited that long
  // for a CPU in serial code (schedstat's run-queue wait), another process held the CPUs. Said
  // per run; that time is the machine's, named in work_inflation's preempted_s and its barrier
  // waits, never the program's barrier, fork/join or imbalance.
  Note busy{"busy_machine",
            "these runs were taken on a busy machine: their threads waited for a CPU that another process "
            "held; the time off the CPU in them (work_inflation's preempted_s and the barrier waits for switched-out "
            "threads) is the machine's, not the program's: rerun on idle cores to rank from the program's own time",
            {}};
  for (const MeasuredRun& run : runs) {
    if (!run.analysis) continue;
    WorkUsage work;
    for (const ThreadSplit& s : run.analysis->threads) work += s.usage;
    const double off_share = work.wall_s > 0 ? work.off_cpu_s() / work.wall_s : 0.0;
    const double queued = run.analysis->serial_usage_read ? run.analysis->serial_runqueue_s : 0.0;
    const double queued_share = run.analysis->serial_s > 0 ? queued / run.analysis->serial_s : 0.0;
    const bool switched = work.switches > 0 && off_share >= kBusyShare;
    if (!switched && !(queued_share >= kBusyShare)) continue;
    std::vector<std::string> parts;
    if (switched)
      parts.push_back(fmt::format("threads off their CPU {:.0f}% of their work read ({:.0f} involuntary switches)",
                                  100 * off_share, work.switches));
    if (queued_share >= kBusyShare)
      parts.push_back(fmt::format("the initial thread waited {} for a CPU in serial code ({:.0f}% of it)",
                                  duration_text(queued), 100 * queued_share));
    busy.items.push_back(fmt::format("the run at {} (repeat {}): {}", threads_phrase(run.record.threads),
                                     run.record.repeat, fmt::join(parts, "; ")));
  }
  if (!busy.items.empty()) report.notes.push_back(std::move(busy));
  Note faster{"negative_loss",
              "faster than perfect scaling from the smallest count (a negative time lost, efficiency above 100%): "
              "nothing to win back there, and no cause is given a part of it",
              std::move(negative)};
  for (Note* note : {&instances, &locks, &tasks, &subtrees, &dropped, &faster})
    if (!note->items.empty()) report.notes.push_back(std::move(*note));
  // Said once, whatever the number of runs (docs/lost-time.md, "Hardware counters").
  for (const MeasuredRun& run : runs)
    if (run.analysis && !run.analysis->counters_missing.empty()) {
      report.notes.push_back({"hardware_counters",
                              fmt::format("no usable hardware counters ({}): IPC and cache misses not measured",
                                          run.analysis->counters_missing),
                              {}});
      break;
    }
  // Each region's causes by gain at the ranked count first, then at the other counts, largest
  // first, each by gain: the first row a reader sees is the region's top cause where regions are
  // ranked (not a fork/join overhead at 1 thread).
  const int ranked = report::ranked_count(report);
  for (RegionReport& r : report.regions)
    std::stable_sort(r.problems.begin(), r.problems.end(), [ranked](const Problem& a, const Problem& b) {
      if ((a.threads == ranked) != (b.threads == ranked)) return a.threads == ranked;
      if (a.threads != b.threads) return a.threads > b.threads;
      return a.gain_s > b.gain_s;
    });
  report.findings = report::build_findings(report);
  // The code beside the findings and the constructs (the files the debug info names).
  attach_source_excerpts(report);
  return report;
}

}  // namespace ompscope::analysis
