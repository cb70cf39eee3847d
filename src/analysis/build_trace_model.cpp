#include "analysis/build_trace_model.h"

#include <omp-tools.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <unordered_map>

#include "common/sort_runs.h"

namespace ompscope::analysis {
namespace {

const char* work_name(uint8_t work) {
  if (work == kWorkMasked) return "masked";
  switch (work) {
    case ompt_work_loop: return "loop";
    case ompt_work_sections: return "sections";
    case ompt_work_single_executor: return "single";
    case ompt_work_single_other: return "single (skipped)";
    case ompt_work_workshare: return "workshare";
    case ompt_work_distribute: return "distribute";
    case ompt_work_taskloop: return "taskloop";
    case ompt_work_scope: return "scope";
    // The schedule newer runtimes report (libomp 19; LLVM 14's header has no names for them):
    // docs/runtime-quirks.md, "Runtime versions".
    case 10: return "loop (static)";
    case 11: return "loop (dynamic)";
    case 12: return "loop (guided)";
    default: return "loop";  // 13: loop_other
  }
}

const char* mutex_name(uint8_t kind) {
  switch (kind) {
    case ompt_mutex_critical: return "critical";
    case ompt_mutex_nest_lock:
    case ompt_mutex_test_nest_lock: return "nest lock";
    case ompt_mutex_ordered: return "ordered";
    case ompt_mutex_atomic: return "atomic";
    default: return "lock";
  }
}

// Which of two slices with the same begin and end is the outer one.
int nesting_rank(SliceKind kind) {
  switch (kind) {
    case SliceKind::Parallel: return 0;
    case SliceKind::Work: return 1;
    case SliceKind::Barrier:
    case SliceKind::JoinBarrier:
    case SliceKind::Taskwait:
    case SliceKind::Taskgroup:
    case SliceKind::Sync: return 2;
    case SliceKind::LockWait:
    case SliceKind::LockHeld: return 3;
    case SliceKind::Task: return 4;
    case SliceKind::TaskCreate: return 5;
  }
  return 6;
}

SliceKind sync_slice(SyncKind kind) {
  switch (kind) {
    case SyncKind::Barrier: return SliceKind::Barrier;
    case SyncKind::JoinBarrier: return SliceKind::JoinBarrier;
    case SyncKind::Taskwait: return SliceKind::Taskwait;
    case SyncKind::Taskgroup: return SliceKind::Taskgroup;
    case SyncKind::Other: return SliceKind::Sync;
  }
  return SliceKind::Sync;
}

class ModelBuilder {
 public:
  ModelBuilder(TraceModel& model, const CallsiteNamer& name_of) : model_(model), name_of_(name_of) {}

  // A region per (construct, callsite); `codeptr` 0 names the construct alone. The construct's
  // name is a function of (kind, detail) at every call, so a region is found by those and the
  // address first, and named once: its name built and looked up by every slice (a string and a
  // tree map's string compares per slice) was a third of a 10 M-event trace model's time.
  template <class Construct>  // () -> std::string
  uint32_t region(SliceKind kind, uint8_t detail, uint64_t codeptr, bool body, Construct&& construct) {
    const SiteKey site{codeptr, static_cast<uint8_t>(kind), detail, body};
    if (const auto found = by_site_.find(site); found != by_site_.end()) return found->second;
    const Callsite& where = callsite(codeptr, body);
    std::string name = construct();
    if (!where.label.empty()) name += " " + where.label;
    auto [it, inserted] = region_index_.try_emplace(
        RegionKey{name, static_cast<uint8_t>(kind), detail}, static_cast<uint32_t>(model_.regions.size()));
    if (inserted) model_.regions.push_back(TraceRegion{std::move(name), kind, detail, where});
    by_site_.emplace(site, it->second);
    return it->second;
  }
  uint32_t region(SliceKind kind, uint8_t detail, const char* construct, uint64_t codeptr, bool body = false) {
    return region(kind, detail, codeptr, body, [construct] { return std::string(construct); });
  }

  // One thread's slices after another's mostly: the last track is looked up once.
  void add(uint32_t thread, Slice s) {
    if (last_track_ == nullptr || last_thread_ != thread) {
      last_track_ = &raw_[thread];
      last_thread_ = thread;
    }
    last_track_->push_back(s);
  }
  std::map<uint32_t, std::vector<Slice>>& raw() { return raw_; }

 private:
  const Callsite& callsite(uint64_t address, bool body) {
    auto& cache = body ? bodies_ : callsites_;
    auto it = cache.find(address);
    if (it == cache.end()) it = cache.emplace(address, address && name_of_ ? name_of_(address, body) : Callsite{}).first;
    return it->second;
  }

  struct RegionKey {
    std::string name;
    uint8_t kind;
    uint8_t detail;
    bool operator<(const RegionKey& o) const {
      return std::tie(name, kind, detail) < std::tie(o.name, o.kind, o.detail);
    }
  };

  struct SiteKey {
    uint64_t codeptr;
    uint8_t kind;
    uint8_t detail;
    bool body;
    bool operator==(const SiteKey&) const = default;
  };
  struct SiteHash {
    size_t operator()(const SiteKey& k) const {
      return std::hash<uint64_t>()(k.codeptr ^ (uint64_t{k.kind} << 56) ^ (uint64_t{k.detail} << 48) ^ (uint64_t{k.body} << 47));
    }
  };

  TraceModel& model_;
  const CallsiteNamer& name_of_;
  std::unordered_map<SiteKey, uint32_t, SiteHash> by_site_;
  uint32_t last_thread_ = 0;
  std::vector<Slice>* last_track_ = nullptr;
  std::unordered_map<uint64_t, Callsite> callsites_;
  std::unordered_map<uint64_t, Callsite> bodies_;
  std::map<RegionKey, uint32_t> region_index_;
  std::map<uint32_t, std::vector<Slice>> raw_;  // by thread
};

// Orders one thread's slices parent-first and makes them nest exactly: a slice that outlives
// the one enclosing its start is cut at that one's end (counted: the input was inconsistent).
uint64_t nest(std::vector<Slice>& slices) {
  // The slices come source by source, each mostly in order (a thread's parts and their visits,
  // its constructs, its locks, its tasks): runs merged (5 of the master's 147 060 in the 1 M
  // synthetic log).
  stable_sort_runs(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) {
    if (a.begin != b.begin) return a.begin < b.begin;
    // A creation at the instant a slice starts happened before it (an undeferred task starts
    // right after its creation): it comes first, outside.
    const bool ca = a.kind == SliceKind::TaskCreate, cb = b.kind == SliceKind::TaskCreate;
    if (ca != cb) return ca;
    if (a.end != b.end) return a.end > b.end;
    return nesting_rank(a.kind) < nesting_rank(b.kind);
  });
  uint64_t clamped = 0;
  std::vector<int64_t> open;  // ends of the enclosing slices
  for (Slice& s : slices) {
    if (s.end < s.begin) s.end = s.begin;
    while (!open.empty() && open.back() <= s.begin) open.pop_back();
    if (!open.empty() && s.end > open.back()) {
      s.end = open.back();
      ++clamped;
    }
    s.depth = static_cast<uint16_t>(open.size());
    open.push_back(s.end);
  }
  return clamped;
}

}  // namespace


Callsite callsite_of(const SourceLocation& w, uint64_t codeptr) {
  Callsite c;
  c.function = w.function;
  c.file = w.file;
  c.line = w.line;
  const std::string where = !w.file.empty()     ? fmt::format("{}:{}", std::filesystem::path(w.file).filename().string(), w.line)
                            : !w.module.empty() ? fmt::format("{}+0x{:x}", std::filesystem::path(w.module).filename().string(),
                                                              w.module_offset)
                                                : fmt::format("0x{:x}", codeptr);
  // clang's outlined bodies (".omp_outlined._debug__") say nothing the line does not.
  const bool outlined = w.function.rfind(".omp_outlined", 0) == 0 || w.function.rfind("__omp_outlined", 0) == 0;
  c.label = w.function.empty() || outlined ? where : w.function + "@" + where;
  return c;
}

namespace {

// A recorded explicit task: a batch of sampled-out tasks has an estimated length, no identity,
// so it is not an event of a trace.
bool traced(const TaskInstance& t) { return !t.light && !(t.flags & (ompt_task_initial | ompt_task_implicit)); }

// Frees a vector's memory (clear() keeps it).
template <class T>
void release(std::vector<T>& v) {
  std::vector<T>().swap(v);
}

}  // namespace

TraceModel build_trace_model(Timeline timeline, const CallsiteNamer& name_of, int pid, uint64_t origin_ns) {
  TraceModel model;
  model.pid = pid;
  model.origin_ns = origin_ns;
  model.end = to_ns(timeline.end);
  ModelBuilder b(model, name_of);
  for (const ThreadSummary& t : timeline.threads) b.raw()[t.thread];
  b.raw()[0];
  // Each thread's slices sized once, from at most what each record becomes: grown by doubling,
  // a thread's slices held up to twice their bytes, and three times while they moved.
  {
    std::map<uint32_t, size_t> most;
    for (const RegionInstance& r : timeline.regions) {
      for (const ThreadInRegion& p : r.threads) most[p.thread] += 1 + p.syncs.size();
      if (r.threads.empty()) ++most[r.master_thread];
    }
    for (const WorkSpan& w : timeline.work) ++most[w.thread];
    for (const LockAcquisition& a : timeline.locks) most[a.thread] += 2;  // its wait and its hold
    for (const TaskInstance& t : timeline.tasks) {
      if (!traced(t)) continue;
      ++most[t.creator_thread];  // its creation
      if (t.fragments.empty()) ++most[t.creator_thread];
      for (const TaskFragment& f : t.fragments) ++most[f.thread];
    }
    for (const auto& [thread, n] : most)  // the threads the run lists (another would get a track of none)
      if (auto it = b.raw().find(thread); it != b.raw().end()) it->second.reserve(n);
  }

  // Teams: 0 is the initial thread alone; one per distinct list of threads otherwise.
  std::map<std::vector<uint32_t>, uint32_t> team_index;
  auto team_of = [&](std::vector<uint32_t> threads) {
    auto [it, inserted] = team_index.try_emplace(threads, static_cast<uint32_t>(model.teams.size()));
    if (inserted) model.teams.push_back(Team{std::move(threads)});
    return it->second;
  };
  team_of({0});

  std::unordered_map<uint32_t, uint32_t> parallel_index;  // parallel id → model.parallels
  for (const RegionInstance& r : timeline.regions) {
    std::vector<uint32_t> members;
    for (const ThreadInRegion& p : r.threads) members.push_back(p.thread);
    if (members.empty()) members.push_back(r.master_thread);
    const uint32_t pi = static_cast<uint32_t>(model.parallels.size());
    model.parallels.push_back(ParallelInstance{team_of(members), r.requested_threads, r.master_thread});
    parallel_index[r.parallel_id] = pi;
    const uint32_t region = b.region(SliceKind::Parallel, 0, "parallel", r.site(), r.body != 0);
    bool master_seen = false;
    for (const ThreadInRegion& p : r.threads) {
      const bool master = p.thread == r.master_thread && !master_seen;
      master_seen = master_seen || master;
      Slice s;
      s.kind = SliceKind::Parallel;
      s.region = region;
      s.ref = pi;
      s.aux = p.index;
      s.begin = to_ns(master ? std::min(r.begin, p.start) : p.start);
      s.end = to_ns(master ? std::max(r.end, p.end) : p.end);
      b.add(p.thread, s);
      for (const SyncVisit& v : p.syncs) {
        Slice y;
        y.kind = sync_slice(v.kind);
        y.region = b.region(y.kind, 0, 0, false, [&y] {
          return std::string(y.kind == SliceKind::JoinBarrier ? "join barrier"
                             : y.kind == SliceKind::Sync      ? "sync"
                                                              : slice_kind_name(y.kind));
        });
        y.begin = to_ns(v.arrive);
        y.end = to_ns(v.depart);
        b.add(p.thread, y);
      }
    }
    if (r.threads.empty()) {  // a region the program died in before any implicit task began
      Slice s;
      s.kind = SliceKind::Parallel;
      s.region = region;
      s.ref = pi;
      s.begin = to_ns(r.begin);
      s.end = to_ns(r.end);
      b.add(r.master_thread, s);
    }
  }
  release(timeline.regions);

  for (const WorkSpan& w : timeline.work) {
    Slice s;
    s.kind = SliceKind::Work;
    s.region = b.region(SliceKind::Work, w.work, work_name(w.work), w.codeptr);
    s.begin = to_ns(w.begin);
    s.end = to_ns(w.end);
    b.add(w.thread, s);
  }
  release(timeline.work);

  // Locks: dense ids per wait id; acquisition order per lock, by time of acquisition.
  {
    std::unordered_map<uint64_t, uint32_t> lock_id;
    std::vector<const LockAcquisition*> held;
    for (const LockAcquisition& a : timeline.locks) {
      lock_id.try_emplace(a.wait_id, static_cast<uint32_t>(lock_id.size()));
      // A nest lock taken again by its owner is acquired and released in the same instant.
      const bool reacquired = (a.mutex_kind == ompt_mutex_nest_lock || a.mutex_kind == ompt_mutex_test_nest_lock) &&
                              a.acquired == a.released;
      if (!reacquired) held.push_back(&a);
      Slice w;
      w.kind = SliceKind::LockWait;
      w.region = b.region(SliceKind::LockWait, a.mutex_kind, a.codeptr, false,
                          [&a] { return std::string("wait ") + mutex_name(a.mutex_kind); });
      w.ref = lock_id[a.wait_id];
      w.begin = to_ns(a.request);
      w.end = to_ns(a.acquired);
      if (w.end > w.begin) b.add(a.thread, w);
    }
    std::stable_sort(held.begin(), held.end(), [](const auto* x, const auto* y) { return x->acquired < y->acquired; });
    std::vector<uint32_t> order(lock_id.size(), 0);
    // OMPT reports a release after the lock is free, so the next owner's "acquired" can be
    // stamped a few ns before it: end each hold no later than the next acquisition of its lock.
    std::unordered_map<uint64_t, double> next_acquired;
    std::vector<double> hold_end(held.size());
    for (size_t i = held.size(); i-- > 0;) {
      const LockAcquisition& a = *held[i];
      auto next = next_acquired.find(a.wait_id);
      hold_end[i] = next == next_acquired.end() ? a.released : std::min(a.released, next->second);
      next_acquired[a.wait_id] = a.acquired;
    }
    for (size_t i = 0; i < held.size(); ++i) {
      const LockAcquisition* a = held[i];
      Slice h;
      h.kind = SliceKind::LockHeld;
      h.region = b.region(SliceKind::LockHeld, a->mutex_kind, mutex_name(a->mutex_kind), a->codeptr);
      h.ref = lock_id[a->wait_id];
      h.aux = ++order[h.ref];
      h.begin = to_ns(a->acquired);
      h.end = to_ns(hold_end[i]);
      b.add(a->thread, h);
    }
    model.locks = static_cast<uint32_t>(lock_id.size());
  }
  release(timeline.locks);

  // Tasks. A tied task stays on the thread that started it, so its execution there is one
  // slice from first start to last end, with the tasks run while it was suspended nested inside;
  // an untied task may move, so each fragment is a slice of its own.
  std::unordered_map<uint32_t, uint32_t> generation;  // creating thread → tasks created so far
  for (const TaskInstance& t : timeline.tasks) {
    if (!traced(t)) continue;
    TaskInfo info;
    info.id = t.id;
    info.creator_thread = t.creator_thread;
    info.untied = (t.flags & ompt_task_untied) != 0;
    info.completed = t.completed >= 0;
    info.ran = !t.fragments.empty();
    if (auto it = parallel_index.find(t.parallel_id); it != parallel_index.end() && t.parallel_id != 0) {
      info.team = model.parallels[it->second].team;
      const auto& members = model.teams[info.team].threads;
      auto m = std::find(members.begin(), members.end(), t.creator_thread);
      info.creator_index = m == members.end() ? 0 : static_cast<uint32_t>(m - members.begin());
    }
    info.generation = ++generation[t.creator_thread];
    const uint32_t ti = static_cast<uint32_t>(model.tasks.size());
    model.tasks.push_back(info);

    Slice c;
    c.kind = SliceKind::TaskCreate;
    c.region = b.region(SliceKind::TaskCreate, 0, "create task", t.codeptr);
    c.ref = ti;
    c.begin = c.end = to_ns(t.created);
    b.add(t.creator_thread, c);

    const uint32_t region = b.region(SliceKind::Task, static_cast<uint8_t>(info.untied), "task", t.codeptr);
    auto task_slice = [&](uint32_t thread, double begin, double end, bool completes) {
      Slice s;
      s.kind = SliceKind::Task;
      s.region = region;
      s.ref = ti;
      s.begin = to_ns(begin);
      s.end = to_ns(end);
      s.flags = completes ? kSliceCompletesTask : 0;
      b.add(thread, s);
    };
    if (t.fragments.empty()) {
      if (info.completed) task_slice(t.creator_thread, t.completed, t.completed, true);
      continue;
    }
    size_t last = 0;
    for (size_t k = 1; k < t.fragments.size(); ++k)
      if (t.fragments[k].end >= t.fragments[last].end) last = k;
    if (info.untied) {
      for (size_t k = 0; k < t.fragments.size(); ++k)
        task_slice(t.fragments[k].thread, t.fragments[k].begin, t.fragments[k].end, info.completed && k == last);
      continue;
    }
    std::map<uint32_t, std::pair<double, double>> span;  // thread → first start, last end
    for (const TaskFragment& f : t.fragments) {
      auto [it, inserted] = span.try_emplace(f.thread, f.begin, f.end);
      if (!inserted) {
        it->second.first = std::min(it->second.first, f.begin);
        it->second.second = std::max(it->second.second, f.end);
      }
    }
    for (const auto& [thread, be] : span)
      task_slice(thread, be.first, be.second, info.completed && thread == t.fragments[last].thread);
  }
  release(timeline.tasks);

  // Samples, by the place of the interrupted instruction (the address after it names it, as a
  // return address names its call).
  std::map<uint32_t, std::vector<report::TraceSample>> samples;
  {
    std::unordered_map<uint64_t, uint32_t> site_of;
    for (const CpuSample& s : timeline.samples) {
      auto [it, inserted] = site_of.try_emplace(s.pc, static_cast<uint32_t>(model.sample_sites.size()));
      if (inserted) model.sample_sites.push_back(name_of ? name_of(s.pc + 1, false) : Callsite{});
      samples[s.thread].push_back({to_ns(s.time), it->second});
      b.raw()[s.thread];
    }
    for (auto& [thread, list] : samples)
      std::stable_sort(list.begin(), list.end(), [](const auto& x, const auto& y) { return x.time < y.time; });
    model.sample_period_ns = to_ns(timeline.sample_period_s);
  }
  release(timeline.samples);

  for (auto& [thread, slices] : b.raw()) {
    model.clamped += nest(slices);
    for (const Slice& s : slices) model.end = std::max(model.end, s.end);
    model.threads.push_back(ThreadTrack{thread, std::move(slices), std::move(samples[thread])});
  }
  return model;
}

}  // namespace ompscope::analysis
