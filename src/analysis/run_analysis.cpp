#include "analysis/run_analysis.h"

#include <filesystem>

#include <omp-tools.h>

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <span>
#include <unordered_map>

#include "analysis/task_replay.h"
#include "common/side_by_side.h"
#include "common/sorted_ids.h"

namespace ompscope::analysis {

CallsiteKey CallsiteKey::of(const SourceLocation& where, uint64_t codeptr) {
  if (!where.file.empty()) return {fmt::format("{}:{} {}", where.file, where.line, where.function)};
  if (!where.module.empty()) return {fmt::format("{}+0x{:x}", where.module, where.module_offset)};
  return {fmt::format("0x{:x}", codeptr)};
}

namespace {



// The recorded instances that sampled-out ones are taken to behave like (represents_light): their
// barrier phases summed, and their wall time.
struct RepresentedPhases {
  BarrierPhases phases;
  double time_s = 0;
};

// Sampled-out instances behave like the recorded ones of the same callsite (that is what the
// sampling waited to learn): barrier phases like all of them in proportion to time, as their
// threads' split is (profile_program); lock operations in proportion to time. One typical
// instance stood for them before: a wavefront loop's diagonals of 1 to 7 iterations have a median
// of 4, which divides between 2 threads, and the sampled run showed half its imbalance.
void scale_to_all_instances(RegionRun& r, const RepresentedPhases* represented) {
  if (!r.sampled() || r.profile.recorded_time_s <= 0) return;
  if (represented && represented->time_s > 0) {
    BarrierPhases light = represented->phases * (r.profile.light_time_s / represented->time_s);
    light.team_creation_s = 0;  // once per run: sampled-out instances created no thread
    add_phases(r.phases, light);
  }
  scale_lock_costs(r.locks, r.profile.time_s / r.profile.recorded_time_s);
}

// Each instance's task figures added to its region, in the instances' order (the sums' order, so
// the report, is the one thread's). With more than one worker, instances of small graphs are
// computed side by side in batches (each replay on one thread), then added in order; a large
// graph (kParallelReplayTasks) alone, its thread counts replayed side by side (replay_instance).
// task_figures reads only its instance and tasks; each replay has its own thread's buffers.
template <class RegionOf>
void add_instances_task_figures(const Timeline& timeline, const ConstructInputs& inputs, RegionOf region_of,
                                const ReplayOptions& replay) {
  using Tasks = std::span<const TaskInstance* const>;
  std::vector<std::pair<const RegionInstance*, Tasks>> instances;
  uint32_t hint = SortedIds::kNone;
  for (const RegionInstance& inst : timeline.regions)
    if (const Tasks tasks = inputs.tasks.find(inst.parallel_id, hint); !tasks.empty()) instances.emplace_back(&inst, tasks);
  // A region's samples of the runtime's per-task costs, pooled over its instances for their
  // medians (its own, and its sites' by the code address of the task each measures), hold at most
  // one per recorded task each: room for all of them from the start. Grown by doubling as 147 000
  // instances were added one by one, each was copied to a buffer twice its size a score of times,
  // a tenth of a task-heavy log's analysis (the 10 M synthetic log), most of it first touches of
  // fresh memory.
  std::unordered_map<TaskFigures*, std::unordered_map<uint64_t, size_t>> site_tasks_of;
  std::unordered_map<TaskFigures*, size_t> region_instances;  // for the replay's sample (replayed_in_sample)
  for (const auto& [inst, tasks] : instances) {
    ++region_instances[&region_of(*inst).tasks];
    std::unordered_map<uint64_t, size_t>& sites = site_tasks_of[&region_of(*inst).tasks];
    uint64_t code = 0;
    size_t* count = nullptr;
    for (const TaskInstance* t : tasks) {  // a construct's tasks come in runs: one lookup a run
      if (count == nullptr || t->codeptr != code) count = &sites[code = t->codeptr];
      ++*count;
    }
  }
  for (const auto& [figures, sites] : site_tasks_of) {
    size_t region_tasks = 0;  // the region's: its sites' summed
    for (const auto& [code, tasks] : sites) {
      SiteFigures& site = figures->sites_by_code[code];
      for (std::vector<double>* samples : {&site.dispatch_gaps, &site.creation_gaps}) samples->reserve(samples->size() + tasks);
      region_tasks += tasks;
    }
    figures->immediate_starts.reserve(figures->immediate_starts.size() + region_tasks);
  }
  // Whether each instance is in the replay's sample, by its place among its region's.
  std::vector<bool> replayed(instances.size(), replay.replay);
  if (replay.replay) {
    std::unordered_map<TaskFigures*, size_t> seen;
    for (size_t i = 0; i < instances.size(); ++i) {
      TaskFigures* region = &region_of(*instances[i].first).tasks;
      replayed[i] = replayed_in_sample(seen[region]++, region_instances[region]);
    }
  }
  const size_t workers = static_cast<size_t>(std::max(1, replay.workers));
  const auto large = [](const Tasks& tasks) { return tasks.size() >= kParallelReplayTasks; };
  const auto options = [&](size_t i, int replay_workers) {
    ReplayOptions o = replay;
    o.replay = replayed[i];
    o.workers = replay_workers;
    return o;
  };
  constexpr size_t kBatch = 256;  // instances computed before they are added: bounds their memory
  std::vector<TaskFigures> figures;
  for (size_t at = 0; at < instances.size();) {
    if (workers == 1 || large(instances[at].second)) {
      add_task_figures(region_of(*instances[at].first).tasks,
                       task_figures(*instances[at].first, instances[at].second, options(at, replay.workers)));
      ++at;
      continue;
    }
    size_t end = at;
    while (end < instances.size() && end - at < kBatch && !large(instances[end].second)) ++end;
    figures.assign(end - at, TaskFigures{});
    side_by_side(end - at, workers, [&](size_t i) {
      figures[i] = task_figures(*instances[at + i].first, instances[at + i].second, options(at + i, 1));
    });
    for (size_t i = 0; i < end - at; ++i) add_task_figures(region_of(*instances[at + i].first).tasks, figures[i]);
    at = end;
  }
  for (const auto& [figures_of, count] : region_instances) scale_replay_to_all(*figures_of);
}

}  // namespace

std::string runtime_library_of(const RunMeta& meta) {
  for (const ModuleRange& m : meta.modules) {
    const std::string name = std::filesystem::path(m.path).filename().string();
    if (name.starts_with("libomp.") || name.starts_with("libgomp.") || name.starts_with("libiomp5.")) return m.path;
  }
  return {};
}

RunAnalysis analyze_run(const Timeline& timeline, const RunMeta& meta, Symbolizer& symbols, const ReplayOptions& replay) {
  RunAnalysis out;
  const ProgramProfile program = profile_program(timeline);
  out.wall_s = program.wall_s;
  out.serial_s = program.serial_s;
  out.mpi_s = program.mpi_s;
  out.serial_blocked_s = program.serial_blocked_s;
  out.serial_runqueue_s = program.serial_runqueue_s;
  out.serial_usage_read = program.serial_usage_read;
  out.serial_waits = program.serial_waits;
  out.serial_before_runtime_s = std::min(timeline.before_runtime_s, program.serial_s);
  out.mpi = !timeline.mpi.empty();
  out.threads = program.threads;
  out.events = timeline.events;
  out.runtime = meta.runtime;
  out.counters_opened = meta.counters_opened;
  out.counters_missing = meta.counters_missing;
  out.runtime_library = runtime_library_of(meta);

  std::unordered_map<uint64_t, CallsiteKey> key_of;  // site → key
  // Each parallel id's instance's site (of two instances with one id, the later's), in the order
  // of the ids (region_ids: each place's site in site_by_place).
  SortedIds region_ids = [&] {
    std::vector<uint32_t> ids;
    ids.reserve(timeline.regions.size());
    for (const RegionInstance& inst : timeline.regions) ids.push_back(inst.parallel_id);
    return SortedIds(std::move(ids));
  }();
  std::vector<uint64_t> site_by_place(region_ids.size());
  {
    uint32_t hint = SortedIds::kNone;
    for (const RegionInstance& inst : timeline.regions) site_by_place[region_ids.find(inst.parallel_id, hint)] = inst.site();
  }
  // The site of the instance with that id; null where none has it. `hint` as SortedIds::find's.
  const auto site_of_id = [&](uint32_t id, uint32_t& hint) -> const uint64_t* {
    const uint32_t place = region_ids.find(id, hint);
    return place == SortedIds::kNone ? nullptr : &site_by_place[place];
  };
  std::unordered_map<uint64_t, uint64_t> enclosing_site;  // nested region's site → its parent's
  {
    uint32_t hint = SortedIds::kNone;
    for (const RegionInstance& inst : timeline.regions)
      if (inst.parent_parallel_id != 0)
        if (const uint64_t* parent = site_of_id(inst.parent_parallel_id, hint)) enclosing_site.try_emplace(inst.site(), *parent);
  }
  const auto resolve_site = [&](uint64_t site, uint64_t body) -> SourceLocation {
    return body ? symbols.resolve_body(body) : symbols.resolve(site);
  };
  std::unordered_map<uint64_t, uint64_t> body_of_site;
  for (const RegionProfile& p : program.regions) body_of_site[p.site()] = p.body;
  for (const RegionProfile& p : program.regions) {
    SourceLocation where = resolve_site(p.site(), p.body);
    std::optional<CallsiteKey> named_by_parent;
    // clang -O2 compiles an outlined body that only forks the inner region as a tail call, so
    // no return address into user code exists and libomp 14 reports one inside itself. Unless
    // the inner body was found, the region is then named by the region it is nested in, the
    // closest place a user can find.
    if (auto parent = enclosing_site.find(p.site()); where.in_runtime && parent != enclosing_site.end()) {
      const SourceLocation outer = resolve_site(parent->second, body_of_site[parent->second]);
      where = SourceLocation{fmt::format("(parallel region nested in {})", outer.file_line()), "", 0,
                             where.module, true, where.module_offset};
      named_by_parent = CallsiteKey{where.function};  // one per enclosing region, not per runtime address
    }
    const CallsiteKey key = named_by_parent.value_or(CallsiteKey::of(where, p.site()));
    key_of[p.site()] = key;
    RegionRun& r = out.regions[key];
    r.key = key;
    r.where = where;
    // Two addresses can map to one key only if a module was loaded twice; merge them.
    r.profile.codeptr = p.codeptr;
    r.profile.body = p.body;
    r.profile.instances += p.instances;
    r.profile.time_s += p.time_s;
    r.profile.recorded_instances += p.recorded_instances;
    r.profile.recorded_time_s += p.recorded_time_s;
    r.profile.light_time_s += p.light_time_s;
    if (r.profile.faults_read_instances == 0) r.profile.first_faults_read = p.first_faults_read;
    r.profile.faults_read_instances += p.faults_read_instances;
    r.profile.faults_read += p.faults_read;
    r.profile.max_team_size = std::max(r.profile.max_team_size, p.max_team_size);
    r.profile.nested = r.profile.nested || p.nested;
    r.profile.complete = r.profile.complete && p.complete;
    if (r.profile.per_thread.size() < p.per_thread.size()) r.profile.per_thread.resize(p.per_thread.size());
    for (size_t i = 0; i < p.per_thread.size(); ++i) {
      r.profile.per_thread[i].thread = static_cast<uint32_t>(i);
      r.profile.per_thread[i] += p.per_thread[i];
    }
    r.team_size = std::max(r.team_size, p.max_team_size);
    r.kernel = timeline.kernel;
  }
  // The records grouped by instance, held until the task figures are taken: the lock costs below
  // group the locks anew, and the two together were the peak of a loop log's report (10 M events).
  std::optional<ConstructInputs> construct_inputs(std::in_place, timeline);
  DescribedSamples described(timeline, symbols);
  std::unordered_map<uint64_t, const RegionProfile*> profile_of_site;
  for (const RegionProfile& p : program.regions) profile_of_site[p.site()] = &p;
  std::unordered_map<const RegionRun*, RepresentedPhases> represented;
  for (const RegionInstance& inst : timeline.regions) {
    RegionRun& r = out.regions[key_of[inst.site()]];
    // The instance's constructs first, then its barriers, each charged to its construct as it is
    // measured (in the barriers' order, as the sums were taken when they were held in a vector).
    const std::optional<std::vector<int>> barrier_nodes =
        add_instance_constructs(r.constructs, inst, *construct_inputs, symbols, described);
    size_t barrier = 0;
    BarrierPhases phases = barrier_phases(inst, [&](const BarrierPhases& one) {
      if (barrier_nodes)
        charge_barrier(r.constructs, barrier < barrier_nodes->size() ? (*barrier_nodes)[barrier] : -1, one);
      ++barrier;
    });
    // Its per-position sums are the region's own where it is the first (add_phases takes them).
    add_phases(r.phases, std::move(phases));
    if (const auto p = profile_of_site.find(inst.site());
        p != profile_of_site.end() && p->second->light_time_s > 0 && represents_light(*p->second, inst)) {
      RepresentedPhases& to = represented[&r];
      phases.positions.clear();  // sampled-out instances read no CPU time: their share carries no samples
      add_phases(to.phases, phases);
      to.time_s += inst.end - inst.begin;
    }
  }
  add_instances_task_figures(
      timeline, *construct_inputs, [&](const RegionInstance& inst) -> RegionRun& { return out.regions[key_of[inst.site()]]; },
      replay);
  construct_inputs.reset();
  out.sampled = meta.sample_period_ns > 0;
  out.sampling_missing = meta.sampling_missing;
  place_samples(
      timeline, described,
      [&](const RegionInstance& inst) -> RunSamples* {
        const auto k = key_of.find(inst.site());
        return k == key_of.end() ? nullptr : &out.regions[k->second].samples;
      },
      out.serial_samples);
  for (auto& [key, r] : out.regions) {
    // A task construct by its file's name and line ("lu.c:40"), as hints name it; its address
    // where the program has no line table.
    const auto site_name = [&symbols](uint64_t code) {
      const SourceLocation where = symbols.resolve(code);
      if (where.file.empty()) return CallsiteKey::of(where, code).text;
      return fmt::format("{}:{}", std::filesystem::path(where.file).filename().string(), where.line);
    };
    for (auto& [code, site] : r.tasks.sites_by_code) {  // moved, not copied, where the name is new
      // Only room was made for it (add_instances_task_figures): no task of the site was measured.
      if (site.recorded == 0 && site.own_work_s == 0 && site.depend_items == 0 && site.creation_gaps.empty() &&
          site.dispatch_gaps.empty() && site.release_gaps.empty())
        continue;
      auto [named, added] = r.tasks.sites.try_emplace(site_name(code));
      if (added) named->second = std::move(site);
      else named->second += site;
    }
    // The dependence path's sites by name, merged in their order of first appearance.
    std::vector<PathSite> path;
    for (PathSite p : r.tasks.path_sites) {
      if (p.site.empty()) p.site = site_name(p.codeptr);
      auto same = std::find_if(path.begin(), path.end(), [&](const PathSite& q) { return q.site == p.site; });
      if (same == path.end()) {
        path.push_back(p);
      } else {
        same->tasks += p.tasks;
        same->time_s += p.time_s;
      }
    }
    r.tasks.path_sites = std::move(path);
    r.tasks.sites_by_code.clear();
  }

  LockCalibration& cal = out.lock_calibration;
  const LockRecordCorrection& correction = timeline.lock_correction;
  cal.record_gap_s = correction.tool_gap;
  cal.atomic_floor_s = correction.floor;
  {
    // The net waits are the raw ones less one constant, in the same order (a rounded subtraction
    // never reverses two values): their median is the raw median's, less it. One array, not two.
    std::vector<double> raw;
    raw.reserve(timeline.locks.size());
    for (const LockAcquisition& a : timeline.locks) {
      if (a.acquired < a.request) continue;
      const double r = a.acquired - a.request;
      raw.push_back(r);
      if (correction.floor > 0 && r - correction.tool_gap < correction.floor) ++cal.floored;
    }
    cal.recorded = raw.size();
    if (!raw.empty()) {
      std::nth_element(raw.begin(), raw.begin() + raw.size() / 2, raw.end());
      cal.median_raw_s = raw[raw.size() / 2];
      cal.median_net_s = cal.median_raw_s - correction.tool_gap;
    }
  }

  std::map<CallsiteKey, std::vector<const LockAcquisition*>> locks_of;
  {
    uint32_t hint = SortedIds::kNone;
    for (const LockAcquisition& a : timeline.locks) {
      const uint64_t* site = site_of_id(a.parallel_id, hint);
      if (site == nullptr) continue;  // serial code
      // Charged to the innermost region around the acquisition: the one a hint can name.
      locks_of[key_of[*site]].push_back(&a);
    }
  }
  for (auto& [key, acquisitions] : locks_of) {
    RegionRun& r = out.regions[key];
    r.locks = lock_costs(acquisitions, correction);
    for (const LockCost& c : r.locks.locks) {
      const report::ConstructKind kind = mutex_construct_kind(c.mutex_kind);
      if (std::find(r.lock_kinds.begin(), r.lock_kinds.end(), kind) == r.lock_kinds.end())
        r.lock_kinds.push_back(kind);
    }
  }
  for (auto& [key, r] : out.regions) {
    const auto it = represented.find(&r);
    scale_to_all_instances(r, it == represented.end() ? nullptr : &it->second);
    finish_constructs(r.constructs, r.profile.time_s, correction);
    // One lock is held by one thread at a time: never longer than the region ran (an estimate
    // from sampled operations is held to what could have been).
    for (LockCost& c : r.locks.locks) c.hold_s = std::min(c.hold_s, r.profile.time_s);
  }
  return out;
}

}  // namespace ompscope::analysis
