#include "analysis/constructs.h"

#include <omp-tools.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <tuple>
#include <map>

#include "common/scratch.h"
#include "common/sort_runs.h"

namespace ompscope::analysis {
namespace {

using report::ConstructKind;

ConstructKind work_kind(uint8_t work) {
  switch (work) {
    case kWorkMasked: return ConstructKind::kMasked;
    case ompt_work_sections: return ConstructKind::kSections;
    case ompt_work_single_executor:
    case ompt_work_single_other: return ConstructKind::kSingle;
    case ompt_work_workshare: return ConstructKind::kWorkshare;
    case ompt_work_distribute: return ConstructKind::kDistribute;
    case ompt_work_taskloop: return ConstructKind::kTaskloop;
    case 8: return ConstructKind::kScope;  // ompt_work_scope (OpenMP 5.1)
    default: return ConstructKind::kLoop;  // ompt_work_loop and OpenMP 5.2's loop_static, _dynamic, _guided, _other
  }
}

// A worksharing construct that ends with an implicit barrier: the wait there is its own.
bool ends_in_barrier(uint8_t work) { return work != kWorkMasked && work != ompt_work_taskloop; }

bool is_barrier(const SyncVisit& v) { return v.kind == SyncKind::Barrier || v.kind == SyncKind::JoinBarrier; }

int node_of(ConstructTree& tree, int parent, ConstructKind kind, uint64_t codeptr, Symbolizer& symbols) {
  const bool join = kind == ConstructKind::kJoinBarrier;
  const auto address_key = std::make_tuple(parent, kind, join ? 0 : codeptr);
  // Runs of one construct (the tasks of one site, a lock in a loop) ask for the same node in turn.
  if (tree.last_node >= 0 && tree.last_address == address_key) return tree.last_node;
  tree.last_address = address_key;
  if (auto it = tree.by_address.find(address_key); it != tree.by_address.end()) return tree.last_node = it->second;
  SourceLocation where;
  if (!join && codeptr) where = symbols.resolve_call(codeptr);
  // Tasks without a creation site: a batch of sampled-out tasks (its record counts them, it does
  // not say where they were created). They are not the construct they ran under (BOTS health's
  // light tasks read "the tasks created at" its taskwait's line), so they get no place.
  const bool unknown_task = !codeptr && kind == ConstructKind::kTask;
  if (unknown_task) where.function = kUnrecordedTaskSite;
  // A compiler-made call (clang's barrier that ends a single) can sit on line 0: it is part of
  // the construct it belongs to, so it takes that one's place.
  if (!unknown_task && where.line == 0 && parent >= 0 && !tree.nodes[parent].where.file.empty())
    where = tree.nodes[parent].where;
  // A call the body tail-called returns into the runtime: it is the body's, at its directive.
  if (!unknown_task && !join && where.in_runtime && parent < 0 && !tree.body_where.file.empty())
    where = tree.body_where;
  std::string place;
  if (join)
    place = "";
  else if (!where.file.empty())
    place = fmt::format(" {}:{}", where.file, where.line);
  else if (!where.module.empty())
    place = fmt::format(" {}+0x{:x}", where.module, where.module_offset);
  else
    place = fmt::format(" 0x{:x}", codeptr);
  // Recursion folds: a construct met again inside itself (the taskwait of a recursive task
  // function, run inside an outer taskwait at the same line) is its outer node, as a profile
  // folds a recursive call. Without this, a tree of tasks 20 levels deep became a path 40
  // constructs deep per recorded task (fib at 2 threads: 12 000 nodes, a 21 MB report).
  const std::string name = "/" + std::string(to_string(kind)) + place;
  for (int a = parent; a >= 0; a = tree.nodes[a].parent) {
    const std::string& ancestor = tree.nodes[a].path;
    if (ancestor.size() >= name.size() && ancestor.compare(ancestor.size() - name.size(), name.size(), name) == 0) {
      tree.by_address.emplace(address_key, a);
      return tree.last_node = a;
    }
  }
  // Two addresses at one line (a directive the compiler duplicated) are one construct.
  std::string path = (parent >= 0 ? tree.nodes[parent].path : std::string()) + name;
  if (auto it = tree.by_path.find(path); it != tree.by_path.end()) {
    tree.by_address.emplace(address_key, it->second);
    return tree.last_node = it->second;
  }
  const int index = static_cast<int>(tree.nodes.size());
  ConstructRun& c = tree.nodes.emplace_back();
  c.parent = parent;
  c.path = std::move(path);
  c.kind = kind;
  c.where = std::move(where);
  tree.by_address.emplace(address_key, index);
  tree.by_path.emplace(c.path, index);
  return tree.last_node = index;
}

// One thing a thread did in its part, swept in order to place it in the construct tree. What it
// is, `type` says, and with it which pointer of each union is set: 56 bytes where a pointer per
// kind took 96, and a part holds one per barrier visit and task fragment (a thread's 100 000
// visits in many_barriers, 300 000 visits and fragments in a recursive tree of tasks).
struct Item {
  double begin = 0;
  double end = 0;
  double duration = 0;   // charged time (a lock's scaled by lock sampling)
  union {
    const WorkSpan* work = nullptr;
    const SyncVisit* sync;
    const TaskFragment* fragment;
    const LockAcquisition* lock;
  };
  union {
    const WorkSpan* charged_to = nullptr;  // a Sync: the worksharing construct its barrier ends
    const TaskInstance* task;              // a Fragment: its task
  };
  uint32_t task_position = 0;  // a Fragment: of `task` in the region's tasks
  int node = -1;
  enum Type : uint8_t { Work, Sync, Fragment, Lock } type = Work;
};
static_assert(sizeof(Item) == 56);

// One call's working lists, kept by its thread from call to call: made anew, they were some 30
// allocations an instance, 12 M for a loop log's 416 667 instances. They keep the room the
// largest instance took.
struct InstanceScratch {
  std::vector<double> visits;
  std::vector<std::pair<uint32_t, uint32_t>> parts_of_thread;  // (log thread, part), sorted
  std::vector<std::vector<const WorkSpan*>> work_of;
  std::vector<std::vector<std::pair<size_t, const TaskFragment*>>> fragments_of;
  std::vector<std::vector<const LockAcquisition*>> locks_of;
  std::vector<const WorkSpan*> charged, shared;
  std::array<std::vector<uint32_t>, 4> sorted;
  std::unordered_map<const WorkSpan*, int> work_node;
  std::vector<int> sync_node;
  std::vector<Item> open;
  // The places found last in each of ConstructInputs' groups (RecordsByKey::find): a hint left by
  // another run's inputs is only a wrong guess, checked before it is taken.
  uint32_t work_hint = SortedIds::kNone, locks_hint = SortedIds::kNone, tasks_hint = SortedIds::kNone;
};

// The first `n` lists of `lists`, emptied (the others are not looked at).
template <class Lists>
void empty_lists(Lists& lists, size_t n) {
  if (lists.size() < n) lists.resize(n);
  for (size_t i = 0; i < n; ++i) lists[i].clear();
}

}  // namespace

std::string construct_place(report::ConstructKind kind, const SourceLocation& where) {
  const std::string what(report::info(kind).phrase);
  if (kind == ConstructKind::kJoinBarrier || (where.file.empty() && where.function.empty())) return what;
  if (where.file.empty()) return fmt::format("{} in {}", what, where.function);
  const auto slash = where.file.rfind('/');
  return fmt::format("{} at {}:{}", what, slash == std::string::npos ? where.file : where.file.substr(slash + 1),
                     where.line);
}

report::ConstructKind mutex_construct_kind(uint8_t kind) {
  switch (kind) {
    case ompt_mutex_nest_lock:
    case ompt_mutex_test_nest_lock: return ConstructKind::kNestLock;
    case ompt_mutex_critical: return ConstructKind::kCritical;
    case ompt_mutex_atomic: return ConstructKind::kAtomic;
    case ompt_mutex_ordered: return ConstructKind::kOrdered;
    default: return ConstructKind::kLock;
  }
}

ConstructInputs::ConstructInputs(const Timeline& timeline)
    : work(timeline.work, [](const WorkSpan& w) { return w.parallel_id; }, true),
      locks(timeline.locks, [](const LockAcquisition& a) { return a.parallel_id; }, true),
      lock_correction(timeline.lock_correction),
      tasks(timeline.tasks, [](const TaskInstance& t) { return t.parallel_id; }, false) {
  for (const CpuSample& s : timeline.samples) samples[s.thread].push_back(&s);
  for (auto& [thread, list] : samples)
    std::stable_sort(list.begin(), list.end(), [](const CpuSample* a, const CpuSample* b) { return a->time < b->time; });
}

std::optional<std::vector<int>> add_instance_constructs(ConstructTree& tree, const RegionInstance& inst,
                                                        const ConstructInputs& inputs, Symbolizer& symbols,
                                                        DescribedSamples& described) {
  if (inst.light || inst.threads.empty()) return std::nullopt;
  if (tree.body_where.file.empty())
    tree.body_where = inst.body ? symbols.resolve_body(inst.body) : symbols.resolve_call(inst.codeptr);
  const double team = static_cast<double>(inst.threads.size());
  tree.recorded_time_s += inst.end - inst.begin;
  double outside = team * (inst.end - inst.begin);  // thread time, less what constructs take
  const size_t team_size = inst.threads.size();
  thread_local InstanceScratch scratch;
  std::vector<double>& visits = scratch.visits;  // team constructs: [node × team + thread position] → visits
  visits.clear();
  const auto find = [](const auto& map, uint32_t id) -> decltype(&map.begin()->second) {
    auto it = map.find(id);
    return it == map.end() ? nullptr : &it->second;
  };
  const auto work = inputs.work.find(inst.parallel_id, scratch.work_hint);
  const auto locks = inputs.locks.find(inst.parallel_id, scratch.locks_hint);
  const auto tasks = inputs.tasks.find(inst.parallel_id, scratch.tasks_hint);
  std::vector<int> barrier_nodes;  // the first thread's barriers, in order: their construct (-1: none)
  std::vector<int> task_node(tasks.size(), -1);  // by position in tasks
  // Where the instance's sampled-out tasks were created: a recorded creation stands for itself and
  // the unrecorded ones at its site before it (adaptive sampling), so the unrecorded creations per
  // site are exact. A batch of light tasks (whose record does not say where they were created) is
  // shared among those sites by their counts, largest first: no task time is left without a site.
  std::vector<std::pair<uint64_t, double>> unrecorded_sites;
  double unrecorded_total = 0;
  if (!tasks.empty()) {
    std::map<uint64_t, double> by_site, recorded;
    for (const TaskInstance* t : tasks) {
      if (t->light) continue;
      recorded[t->codeptr] += 1;
      if (t->weight > 1) by_site[t->codeptr] += t->weight - 1;
    }
    // In a recursive tree the light tasks are created by light tasks, which count no creation
    // per site: they are shared among the sites of the recorded tasks, by their counts.
    if (by_site.empty()) by_site = std::move(recorded);
    unrecorded_sites.assign(by_site.begin(), by_site.end());
    std::stable_sort(unrecorded_sites.begin(), unrecorded_sites.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    for (const auto& [code, n] : unrecorded_sites) unrecorded_total += n;
  }


  // Each part's worksharing constructs, task fragments and lock acquisitions, gathered in one pass
  // over the instance's (a pass per part was the team's size times the tasks: a million tasks on
  // 64 threads), in their order.
  std::vector<std::pair<uint32_t, uint32_t>>& parts_of_thread = scratch.parts_of_thread;
  parts_of_thread.clear();
  for (size_t p = 0; p < team_size; ++p) parts_of_thread.emplace_back(inst.threads[p].thread, static_cast<uint32_t>(p));
  std::sort(parts_of_thread.begin(), parts_of_thread.end());
  const auto for_parts_of = [&](uint32_t thread, auto&& add) {
    for (auto it = std::lower_bound(parts_of_thread.begin(), parts_of_thread.end(), std::pair<uint32_t, uint32_t>{thread, 0});
         it != parts_of_thread.end() && it->first == thread; ++it)
      add(size_t{it->second});
  };
  auto& work_of = scratch.work_of;
  auto& fragments_of = scratch.fragments_of;
  auto& locks_of = scratch.locks_of;
  empty_lists(work_of, team_size);
  empty_lists(fragments_of, team_size);
  empty_lists(locks_of, team_size);
  for (const WorkSpan* w : work) for_parts_of(w->thread, [&](size_t p) { work_of[p].push_back(w); });
  for (size_t k = 0; k < tasks.size(); ++k)
    for (const TaskFragment& f : tasks[k]->fragments)
      for_parts_of(f.thread, [&](size_t p) { fragments_of[p].emplace_back(k, &f); });
  for (const LockAcquisition* a : locks) for_parts_of(a->thread, [&](size_t p) { locks_of[p].push_back(a); });

  std::vector<const WorkSpan*>& charged = scratch.charged;  // each visit's worksharing construct (its barrier's owner), by place
  std::array<std::vector<uint32_t>, 4>& sorted = scratch.sorted;  // each kind's items by sweep order, where not in it already
  for (const ThreadInRegion& part : inst.threads) {
    const size_t part_at = static_cast<size_t>(&part - inst.threads.data());
    const std::vector<const WorkSpan*>& part_work = work_of[part_at];
    const std::vector<std::pair<size_t, const TaskFragment*>>& part_fragments = fragments_of[part_at];
    const std::vector<const LockAcquisition*>& part_locks = locks_of[part_at];
    std::vector<const WorkSpan*>& shared = scratch.shared;  // this thread's worksharing constructs, in order of their ends
    shared.clear();
    for (const WorkSpan* w : part_work)
      if (ends_in_barrier(w->work)) shared.push_back(w);
    std::sort(shared.begin(), shared.end(), [](const WorkSpan* a, const WorkSpan* b) { return a->end < b->end; });
    size_t unclaimed = 0;  // the worksharing constructs before it are owned by an earlier barrier
    const WorkSpan* owner_before = nullptr;  // of the thread's previous barrier
    const auto same_line = [&symbols](uint64_t a, uint64_t b) {
      const SourceLocation& x = symbols.resolve_call(a);
      const SourceLocation& y = symbols.resolve_call(b);
      return x.line > 0 && x.line == y.line && x.file == y.file;
    };
    charged.assign(part.syncs.size(), nullptr);
    for (size_t k = 0; k < part.syncs.size(); ++k) {
      const SyncVisit& v = part.syncs[k];
      if (!is_barrier(v) || v.nested || v.task != 0) continue;
      // The last worksharing construct that ended since the thread's previous barrier owns this one.
      while (unclaimed < shared.size() && shared[unclaimed]->end <= v.arrive) charged[k] = shared[unclaimed++];
      // A second barrier at the construct's own line with none between (clang ends a loop with a
      // reduction in two) is the construct's too.
      if (!charged[k] && owner_before && v.kind == SyncKind::Barrier && same_line(v.codeptr, owner_before->codeptr))
        charged[k] = owner_before;
      owner_before = charged[k];
    }
    // The part's items, of four kinds (worksharing constructs, visits, task fragments, lock
    // acquisitions), each kind in the order gathered: its place in it, and each item's span.
    constexpr size_t kKinds = 4;
    const std::array<size_t, kKinds> kind_size{part_work.size(), part.syncs.size(), part_fragments.size(), part_locks.size()};
    // A kind is its items' Item::Type (Work, Sync, Fragment, Lock: the order they were gathered in).
    const auto span_of = [&](size_t kind, size_t at) -> std::pair<double, double> {
      switch (static_cast<Item::Type>(kind)) {
        case Item::Work: return {part_work[at]->begin, part_work[at]->end};
        case Item::Sync: return {part.syncs[at].arrive, part.syncs[at].depart};
        case Item::Fragment: return {part_fragments[at].second->begin, part_fragments[at].second->end};
        case Item::Lock: break;
      }
      return {part_locks[at]->request, std::max(part_locks[at]->request, part_locks[at]->released)};
    };
    const auto item_of = [&](size_t kind, size_t at) {
      Item i;
      std::tie(i.begin, i.end) = span_of(kind, at);
      i.duration = i.end - i.begin;
      i.type = static_cast<Item::Type>(kind);
      switch (i.type) {
        case Item::Work: i.work = part_work[at]; break;
        case Item::Sync:
          i.sync = &part.syncs[at];
          i.charged_to = charged[at];
          break;
        case Item::Fragment:
          i.task_position = static_cast<uint32_t>(part_fragments[at].first);
          i.task = tasks[part_fragments[at].first];
          i.fragment = part_fragments[at].second;
          break;
        case Item::Lock:
          i.lock = part_locks[at];
          i.duration = (i.lock->wait(inputs.lock_correction) + i.lock->hold(inputs.lock_correction)) * i.lock->scale;
          break;
      }
      return i;
    };
    // Outer before inner: by begin, then the longer first, then in the order gathered (the kinds in
    // the order above, each in its own order). Each kind's items mostly come in that order already
    // (visits that did not nest, locks by request): a kind is sorted, by its places, only where it
    // is not; then the four are merged as the sweep takes them, each item made when it is taken
    // and held only while it is open. All of a part's items were held before, 56 bytes each and a
    // 24-byte key to sort them by: 8 of the 21 MB a region of 100 000 barriers per thread peaked at.
    const auto outer_first = [](const std::pair<double, double>& a, const std::pair<double, double>& b) {
      if (a.first != b.first) return a.first < b.first;
      return a.second > b.second;
    };
    for (size_t kind = 0; kind < kKinds; ++kind) {
      sorted[kind].clear();
      bool in_order = true;
      for (size_t at = 1; at < kind_size[kind] && in_order; ++at)
        in_order = !outer_first(span_of(kind, at), span_of(kind, at - 1));
      if (in_order) continue;
      sorted[kind].resize(kind_size[kind]);
      for (size_t at = 0; at < kind_size[kind]; ++at) sorted[kind][at] = static_cast<uint32_t>(at);
      // A thread's task fragments come task by task in creation order: runs of the tasks it ran one
      // after another (BOTS health: about 20 fragments a run), merged rather than sorted again.
      stable_sort_runs(sorted[kind].begin(), sorted[kind].end(),
                       [&](uint32_t a, uint32_t b) { return outer_first(span_of(kind, a), span_of(kind, b)); });
    }
    std::array<size_t, kKinds> taken{};  // each kind's items swept so far
    const auto place = [&](size_t kind) { return sorted[kind].empty() ? taken[kind] : sorted[kind][taken[kind]]; };
    // The next item in sweep order into `out`; false when every one was taken. Between kinds, the
    // earlier kind first where two spans are equal, as its items were gathered first.
    const auto next_item = [&](Item& out) {
      size_t best = kKinds;
      std::pair<double, double> best_span;
      for (size_t kind = 0; kind < kKinds; ++kind) {
        if (taken[kind] == kind_size[kind]) continue;
        const std::pair<double, double> span = span_of(kind, place(kind));
        if (best == kKinds || outer_first(span, best_span)) best = kind, best_span = span;
      }
      if (best == kKinds) return false;
      out = item_of(best, place(best));
      ++taken[best];
      return true;
    };
    std::unordered_map<const WorkSpan*, int>& work_node = scratch.work_node;
    work_node.clear();
    // Each of the part's visits' construct (-1: none), by its place in part.syncs: a hash map of
    // them allocated a node per visit (a region of 100 000 barriers per thread).
    std::vector<int>& sync_node = scratch.sync_node;
    sync_node.assign(part.syncs.size(), -1);
    const auto sync_index = [&part](const SyncVisit& v) { return static_cast<size_t>(&v - part.syncs.data()); };
    std::vector<Item>& open = scratch.open;  // the items open at the one swept, outer first (held by value: made as taken)
    open.clear();
    size_t open_after_drop = 0;  // open's size when its ended items were last dropped
    // The thread's samples in its part, each given to the innermost construct open at its time
    // as the items are swept in order (the region's own code where none is).
    const std::vector<const CpuSample*>* thread_samples = find(inputs.samples, part.thread);
    // This part's runtime samples outside waits, as charged (the part, the nodes, the functions),
    // until the lock operations sampling left unrecorded take theirs back (below).
    double part_runtime = 0;
    std::vector<std::pair<int, double>> runtime_nodes;
    std::vector<std::pair<double*, double>> runtime_functions;
    auto next_sample = thread_samples ? std::lower_bound(thread_samples->begin(), thread_samples->end(), part.start,
                                                         [](const CpuSample* s, double t) { return s->time < t; })
                                      : std::vector<const CpuSample*>::const_iterator{};
    const auto samples_before = [&](double until) {
      if (!thread_samples) return;
      for (; next_sample != thread_samples->end() && (*next_sample)->time < until && (*next_sample)->time <= part.end;
           ++next_sample) {
        const double t = (*next_sample)->time;
        const DescribedSample& sample = described.of(**next_sample);
        const auto owner = std::find_if(open.rbegin(), open.rend(),
                                        [t](const Item& o) { return o.end > t && o.begin <= t && o.node >= 0; });
        if (owner != open.rend()) add_sample(tree.nodes[owner->node].samples, sample);
        if (!sample.in_runtime && !sample.inline_flush) continue;
        // The runtime's time outside waits: the innermost item open at the sample is no barrier
        // visit (a loop's own barrier is charged to the loop: its node says nothing) and no lock
        // request still waiting. A flush gcc inlined (a fence at the directive's line) is the
        // runtime's operation in the program's code: a thread spinning on it waits as on
        // __kmpc_flush (NPB LU's wait built with gcc).
        // A lock held is the lock's time too (its release runs in the runtime): the team's work
        // leaves it out (team_work.h), and so does the runtime's work beside it.
        const auto innermost = std::find_if(open.rbegin(), open.rend(), [t](const Item& o) { return o.end > t && o.begin <= t; });
        const bool waiting = innermost != open.rend() && (innermost->type == Item::Sync || innermost->type == Item::Lock);
        if (waiting) continue;
        const double s = sample.line.cpu_s;
        if (tree.runtime_work_s.size() <= part.index) tree.runtime_work_s.resize(part.index + 1);
        tree.runtime_work_s[part.index] += s;
        part_runtime += s;
        if (owner != open.rend()) {
          tree.nodes[owner->node].runtime_work_s += s;
          runtime_nodes.emplace_back(owner->node, s);
        }
        const size_t leaf = sample.folded.rfind(';');
        double& function = tree.runtime_work_functions[sample.inline_flush ? std::string(kInlineFlush)
                                                       : leaf == std::string::npos ? sample.folded
                                                                                   : sample.folded.substr(leaf + 1)];
        function += s;
        runtime_functions.emplace_back(&function, s);
      }
    };
    // Scaled lock times are estimates (docs/locks.md): the top-level ones are held below so that
    // this thread's top constructs take no more than its time in the instance, as its split is.
    double top_total = 0, top_locks = 0;
    std::vector<std::pair<int, double>> top_lock_nodes;  // (node, charged time) of top-level locks
    for (Item i; next_item(i);) {
      samples_before(i.begin);
      while (!open.empty() && open.back().end <= i.begin) open.pop_back();
      // An item that ended stays below one that began inside it and ends later (callbacks' times
      // a few ns apart: a task resumed before its taskwait's end was recorded). It is open to no
      // later item, so none of the sweeps below can pick it; dropped once they outnumber the
      // others, it no longer makes each sweep walk the thread's whole history (a task that
      // waited after each of 20 000 creations: quadratic, 1.5 s).
      if (open.size() > 2 * open_after_drop + 32) {
        std::erase_if(open, [&](const Item& o) { return o.end <= i.begin; });
        open_after_drop = open.size();
      }
      int parent = -1;
      for (auto o = open.rbegin(); o != open.rend(); ++o)
        if (o->end > i.begin) {
          parent = o->node;
          break;
        }
      const bool top = parent == -1;
      if (top) outside -= i.duration;  // what is charged to no construct stays outside: added back below
      int node = parent;
      bool team_construct = true;
      const Item* batch = nullptr;  // a light batch shared among the sites of unrecorded creations
      double moved = 0;             // its thread time charged to the other sites
      switch (i.type) {
        case Item::Work:
          node = node_of(tree, parent, work_kind(i.work->work), i.work->codeptr, symbols);
          work_node[i.work] = node;
          tree.nodes[node].iterations += i.work->iterations / team;  // every thread reports the loop's count
          break;
        case Item::Sync: {
          const SyncVisit& v = *i.sync;
          auto owner = i.charged_to ? work_node.find(i.charged_to) : work_node.end();
          if (owner != work_node.end()) {
            // The wait is the construct's; tasks run in it are shown under the barrier itself.
            tree.nodes[owner->second].time_s += i.duration / team;
            node = v.tasks > 0 ? node_of(tree, owner->second, ConstructKind::kBarrier, v.codeptr, symbols) : owner->second;
            if (v.tasks == 0) {
              i.node = sync_node[sync_index(v)] = node;
              open.push_back(i);
              continue;
            }
          } else if (v.kind == SyncKind::JoinBarrier) {
            if (v.tasks > 0) node = node_of(tree, parent, ConstructKind::kJoinBarrier, 0, symbols);
          } else if (v.kind == SyncKind::Barrier) {
            node = node_of(tree, parent, ConstructKind::kBarrier, v.codeptr, symbols);
          } else if (v.kind == SyncKind::Taskwait) {
            node = node_of(tree, parent, ConstructKind::kTaskwait, v.codeptr, symbols);
          } else if (v.kind == SyncKind::Taskgroup) {
            node = node_of(tree, parent, ConstructKind::kTaskgroup, v.codeptr, symbols);
          }
          sync_node[sync_index(v)] = node == parent ? -1 : node;
          break;
        }
        case Item::Fragment: {
          const bool shared = i.task->light && unrecorded_total > 0;
          // A task resumed after a taskwait of its own stays where its first fragment ran.
          node = task_node[i.task_position];
          if (node < 0)
            node = task_node[i.task_position] =
                node_of(tree, parent, ConstructKind::kTask, shared ? unrecorded_sites.front().first : i.task->codeptr, symbols);
          team_construct = false;
          const bool first = i.fragment == &i.task->fragments.front();
          const double count = static_cast<double>(i.task->count());
          if (!shared) {
            if (first) tree.nodes[node].instances += count;
            break;
          }
          // The batch's other sites get their shares where its time is charged (below).
          if (first) tree.nodes[node].instances += count * unrecorded_sites.front().second / unrecorded_total;
          batch = &i;
          break;
        }
        case Item::Lock:
          node = node_of(tree, parent, mutex_construct_kind(i.lock->mutex_kind), i.lock->codeptr, symbols);
          team_construct = false;
          tree.nodes[node].instances += i.lock->scale;
          tree.nodes[node].acquisitions.push_back(i.lock);
          break;
      }
      // A folded recursion (node_of) whose outer visit is still open on this thread: its time
      // is inside that visit's already.
      bool inside_itself = false;
      if (node != parent)
        for (auto o = open.rbegin(); o != open.rend() && !inside_itself; ++o) inside_itself = o->node == node && o->end > i.begin;
      if (inside_itself) {
        // counted where the construct was entered first
      } else if (node != parent) {
        if (batch != nullptr)
          for (size_t k = 1; k < unrecorded_sites.size(); ++k) {
            const double share = unrecorded_sites[k].second / unrecorded_total;
            const int other = node_of(tree, parent, ConstructKind::kTask, unrecorded_sites[k].first, symbols);
            tree.nodes[other].time_s += i.duration * share / team;
            if (i.fragment == &i.task->fragments.front())
              tree.nodes[other].instances += static_cast<double>(i.task->count()) * share;
            moved += i.duration * share;
          }
        tree.nodes[node].time_s += (i.duration - moved) / team;
        if (team_construct) {
          const size_t at = static_cast<size_t>(node) * team_size + static_cast<size_t>(&part - inst.threads.data());
          if (visits.size() <= at) visits.resize((static_cast<size_t>(node) + 1) * team_size * 2);
          visits[at] += 1;
        }
        if (top) {
          top_total += i.duration;
          if (i.type == Item::Lock) top_locks += i.duration, top_lock_nodes.emplace_back(node, i.duration);
        }
      } else if (top) {
        outside += i.duration;  // in no construct: the region's own code
      }
      i.node = node;
      open.push_back(i);
    }
    samples_before(part.end + 1);
    // The lock operations sampling left unrecorded (docs/locks.md) ran at no item: their samples
    // read as the runtime's work outside waits, while their time, estimated from the recorded
    // ones, is the locks' (the team's work leaves it out). lock_per_item at 1 thread: 858 ms of
    // such samples in an 818 ms region, nearly all acquiring and releasing sampled-out locks, and
    // their growth to 2 threads read as threads spinning in the runtime (work_inflation, above
    // lock_overhead). As much of the part's runtime work as that time is taken back, shared in
    // proportion to what was charged.
    double unrecorded_locks = 0;
    for (const LockAcquisition* a : locks_of[part_at])
      unrecorded_locks += std::max(0.0, (a->wait(inputs.lock_correction) + a->hold(inputs.lock_correction)) * a->scale -
                                            (std::max(a->request, a->released) - a->request));
    if (part_runtime > 0 && unrecorded_locks > 0) {
      const double taken = std::min(1.0, unrecorded_locks / part_runtime);
      tree.runtime_work_s[part.index] -= taken * part_runtime;
      for (const auto& [node, s] : runtime_nodes) tree.nodes[node].runtime_work_s -= taken * s;
      for (const auto& [function, s] : runtime_functions) *function -= taken * s;
    }
    const double inside = std::clamp(part.end - part.start, 0.0, std::max(0.0, inst.end - inst.begin));
    if (top_total > inside && top_locks > 0) {
      const double cut = std::min(1.0, (top_total - inside) / top_locks);  // the share of the locks' time taken off
      for (const auto& [node, charged] : top_lock_nodes) {
        tree.nodes[node].time_s -= cut * charged / team;
        outside += cut * charged;
      }
    }
    if (&part == &inst.threads.front()) {
      barrier_nodes.reserve(part.syncs.size());  // grown by doubling, 100 000 barriers were copied a score of times
      for (const SyncVisit& v : part.syncs)
        if (is_barrier(v)) barrier_nodes.push_back(sync_node[sync_index(v)]);
    }
  }
  for (size_t node = 0; node * team_size < visits.size() && node < tree.nodes.size(); ++node)
    tree.nodes[node].instances +=
        *std::max_element(visits.begin() + node * team_size, visits.begin() + (node + 1) * team_size);
  tree.outside_s += outside / team;
  for (auto& l : scratch.work_of) give_back_if_large(l);
  for (auto& l : scratch.locks_of) give_back_if_large(l);
  for (auto& l : scratch.fragments_of) give_back_if_large(l);
  for (auto& l : scratch.sorted) give_back_if_large(l);
  give_back_if_large(scratch.visits);
  give_back_if_large(scratch.charged);
  give_back_if_large(scratch.shared);
  give_back_if_large(scratch.sync_node);
  give_back_if_large(scratch.open);
  return barrier_nodes;
}

void charge_barrier(ConstructTree& tree, int node, const BarrierPhases& one) {
  if (node < 0) {
    add_phases(tree.own_phases, one);
  } else if (one.join_s == 0) {
    add_phases(tree.nodes[node].phases, one);  // not copied: a copy allocated its CPU times
  } else {
    BarrierPhases p = one;
    p.join_s = 0;
    add_phases(tree.nodes[node].phases, p);
  }
}

void finish_constructs(ConstructTree& tree, double time_s, const LockRecordCorrection& lock_correction) {
  const double f = tree.recorded_time_s > 0 ? time_s / tree.recorded_time_s : 1;
  for (ConstructRun& c : tree.nodes) {
    c.locks = lock_costs(c.acquisitions, lock_correction);
    c.acquisitions.clear();
    if (f == 1) continue;
    c.time_s *= f;
    c.instances *= f;
    c.iterations *= f;
    // Its barriers' phases too: a construct's hint names the figures its cause's gain is measured
    // by (a loop's 13.5 ms of waits beside its 29.5 ms gain, recorded in 1160 of 2600 instances).
    c.phases = c.phases * f;
    scale_lock_costs(c.locks, f);
  }
  tree.own_phases = tree.own_phases * f;
  tree.outside_s *= f;
  tree.by_address.clear();
  tree.by_path.clear();
}

}  // namespace ompscope::analysis
