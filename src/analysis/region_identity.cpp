#include "analysis/region_identity.h"

#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ompscope::analysis {

void identify_region_bodies(Timeline& timeline, const BodyEntryOf& body_entry_of,
                            const BodyEntryOf& tail_called_body) {
  // Evidence per instance, by parallel id, in order of strength. An address right after itself is
  // left out: the first address that has a body decides, so a repeat of one that had none decides
  // nothing (a loop's barrier 100 000 times per thread was 1.6 MB of the same address).
  std::unordered_map<uint32_t, std::vector<uint64_t>> evidence;
  const auto add = [&evidence](uint32_t parallel_id, uint64_t address) {
    std::vector<uint64_t>& list = evidence[parallel_id];
    if (list.empty() || list.back() != address) list.push_back(address);
  };
  std::unordered_map<uint32_t, std::unordered_set<uint32_t>> implicit_tasks;
  for (const WorkSpan& w : timeline.work)
    if (w.codeptr && w.parallel_id) add(w.parallel_id, w.codeptr);
  for (const RegionInstance& r : timeline.regions)
    for (const ThreadInRegion& p : r.threads) {
      implicit_tasks[r.parallel_id].insert(p.implicit_task);
      for (const SyncVisit& v : p.syncs)
        if (v.codeptr && v.task == 0 && v.kind != SyncKind::JoinBarrier) add(r.parallel_id, v.codeptr);
    }
  for (const TaskInstance& t : timeline.tasks)
    if (t.codeptr && !t.light && t.parallel_id && implicit_tasks[t.parallel_id].count(t.parent))
      add(t.parallel_id, t.codeptr);
  for (const LockAcquisition& a : timeline.locks)
    if (a.codeptr && a.parallel_id) add(a.parallel_id, a.codeptr);

  std::unordered_map<uint64_t, uint64_t> entry_of;  // return address → body entry (0: none)
  for (RegionInstance& r : timeline.regions) {
    auto it = evidence.find(r.parallel_id);
    if (it == evidence.end()) continue;
    for (uint64_t address : it->second) {
      auto [e, inserted] = entry_of.try_emplace(address, 0);
      if (inserted) e->second = body_entry_of(address);
      if (e->second) {
        r.body = e->second;
        break;
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
