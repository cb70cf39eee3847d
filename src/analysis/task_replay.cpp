#include "analysis/task_replay.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "common/side_by_side.h"

namespace ompscope::analysis {
namespace {

constexpr double kForever = std::numeric_limits<double>::infinity();
constexpr size_t kNone = static_cast<size_t>(-1);
// A replay's task and step fields are 32 bits: half the bytes a step of the replay pulls in from
// arrays of hundreds of thousands of tasks (merge_sort_tasks: the child's and the step's loads
// were 40% of the replay's time, cache misses). No graph holds 2^32 tasks.
constexpr uint32_t kNone32 = static_cast<uint32_t>(-1);

// One stretch of a task's own work and what ends it.
enum class StepEnd : uint8_t { Create, Taskwait, Taskgroup, Barrier, End };
struct Step {
  double work = 0;
  uint32_t child = kNone32;  // Create: the node created
  StepEnd end = StepEnd::End;
};

// A task's own work cut at its creations and waits, in the order it met them (as task_graph.cpp
// walks it: a creation before a wait at the same instant), appended to `out`.
void append_script(const TaskNodes& g, size_t node, std::vector<Step>& out) {
  const TaskNode& n = g.nodes[node];
  double at = -kForever;
  size_t child = 0, wait = 0;
  for (;;) {
    const bool has_child = child < n.children.size(), has_wait = wait < n.waits.size();
    if (!has_child && !has_wait) break;
    const TaskInstance* c = has_child ? g.nodes[n.children[child]].explicit_task : nullptr;
    if (has_child && (!has_wait || c->created <= n.waits[wait]->arrive)) {
      out.push_back({n.own_work.length_between(at, c->created), static_cast<uint32_t>(n.children[child]), StepEnd::Create});
      at = c->created;
      ++child;
      continue;
    }
    const SyncVisit& v = *n.waits[wait++];
    StepEnd end = StepEnd::End;
    switch (v.kind) {
      case SyncKind::Taskwait: end = StepEnd::Taskwait; break;
      case SyncKind::Taskgroup: end = StepEnd::Taskgroup; break;
      case SyncKind::Barrier:
      case SyncKind::JoinBarrier: end = n.implicit_part ? StepEnd::Barrier : StepEnd::End; break;
      case SyncKind::Other: break;
    }
    if (end == StepEnd::End) continue;  // a wait that joins nothing of the graph's
    out.push_back({n.own_work.length_between(at, v.arrive), kNone32, end});
    at = v.arrive;
  }
  out.push_back({n.own_work.length_between(at, kForever), kNone32, StepEnd::End});
}

struct Task {
  const Step* step = nullptr;     // its current step, into ReplayScripts::steps
  uint32_t parent = kNone32;
  uint32_t open_children = 0;     // created, body not complete (a taskwait joins them)
  uint32_t open_descendants = 0;  // created, body not complete, at any depth (a taskgroup joins them)
  uint32_t waiting_for = 0;       // predecessors not complete (created tasks only)
  uint32_t barrier = 0;           // implicit tasks: barriers passed
  bool created = false, complete = false, waiting = false;
};

}  // namespace

// What every replay of one instance shares, laid out flat (one array each, indexed by offsets:
// a replay walks hundreds of thousands of tasks nine times): each task's script, its parent, its
// predecessors and its dependents. Indices are 32 bits (replay_scripts refuses larger graphs).
struct ReplayScripts {
  size_t implicit_count = 0;          // the graph's implicit tasks (its first nodes)
  size_t nodes = 0;                   // the graph's nodes
  std::vector<Step> steps;            // node i's from step_begin[i]; node n's: an extra thread's implicit task
  std::vector<uint32_t> step_begin;
  std::vector<uint32_t> parent;
  std::vector<uint32_t> preds, pred_begin;            // node i's predecessors from pred_begin[i]
  std::vector<uint32_t> dependents, dependent_begin;  // and the nodes that depend on it
  bool taskgroups = false;  // any task waits in a taskgroup (descendants are then counted)
  // Any task has a predecessor. Without, a creation or a completion looks at no predecessor or
  // dependent: in a recursive tree of 240 000 tasks those two loads per task (each a cache miss)
  // were a quarter of the replay's time.
  bool dependences = false;
  // Each node's task as a replay starts: its first step and its parent (copied whole at each
  // count: filling them from step_begin and parent was an eighth of a recursive tree's replay).
  std::vector<Task> initial;
};

namespace {

// Into `out`, whose arrays are cleared and reused: a region repeated thousands of times has a
// small graph per instance, where allocating them anew was a third of the replay's time.
void scripts_of(const TaskNodes& g, ReplayScripts& out) {
  const size_t n = g.nodes.size();
  out.implicit_count = g.implicit_count;
  out.nodes = n;
  out.steps.clear();
  out.step_begin.clear();
  out.preds.clear();
  out.pred_begin.clear();
  out.taskgroups = false;
  out.parent.assign(n, kNone32);
  // At most a step per creation and wait and one more per node, and the extra thread's: sized
  // once (a recursive tree's million steps grown by doubling held up to twice them).
  size_t most = (n > 0 ? g.nodes[0].waits.size() : 0) + 1;
  for (const TaskNode& node : g.nodes) most += node.children.size() + node.waits.size() + 1;
  out.steps.reserve(most);
  out.step_begin.reserve(n + 1);
  out.pred_begin.reserve(n + 1);
  for (size_t i = 0; i < n; ++i) {
    out.step_begin.push_back(static_cast<uint32_t>(out.steps.size()));
    const size_t first = out.steps.size();
    append_script(g, i, out.steps);
    for (size_t k = first; k < out.steps.size(); ++k) out.taskgroups = out.taskgroups || out.steps[k].end == StepEnd::Taskgroup;
    out.pred_begin.push_back(static_cast<uint32_t>(out.preds.size()));
    for (const DependenceEdge& e : g.nodes[i].after) out.preds.push_back(e.from);
    for (uint32_t c : g.nodes[i].children) out.parent[c] = static_cast<uint32_t>(i);
  }
  out.pred_begin.push_back(static_cast<uint32_t>(out.preds.size()));
  out.dependences = !out.preds.empty();
  // An extra thread's implicit task meets the barriers of the recorded ones, with no work.
  out.step_begin.push_back(static_cast<uint32_t>(out.steps.size()));
  for (size_t k = out.step_begin[0]; k < out.step_begin[1]; ++k)
    if (out.steps[k].end == StepEnd::Barrier) out.steps.push_back(Step{0, kNone32, StepEnd::Barrier});
  out.steps.push_back(Step{0, kNone32, StepEnd::End});
  out.initial.assign(n + 1, Task{});  // node n: the extra threads' implicit task
  for (size_t i = 0; i <= n; ++i) {
    out.initial[i].step = out.steps.data() + out.step_begin[i];
    out.initial[i].parent = i < n ? out.parent[i] : kNone32;
  }
  // Each node's dependents, read only where there are dependences (Replay::complete).
  out.dependents.clear();
  out.dependent_begin.clear();
  if (!out.dependences) return;
  out.dependent_begin.assign(n + 1, 0);
  for (uint32_t p : out.preds) ++out.dependent_begin[p + 1];
  for (size_t i = 0; i < n; ++i) out.dependent_begin[i + 1] += out.dependent_begin[i];
  out.dependents.resize(out.dependent_begin[n]);
  std::vector<uint32_t> filled(out.dependent_begin.begin(), out.dependent_begin.end() - 1);
  for (size_t i = 0; i < n; ++i)
    for (size_t k = out.pred_begin[i]; k < out.pred_begin[i + 1]; ++k)
      out.dependents[filled[out.preds[k]]++] = static_cast<uint32_t>(i);
}

// A thread's ready tasks: its owner takes the newest, a thief the oldest. Each task enters one
// queue once, so a vector and the index of its oldest entry do (std::deque allocates on
// construction, and a replay has a queue per thread).
struct ReadyQueue {
  std::vector<size_t> items;
  size_t head = 0;
  bool empty() const { return head == items.size(); }
  void push_back(size_t id) { items.push_back(id); }
  size_t pop_back() {
    const size_t id = items.back();
    items.pop_back();
    if (empty()) clear();
    return id;
  }
  size_t pop_front() {
    const size_t id = items[head++];
    if (empty()) clear();
    return id;
  }
  void clear() {
    items.clear();
    head = 0;
  }
};

// What a replay allocates, kept from one replay to the next: a region repeated thousands of times
// is replayed at each count for each instance, and its graphs are small (bench/analysis_stream.sh).
struct ReplayBuffers {
  std::vector<Task> tasks;
  std::vector<std::vector<size_t>> stacks;
  std::vector<ReadyQueue> queues;
  std::vector<double> step_end, step_body_end;
  std::vector<Step> running;  // by thread: the step its stretch runs (Replay::running_)
  std::vector<size_t> released, nonempty, candidates;
  std::vector<uint32_t> thread_of;  // 32 bits: one per task, in each replaying thread's buffers
  std::vector<std::pair<uint64_t, size_t>> idle;
  std::vector<uint64_t> idle_since;
  std::vector<std::pair<double, size_t>> ends;
  std::vector<bool> barrier_open;
};

class Replay {
 public:
  using End = std::pair<double, size_t>;  // a running stretch's end and its thread
  // (end, thread) ordered as std::pair's operator< does, spelled out: the pair's three-way
  // comparison of doubles, synthesised from <=>, was a tenth of a recursive tree's replay.
  // Bitwise, not short-circuit: the sifts' comparisons go either way unpredictably, and each
  // branch taken wrong was most of a comparison's cost at 256 threads.
  static bool earlier(const End& a, const End& b) {
    return (a.first < b.first) | ((a.first == b.first) & (a.second < b.second));
  }
  static bool later(const End& a, const End& b) { return earlier(b, a); }

  Replay(const ReplayScripts& scripts, int threads, double per_task_s, ReplayBuffers& buffers)
      : scripts_(scripts), per_task_(per_task_s), threads_(static_cast<size_t>(threads)),
        tasks_(buffers.tasks), stacks_(buffers.stacks), deques_(buffers.queues), step_end_(buffers.step_end),
        step_body_end_(buffers.step_body_end), running_(buffers.running),
        released_(buffers.released), idle_(buffers.idle), idle_since_(buffers.idle_since),
        candidates_(buffers.candidates), thread_of_(buffers.thread_of), nonempty_(buffers.nonempty),
        ends_(buffers.ends), barrier_open_(buffers.barrier_open) {
    const size_t recorded = scripts.implicit_count;
    // Nodes keep their indices; the extra threads' implicit tasks follow them.
    tasks_.assign(scripts.initial.begin(), scripts.initial.end() - 1);
    tasks_.resize(scripts.nodes + (threads_ - recorded), scripts.initial.back());
    if (stacks_.size() < threads_) stacks_.resize(threads_);
    if (deques_.size() < threads_) deques_.resize(threads_);
    for (size_t t = 0; t < threads_; ++t) {
      stacks_[t].clear();
      deques_[t].clear();
    }
    step_end_.assign(threads_, kForever);
    step_body_end_.assign(threads_, 0);
    running_.assign(threads_, Step{});
    released_.clear();
    idle_.clear();
    idle_since_.assign(threads_, 0);
    candidates_.clear();
    thread_of_.assign(tasks_.size(), kNone32);
    nonempty_.clear();
    ends_.clear();
    barrier_open_.clear();
    for (size_t t = 0; t < threads_; ++t) {
      const size_t implicit = t < recorded ? t : scripts.nodes + (t - recorded);
      tasks_[implicit].created = true;
      stacks_[t].push_back(implicit);
      thread_of_[implicit] = static_cast<uint32_t>(t);
      start_step(t, 0, 0);
    }
  }

  ReplayedTime run() {
    for (;;) {
      settle();
      // The next stretch to end (every running thread advances at the same rate), and every
      // other one that ends at the same instant.
      if (ends_.empty()) break;  // nothing runs: everything ended (or a wait nothing will meet)
      now_ = ends_.front().first;
      now_body_ = 0;
      while (!ends_.empty() && ends_.front().first <= now_) {
        const size_t t = ends_.front().second;
        now_body_ = std::max(now_body_, step_body_end_[t]);
        end_step(t);
        if (step_end_[t] == kForever) {
          std::pop_heap(ends_.begin(), ends_.end(), later);
          ends_.pop_back();
          become_idle(t);
        } else {
          replace_earliest({step_end_[t], t});  // its next stretch, begun at once
        }
      }
    }
    return {now_, now_body_};
  }

 private:
  // `body`: the tasks' own work along the chain of stretches that led to this start (each
  // stretch began where the one before it ended, or when what it waited for happened).
  void start_step(size_t thread, double extra, double body) {
    begin_stretch(thread, extra, body);
    ends_.emplace_back(step_end_[thread], thread);  // in place, as become_idle's entry
    std::push_heap(ends_.begin(), ends_.end(), later);
  }
  // The stretch's end, not yet in ends_: a thread that goes on at once from the stretch that just
  // ended takes that one's place at the heap's top (replace_earliest), one sift instead of a pop
  // and a push (a recursive tree's creations are most of its steps).
  void begin_stretch(size_t thread, double extra, double body) {
    const Step step = *tasks_[stacks_[thread].back()].step;
    running_[thread] = step;
    step_end_[thread] = now_ + step.work + extra;
    step_body_end_[thread] = body + step.work;
  }
  // ends_'s earliest entry replaced by `e`, sifted down. Each thread has one entry, so (end,
  // thread) orders them all and the replay takes them in the same order as by a pop and a push.
  void replace_earliest(End e) {
    const size_t n = ends_.size();
    size_t i = 0;
    for (size_t c = 1; c < n; c = 2 * i + 1) {
      if (c + 1 < n) c += earlier(ends_[c + 1], ends_[c]);
      if (!earlier(ends_[c], e)) break;
      ends_[i] = ends_[c];
      i = c;
    }
    ends_[i] = e;
  }

  // The stretch running on `thread` ended: what ends it happens.
  void end_step(size_t thread) {
    step_end_[thread] = kForever;
    const size_t id = stacks_[thread].back();
    Task& task = tasks_[id];
    const Step step = running_[thread];
    switch (step.end) {
      case StepEnd::Create: {
        Task& child = tasks_[step.child];
        child.created = true;
        ++outstanding_;
        ++task.open_children;
        if (scripts_.taskgroups)
          for (uint32_t a = static_cast<uint32_t>(id); a != kNone32; a = tasks_[a].parent) ++tasks_[a].open_descendants;
        if (scripts_.dependences)
          for (size_t k = scripts_.pred_begin[step.child]; k < scripts_.pred_begin[step.child + 1]; ++k)
            child.waiting_for += !tasks_[scripts_.preds[k]].complete;
        if (!scripts_.dependences || child.waiting_for == 0) push(thread, step.child);
        ++task.step;
        begin_stretch(thread, 0, step_body_end_[thread]);  // its own next stretch, at once (run)
        return;
      }
      case StepEnd::Taskwait:
      case StepEnd::Taskgroup:
        task.waiting = true;  // met already where its children are done: the thread, now idle, is looked at
        return;
      case StepEnd::Barrier:
        task.waiting = true;
        // Every implicit task has arrived at one more barrier: the waits there may be met.
        if (++arrived_ % threads_ == 0) barrier_wakeup_ = true;
        return;
      case StepEnd::End:
        complete(id);
        stacks_[thread].pop_back();
        return;
    }
  }

  void complete(size_t id) {
    Task& task = tasks_[id];
    task.complete = true;
    // The waits this completion may meet: its parent's taskwait, its ancestors' taskgroups, and
    // the barriers, once no created task is left.
    if (id >= scripts_.implicit_count && id < scripts_.nodes && --outstanding_ == 0) barrier_wakeup_ = true;
    if (task.parent != kNone32 && --tasks_[task.parent].open_children == 0) candidates_.push_back(thread_of_[task.parent]);
    if (scripts_.taskgroups)
      for (uint32_t a = task.parent; a != kNone32; a = tasks_[a].parent)
        if (--tasks_[a].open_descendants == 0) candidates_.push_back(thread_of_[a]);
    if (scripts_.dependences && id < scripts_.nodes)
      for (size_t k = scripts_.dependent_begin[id]; k < scripts_.dependent_begin[id + 1]; ++k) {
        const size_t d = scripts_.dependents[k];
        if (tasks_[d].created && --tasks_[d].waiting_for == 0) released_.push_back(d);
      }
  }

  // Whether a waiting task's wait is met.
  bool met(const Task& task) {
    switch (task.step->end) {
      case StepEnd::Taskwait: return task.open_children == 0;
      case StepEnd::Taskgroup: return task.open_descendants == 0;
      case StepEnd::Barrier: {
        // Open once every implicit task arrived and every task created before it completed; it
        // stays open for the threads that leave it later (the first ones out may create more).
        const size_t k = static_cast<size_t>(task.barrier);
        if (k < barrier_open_.size() && barrier_open_[k]) return true;
        if (arrived_ < threads_ * (k + 1) || outstanding_ != 0) return false;
        if (barrier_open_.size() <= k) barrier_open_.resize(k + 1, false);
        barrier_open_[k] = true;
        return true;
      }
      default: return true;
    }
  }

  void push(size_t thread, size_t id) {
    // Its first step is read when a thread takes it, most often at once (its creator's own newest):
    // fetched now, that load is no longer the replay's longest wait.
    __builtin_prefetch(tasks_[id].step);
    if (deques_[thread].empty()) nonempty_.push_back(thread);
    deques_[thread].push_back(id);
    ++ready_;
  }

  // A ready task for `thread`: its own newest, else the oldest of another thread's deque (the
  // deques that hold tasks taken in turn, as a thief picks a victim).
  size_t take(size_t thread) {
    if (ready_ == 0) return kNone;
    size_t id = kNone;
    if (!deques_[thread].empty()) {
      id = deques_[thread].pop_back();
    } else {
      while (id == kNone && !nonempty_.empty()) {
        next_victim_ %= nonempty_.size();
        ReadyQueue& victim = deques_[nonempty_[next_victim_]];
        if (victim.empty()) {  // emptied by its owner since: forget it
          nonempty_[next_victim_] = nonempty_.back();
          nonempty_.pop_back();
          continue;
        }
        id = victim.pop_front();
        ++next_victim_;
      }
    }
    if (id != kNone) --ready_;
    return id;
  }

  void become_idle(size_t thread) {
    idle_since_[thread] = ++idle_order_;
    // Built in place: a pair assembled on the stack and copied as one 16-byte load after two
    // 8-byte stores stalled on the store buffer (a fifth of the replay's own time, 10 M events).
    idle_.emplace_back(idle_order_, thread);
    ++idle_count_;
    candidates_.push_back(thread);
  }
  bool is_idle(size_t thread, uint64_t since) const {
    return step_end_[thread] == kForever && idle_since_[thread] == since;
  }

  // The idle thread resumes the task on top of its stack where it was running or its wait is met;
  // else, with `may_take`, starts a ready task. Whether it left the idle threads.
  bool wake(size_t thread, bool may_take) {
    std::vector<size_t>& stack = stacks_[thread];
    if (!stack.empty()) {
      Task& top = tasks_[stack.back()];
      if (!top.waiting) {  // back from a nested task to one that was running
        start_step(thread, 0, now_body_);
        return true;
      }
      if (met(top)) {
        if (top.step->end == StepEnd::Barrier) ++top.barrier;
        top.waiting = false;
        ++top.step;
        start_step(thread, 0, now_body_);
        return true;
      }
    }
    if (!may_take) return false;
    const size_t id = take(thread);
    if (id == kNone) return false;
    stack.push_back(id);
    thread_of_[id] = static_cast<uint32_t>(thread);
    start_step(thread, per_task_, now_body_);
    return true;
  }
  void wake_idle(size_t thread, bool may_take) {
    if (wake(thread, may_take)) --idle_count_;
  }

  // Every thread not running a stretch resumes its task, or starts a ready one, until none can:
  // the idle threads in the order they became idle, each resuming where it can and else taking a
  // ready task, while tasks are ready. After that only a thread whose wait something met since
  // (the candidates: threads just idle, a completion's parent and ancestors, every thread at a
  // barrier all have reached) can move: the others waited unmet before and nothing changed for
  // them. Looking at only those keeps a replay on 256 threads from visiting every idle thread at
  // each step (fine_tasks: 55% of its analysis).
  void settle() {
    // Tasks released by a predecessor's completion go to the deque of the thread that ran it,
    // as the runtimes do; here, to the first thread's, which any idle thread steals from.
    for (size_t d : released_) push(0, d);
    released_.clear();
    // The oldest idle threads first, while tasks are ready (each leaves: it resumes or takes one).
    for (; idle_head_ < idle_.size() && ready_ > 0; ++idle_head_)
      if (is_idle(idle_[idle_head_].second, idle_[idle_head_].first)) wake_idle(idle_[idle_head_].second, true);
    if (barrier_wakeup_)
      for (size_t i = idle_head_; i < idle_.size(); ++i) candidates_.push_back(idle_[i].second);
    for (size_t t : candidates_)
      if (step_end_[t] == kForever) wake_idle(t, false);
    candidates_.clear();
    barrier_wakeup_ = false;
    // Forget the entries of threads that left (or became idle again since, with a newer entry)
    // once they outnumber the idle threads, and those already passed once they are half of the
    // list: on two threads, each idle a moment and then taken at once, the passed ones were all
    // there was, and the list grew by one a task to the graph's size (3.9 MB a replaying thread
    // in a tree of 240 000 tasks).
    if (idle_.size() - idle_head_ > 2 * idle_count_ + 32 || idle_head_ > std::max<size_t>(32, idle_.size() / 2)) {
      size_t kept = 0;
      for (size_t i = idle_head_; i < idle_.size(); ++i)
        if (is_idle(idle_[i].second, idle_[i].first)) idle_[kept++] = idle_[i];
      idle_.resize(kept);
      idle_head_ = 0;
    }
  }

  const ReplayScripts& scripts_;
  double per_task_;
  size_t threads_;
  double now_ = 0;
  // Of now_, the tasks' own work along the chain that led to it: the largest of the stretches
  // ending at this instant (a thread resuming or starting here may follow any of them).
  double now_body_ = 0;
  std::vector<Task>& tasks_;
  std::vector<std::vector<size_t>>& stacks_;
  std::vector<ReadyQueue>& deques_;
  std::vector<double>& step_end_;
  std::vector<double>& step_body_end_;  // what step_end_ holds of the tasks' own work
  // The step each thread's stretch runs, copied where the stretch begins: what ends it is read
  // from here, not through the task's step pointer, a load that waited on the cache where 256
  // threads' stretches run at once (a fifth of a recursive tree's replay at 256 threads).
  std::vector<Step>& running_;
  std::vector<size_t>& released_;
  // The threads running no stretch, by when they became idle (an entry whose thread has left, or
  // became idle again since, is stale: idle_since_ holds each thread's latest).
  std::vector<std::pair<uint64_t, size_t>>& idle_;
  std::vector<uint64_t>& idle_since_;
  size_t idle_head_ = 0;   // idle_'s entries before it are all stale
  size_t idle_count_ = 0;  // idle threads (idle_'s entries that are not stale)
  uint64_t idle_order_ = 0;
  std::vector<size_t>& candidates_;  // threads whose wait may have been met since the last settle
  std::vector<uint32_t>& thread_of_;  // the thread each started task runs on (tied: it stays there)
  std::vector<size_t>& nonempty_;  // threads whose deque held a task when it was last looked at
  size_t next_victim_ = 0;
  size_t ready_ = 0;               // tasks in all deques
  bool barrier_wakeup_ = false;     // every implicit task reached a barrier, or the last created task completed
  std::vector<End>& ends_;         // running stretches, a heap by end (std::greater: earliest first)
  size_t outstanding_ = 0;  // explicit tasks created whose body has not completed
  size_t arrived_ = 0;      // barrier arrivals, all barriers together
  std::vector<bool>& barrier_open_;
};

}  // namespace

const ReplayScripts* replay_scripts(const TaskNodes& graph) {
  if (graph.implicit_count == 0 || graph.nodes.size() >= kNone32 / 2) return nullptr;  // 32-bit fields
  for (size_t i = graph.implicit_count; i < graph.nodes.size(); ++i)
    if (graph.nodes[i].explicit_task == nullptr || graph.nodes[i].explicit_task->light) return nullptr;
  thread_local ReplayScripts built;
  scripts_of(graph, built);
  if (built.steps.size() >= kNone32) return nullptr;
  return &built;
}

std::map<int, ReplayedTime> replay_instance(const ReplayScripts& scripts, const std::vector<int>& threads,
                                            double per_task_s, double extra_per_task_s, int workers) {
  std::map<int, ReplayedTime> out;
  // A thread more than the graph has tasks (implicit and explicit) finds nothing to run: every
  // count from the graph's width up is the replay at its width, replayed once.
  const size_t width = scripts.nodes;
  const auto replayed_as = [&](int t) -> std::optional<size_t> {  // the count replayed for t; none below the team
    if (t < 1 || static_cast<size_t>(t) < scripts.implicit_count) return std::nullopt;
    return std::min(static_cast<size_t>(t), width);
  };
  std::map<size_t, ReplayedTime> replayed;  // by the count replayed
  for (int t : threads)
    if (const auto count = replayed_as(t)) replayed.emplace(*count, ReplayedTime{});
  std::vector<std::pair<const size_t, ReplayedTime>*> todo;
  for (auto& entry : replayed) todo.push_back(&entry);
  // Each count's replay reads the scripts and writes only its own buffers and entry.
  const bool large = width - scripts.implicit_count >= kParallelReplayTasks;
  // Each thread's room for the largest count's tasks, held from its first replay of the instance:
  // grown count by count, a vector of 240 000 tasks was copied at each and held twice its tasks.
  const size_t most_tasks = todo.empty() ? 0 : scripts.nodes + todo.back()->first - std::min(todo.back()->first, scripts.implicit_count);
  side_by_side(todo.size(), large ? static_cast<size_t>(std::max(1, workers)) : 1, [&](size_t i) {
    thread_local ReplayBuffers buffers;
    buffers.tasks.reserve(most_tasks);
    buffers.thread_of.reserve(most_tasks);
    const size_t count = todo[i]->first;
    todo[i]->second =
        Replay(scripts, static_cast<int>(count), per_task_s + (count > scripts.implicit_count ? extra_per_task_s : 0.0), buffers)
            .run();
  });
  for (int t : threads)
    if (const auto count = replayed_as(t)) out[t] = replayed.at(*count);
  return out;
}

std::map<int, ReplayedTime> replay_instance(const TaskNodes& graph, const std::vector<int>& threads, double per_task_s,
                                            double extra_per_task_s, int workers) {
  const ReplayScripts* scripts = replay_scripts(graph);
  if (scripts == nullptr) return {};
  return replay_instance(*scripts, threads, per_task_s, extra_per_task_s, workers);
}

std::optional<double> replay_instance(const TaskNodes& graph, int threads, double per_task_s) {
  const std::map<int, ReplayedTime> one = replay_instance(graph, std::vector<int>{threads}, per_task_s);
  if (one.empty()) return std::nullopt;
  return one.begin()->second.time_s;
}

}  // namespace ompscope::analysis
