#include "analysis/region_identity.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <vector>

#include "common/dense_index.h"
#include "common/sorted_ids.h"

namespace ompscope::analysis {

void identify_region_bodies(Timeline& timeline, const BodyEntryOf& body_entry_of,
                            const BodyEntryOf& tail_called_body, const PassedAtFork& passed_at_fork) {
  // Evidence per instance, in order of strength: its worksharing constructs' addresses, its
  // barriers' and waits', its implicit tasks' task constructs', its locks'. The first address that
  // has a body decides, so each kind is looked at only for the instances the kinds before it left
  // undecided: a loop's barrier 100 000 times per thread decided at its first visit (the visits
  // had been gathered into lists per instance, a hash lookup each, 4% of a barrier-heavy log's
  // analysis).
  std::unordered_map<uint64_t, uint64_t> entry_of;  // return address → body entry (0: none)
  const auto entry_at = [&](uint64_t address) {  // body_entry_of, asked once per address
    auto [e, inserted] = entry_of.try_emplace(address, 0);
    if (inserted) e->second = body_entry_of(address);
    return e->second;
  };
  // The instances still undecided, by the place of their parallel id (of two instances with one
  // id, the later's), found in order of begin from the place found last: a hash map of the
  // 416 667 instances of a loop log, each erased once decided, was a twelfth of its report's
  // time in user code (10 M events).
  const SortedIds ids = [&] {
    std::vector<uint32_t> all;
    all.reserve(timeline.regions.size());
    for (const RegionInstance& r : timeline.regions) all.push_back(r.parallel_id);
    return SortedIds(std::move(all));
  }();
  std::vector<RegionInstance*> undecided(ids.size(), nullptr);
  size_t undecided_count = 0;
  {
    uint32_t hint = SortedIds::kNone;
    for (RegionInstance& r : timeline.regions) {
      RegionInstance*& at = undecided[ids.find(r.parallel_id, hint)];
      undecided_count += at == nullptr;
      at = &r;
    }
  }
  uint32_t offer_hint = SortedIds::kNone;
  const auto offer = [&](uint32_t parallel_id, uint64_t address) {
    const uint32_t place = ids.find(parallel_id, offer_hint);
    if (place == SortedIds::kNone || undecided[place] == nullptr) return;
    if (const uint64_t entry = entry_at(address)) {
      undecided[place]->body = entry;
      undecided[place] = nullptr;
      --undecided_count;
    }
  };
  for (const WorkSpan& w : timeline.work)
    if (w.codeptr && w.parallel_id && undecided_count > 0) offer(w.parallel_id, w.codeptr);
  const auto body_of_visits = [&entry_at](const RegionInstance& r) -> uint64_t {
    uint64_t last = 0;  // an address right after itself was asked already
    for (const ThreadInRegion& p : r.threads)
      for (const SyncVisit& v : p.syncs) {
        if (!v.codeptr || v.task != 0 || v.kind == SyncKind::JoinBarrier || v.codeptr == last) continue;
        last = v.codeptr;
        if (const uint64_t entry = entry_at(v.codeptr)) return entry;
      }
    return 0;
  };
  {
    uint32_t hint = SortedIds::kNone;
    for (RegionInstance& r : timeline.regions) {
      RegionInstance*& at = undecided[ids.find(r.parallel_id, hint)];
      if (at != nullptr)
        if (const uint64_t entry = body_of_visits(r)) {
          r.body = entry;
          at = nullptr;
          --undecided_count;
        }
    }
  }
  if (undecided_count > 0 && !timeline.tasks.empty()) {
    // The undecided instances' implicit tasks as (instance, task) pairs in one flat index, built
    // only where there are tasks to look up: a set per instance took 92 MB of a loop log's 477 MB
    // peak (10 M events, 416 667 instances undecided, no task; 2026-12-04 (2)).
    struct PairHash {
      size_t operator()(uint64_t k) const {
        k = (k ^ (k >> 31)) * 0xBF58476D1CE4E5B9ull;
        return static_cast<size_t>(k ^ (k >> 29));
      }
    };
    const auto pair = [](uint32_t parallel_id, uint32_t task) { return uint64_t{parallel_id} << 32 | task; };
    DenseIndex<uint64_t, PairHash> implicit_tasks;
    for (uint32_t place = 0; place < undecided.size(); ++place)
      if (const RegionInstance* r = undecided[place])
        for (const ThreadInRegion& p : r->threads) implicit_tasks.add(pair(ids[place], p.implicit_task));
    for (const TaskInstance& t : timeline.tasks) {
      if (!t.codeptr || t.light || !t.parallel_id) continue;
      if (implicit_tasks.find(pair(t.parallel_id, t.parent)) != implicit_tasks.kNone) offer(t.parallel_id, t.codeptr);
    }
  }
  for (const LockAcquisition& a : timeline.locks)
    if (a.codeptr && a.parallel_id && undecided_count > 0) offer(a.parallel_id, a.codeptr);

  // Instances with no such evidence: the CPU-time samples taken on their threads while they ran,
  // outside the regions they forked, each sample's address and then its frames (innermost first),
  // where the forking function passes that body to a fork. A body that calls the runtime only at
  // its fork and join leaves no other trace: clang -O2 merged replicated_work's three forks into
  // one call, and at 1, 2 and 4 threads (an atomic reduction, no barrier inside) the region was
  // named at another branch's line (35 for 38) and split from the same region at 8 and 16 threads
  // (a tree reduction's barrier inside it). Without the fork's check a sample in a task's body
  // named fib_tasks_gcc's region after the task (GCC outlines both as "._omp_fn.").
  if (passed_at_fork && !timeline.samples.empty()) {
    std::unordered_map<uint32_t, std::vector<const CpuSample*>> by_thread;  // in order of time
    for (const CpuSample& s : timeline.samples) by_thread[s.thread].push_back(&s);
    for (auto& [thread, list] : by_thread)
      std::stable_sort(list.begin(), list.end(), [](const CpuSample* a, const CpuSample* b) { return a->time < b->time; });
    std::unordered_map<uint32_t, std::vector<std::pair<double, double>>> forked;  // by parent: its inner instances
    for (const RegionInstance& r : timeline.regions)
      if (r.parent_parallel_id) forked[r.parent_parallel_id].emplace_back(r.begin, r.end);
    std::map<std::pair<uint64_t, uint64_t>, bool> passed;  // (fork, body): asked once
    for (RegionInstance& r : timeline.regions) {
      if (r.body || !r.codeptr) continue;
      const auto inner = forked.find(r.parallel_id);
      const auto nested = [&](double t) {
        return inner != forked.end() && std::any_of(inner->second.begin(), inner->second.end(), [t](const auto& w) {
                 return t >= w.first && t <= w.second;
               });
      };
      const auto body_of = [&](uint64_t address) -> uint64_t {
        const uint64_t entry = entry_at(address);
        if (!entry) return uint64_t{0};
        auto [p, asked] = passed.try_emplace({r.codeptr, entry}, false);
        if (asked) p->second = passed_at_fork(r.codeptr, entry);
        return p->second ? entry : 0;
      };
      for (const ThreadInRegion& p : r.threads) {
        const auto list = by_thread.find(p.thread);
        if (list == by_thread.end()) continue;
        auto s = std::lower_bound(list->second.begin(), list->second.end(), r.begin,
                                  [](const CpuSample* a, double t) { return a->time < t; });
        for (; !r.body && s != list->second.end() && (*s)->time <= r.end; ++s) {
          if (nested((*s)->time)) continue;
          r.body = body_of((*s)->pc);
          for (size_t f = 0; !r.body && f < (*s)->frames.size(); ++f) r.body = body_of((*s)->frames[f]);
        }
        if (r.body) break;
      }
    }
  }

  // Instances with no evidence: the body of the nearest identified instance of their fork.
  std::unordered_map<uint64_t, std::vector<size_t>> by_fork;  // in order of begin
  for (size_t i = 0; i < timeline.regions.size(); ++i) by_fork[timeline.regions[i].codeptr].push_back(i);
  for (auto& [fork, indices] : by_fork) {
    uint64_t before = 0;
    std::vector<size_t> waiting;  // no identified instance before them yet
    for (size_t i : indices) {
      RegionInstance& r = timeline.regions[i];
      if (r.body) {
        before = r.body;
        for (size_t w : waiting) timeline.regions[w].body = r.body;
        waiting.clear();
      } else if (before) {
        r.body = before;
      } else {
        waiting.push_back(i);
      }
    }
  }

  // Still none: a fork the function holding the region tail-called (its return address is the
  // caller's), and a body that called no runtime entry point (only atomics inside).
  if (!tail_called_body) return;
  std::unordered_map<uint64_t, uint64_t> tail_body_of;  // fork return address → body (0: none)
  for (RegionInstance& r : timeline.regions) {
    if (r.body || !r.codeptr) continue;
    auto [e, inserted] = tail_body_of.try_emplace(r.codeptr, 0);
    if (inserted) e->second = tail_called_body(r.codeptr);
    r.body = e->second;
  }
}

}  // namespace ompscope::analysis
