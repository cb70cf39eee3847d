#include "output/otf2_trace.h"

#include <omp-tools.h>
#include <unistd.h>

// OTF2_Pthread_Locks.h calls malloc without including <stdlib.h> (docs/runtime-quirks.md Q15).
#include <cstdlib>
#include <otf2/otf2.h>
#include <otf2/OTF2_Pthread_Locks.h>

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <unordered_map>
#include <vector>

#include "common/error.h"

namespace ompscope::output {
// The model (report/trace_model.h) is built by the analysis; this file only writes it.
using report::ParallelInstance;
using report::Slice;
using report::SliceKind;
using report::TaskInfo;
using report::ThreadTrack;
using report::TraceModel;
using report::TraceRegion;
using report::kSliceCompletesTask;
namespace {

namespace fs = std::filesystem;

void check(OTF2_ErrorCode rc, const char* what) {
  if (rc != OTF2_SUCCESS)
    throw Error(fmt::format("writing the OTF2 trace: {} failed: {} ({})", what, OTF2_Error_GetName(rc),
                            OTF2_Error_GetDescription(rc)));
}

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
const OTF2_FlushCallbacks kFlushCallbacks = {pre_flush, nullptr};  // no BufferFlush records: written offline

OTF2_RegionRole role_of(const TraceRegion& r) {
  switch (r.kind) {
    case SliceKind::Parallel: return OTF2_REGION_ROLE_PARALLEL;
    case SliceKind::Work:
      switch (r.detail) {
        case ompt_work_sections: return OTF2_REGION_ROLE_SECTIONS;
        case ompt_work_single_executor:
        case ompt_work_single_other: return OTF2_REGION_ROLE_SINGLE;
        case ompt_work_workshare: return OTF2_REGION_ROLE_WORKSHARE;
        case ompt_work_scope: return OTF2_REGION_ROLE_CODE;
        default: return OTF2_REGION_ROLE_LOOP;
      }
    case SliceKind::Barrier: return OTF2_REGION_ROLE_BARRIER;
    case SliceKind::JoinBarrier: return OTF2_REGION_ROLE_IMPLICIT_BARRIER;
    case SliceKind::Taskwait:
    case SliceKind::Taskgroup: return OTF2_REGION_ROLE_TASK_WAIT;
    case SliceKind::Sync: return OTF2_REGION_ROLE_CODE;
    case SliceKind::LockWait:
      switch (r.detail) {
        case ompt_mutex_critical: return OTF2_REGION_ROLE_CRITICAL;
        case ompt_mutex_ordered: return OTF2_REGION_ROLE_ORDERED;
        case ompt_mutex_atomic: return OTF2_REGION_ROLE_ATOMIC;
        default: return OTF2_REGION_ROLE_WRAPPER;  // omp_set_lock & co.
      }
    case SliceKind::LockHeld:
      switch (r.detail) {
        case ompt_mutex_critical: return OTF2_REGION_ROLE_CRITICAL_SBLOCK;
        case ompt_mutex_ordered: return OTF2_REGION_ROLE_ORDERED_SBLOCK;
        case ompt_mutex_atomic: return OTF2_REGION_ROLE_ATOMIC;
        default: return OTF2_REGION_ROLE_CODE;
      }
    case SliceKind::Task: return r.detail ? OTF2_REGION_ROLE_TASK_UNTIED : OTF2_REGION_ROLE_TASK;
    case SliceKind::TaskCreate: return OTF2_REGION_ROLE_TASK_CREATE;
  }
  return OTF2_REGION_ROLE_UNKNOWN;
}

struct ArchiveCloser {
  void operator()(OTF2_Archive* a) const { OTF2_Archive_Close(a); }
};

class Strings {
 public:
  OTF2_StringRef operator()(const std::string& s) {
    auto [it, inserted] = index_.try_emplace(s, static_cast<OTF2_StringRef>(list_.size()));
    if (inserted) list_.push_back(s);
    return it->second;
  }
  void write(OTF2_GlobalDefWriter* w) const {
    for (size_t k = 0; k < list_.size(); ++k)
      check(OTF2_GlobalDefWriter_WriteString(w, static_cast<OTF2_StringRef>(k), list_[k].c_str()), "a string");
  }

 private:
  std::unordered_map<std::string, OTF2_StringRef> index_;
  std::vector<std::string> list_;
};

// An OTF2 task id: (thread team, creating thread's index in it, generation).
struct TaskId {
  OTF2_CommRef team;
  uint32_t thread;
  uint32_t generation;
};

// Writes one location's events from its slices (pre-order, nested exactly).
class LocationWriter {
 public:
  // `regions`: the archive's region of each of the model's; `team_base`, `lock_base`: where the
  // model's teams (communicators) and locks start among the archive's (0 but for later ranks).
  // `contexts`: the archive's calling context of each of the model's sample sites.
  LocationWriter(const TraceModel& model, OTF2_EvtWriter* w, uint64_t base, const std::vector<OTF2_RegionRef>& regions,
                 uint32_t team_base, uint32_t lock_base, const std::vector<OTF2_CallingContextRef>& contexts)
      : model_(model), w_(w), base_(base), regions_(regions), team_base_(team_base), lock_base_(lock_base),
        contexts_(contexts) {}

  void write(const ThreadTrack& track) {
    samples_ = &track.samples;
    next_sample_ = 0;
    std::vector<const Slice*> open;
    for (const Slice& s : track.slices) {
      while (open.size() > s.depth) {
        leave(*open.back(), open);
        open.pop_back();
      }
      enter(s);
      open.push_back(&s);
    }
    while (!open.empty()) {
      leave(*open.back(), open);
      open.pop_back();
    }
    samples_before(std::numeric_limits<int64_t>::max());
  }

 private:
  OTF2_TimeStamp ts(int64_t ns) const { return static_cast<OTF2_TimeStamp>(static_cast<int64_t>(base_) + ns); }

  TaskId task_id(uint32_t task) const {
    const TaskInfo& t = model_.tasks[task];
    return {t.team + team_base_, t.creator_index, t.generation};
  }

  // The task that runs once `s` ends: the innermost enclosing explicit task, else the implicit
  // task of the innermost enclosing region, else the initial task.
  TaskId resumed_task(const std::vector<const Slice*>& open) const {
    for (size_t k = open.size() - 1; k-- > 0;) {  // open.back() is the slice that ends
      const Slice& s = *open[k];
      if (s.kind == SliceKind::Task) return task_id(s.ref);
      if (s.kind == SliceKind::Parallel) return {model_.parallels[s.ref].team + team_base_, s.aux, 0};
    }
    return {team_base_, 0, 0};
  }

  // The samples taken before `ns`, between the enter and leave events in time order (OTF2 wants
  // each location's events by time). Each is one calling context: the sampled instruction's place.
  void samples_before(int64_t ns) {
    for (; next_sample_ < samples_->size() && (*samples_)[next_sample_].time < ns; ++next_sample_) {
      const report::TraceSample& s = (*samples_)[next_sample_];
      check(OTF2_EvtWriter_CallingContextSample(w_, nullptr, ts(s.time), contexts_[s.site], 1, 0),
            "CallingContextSample");
    }
  }

  void enter(const Slice& s) {
    samples_before(s.begin);
    const OTF2_TimeStamp t = ts(s.begin);
    switch (s.kind) {
      case SliceKind::Parallel: {
        const ParallelInstance& p = model_.parallels[s.ref];
        if (s.aux == 0) check(OTF2_EvtWriter_ThreadFork(w_, nullptr, t, OTF2_PARADIGM_OPENMP, p.requested_threads), "ThreadFork");
        check(OTF2_EvtWriter_Enter(w_, nullptr, t, regions_[s.region]), "Enter");
        check(OTF2_EvtWriter_ThreadTeamBegin(w_, nullptr, t, p.team + team_base_), "ThreadTeamBegin");
        return;
      }
      case SliceKind::Task: {
        const TaskId id = task_id(s.ref);
        check(OTF2_EvtWriter_ThreadTaskSwitch(w_, nullptr, t, id.team, id.thread, id.generation), "ThreadTaskSwitch");
        check(OTF2_EvtWriter_Enter(w_, nullptr, t, regions_[s.region]), "Enter");
        return;
      }
      case SliceKind::TaskCreate: {
        const TaskId id = task_id(s.ref);
        check(OTF2_EvtWriter_Enter(w_, nullptr, t, regions_[s.region]), "Enter");
        check(OTF2_EvtWriter_ThreadTaskCreate(w_, nullptr, t, id.team, id.thread, id.generation), "ThreadTaskCreate");
        return;
      }
      case SliceKind::LockHeld:
        check(OTF2_EvtWriter_Enter(w_, nullptr, t, regions_[s.region]), "Enter");
        check(OTF2_EvtWriter_ThreadAcquireLock(w_, nullptr, t, OTF2_PARADIGM_OPENMP, s.ref + lock_base_, s.aux),
              "ThreadAcquireLock");
        return;
      default:
        check(OTF2_EvtWriter_Enter(w_, nullptr, t, regions_[s.region]), "Enter");
    }
  }

  void leave(const Slice& s, const std::vector<const Slice*>& open) {
    samples_before(s.end);
    const OTF2_TimeStamp t = ts(s.end);
    switch (s.kind) {
      case SliceKind::Parallel: {
        const ParallelInstance& p = model_.parallels[s.ref];
        check(OTF2_EvtWriter_ThreadTeamEnd(w_, nullptr, t, p.team + team_base_), "ThreadTeamEnd");
        check(OTF2_EvtWriter_Leave(w_, nullptr, t, regions_[s.region]), "Leave");
        if (s.aux == 0) check(OTF2_EvtWriter_ThreadJoin(w_, nullptr, t, OTF2_PARADIGM_OPENMP), "ThreadJoin");
        return;
      }
      case SliceKind::Task: {
        check(OTF2_EvtWriter_Leave(w_, nullptr, t, regions_[s.region]), "Leave");
        if (s.flags & kSliceCompletesTask) {
          const TaskId id = task_id(s.ref);
          check(OTF2_EvtWriter_ThreadTaskComplete(w_, nullptr, t, id.team, id.thread, id.generation),
                "ThreadTaskComplete");
        }
        const TaskId next = resumed_task(open);
        check(OTF2_EvtWriter_ThreadTaskSwitch(w_, nullptr, t, next.team, next.thread, next.generation), "ThreadTaskSwitch");
        return;
      }
      case SliceKind::LockHeld:
        check(OTF2_EvtWriter_ThreadReleaseLock(w_, nullptr, t, OTF2_PARADIGM_OPENMP, s.ref + lock_base_, s.aux),
              "ThreadReleaseLock");
        check(OTF2_EvtWriter_Leave(w_, nullptr, t, regions_[s.region]), "Leave");
        return;
      default:
        check(OTF2_EvtWriter_Leave(w_, nullptr, t, regions_[s.region]), "Leave");
    }
  }

  const TraceModel& model_;
  OTF2_EvtWriter* w_;
  uint64_t base_;
  const std::vector<OTF2_RegionRef>& regions_;
  uint32_t team_base_;
  uint32_t lock_base_;
  const std::vector<OTF2_CallingContextRef>& contexts_;
  const std::vector<report::TraceSample>* samples_ = nullptr;
  size_t next_sample_ = 0;
};

// One process in the archive: a trace model, its rank (-1: not a rank of a job) and what its
// CLOCK_MONOTONIC times are shifted by.
struct Process {
  int rank = -1;
  const TraceModel* model = nullptr;
  int64_t clock_offset_ns = 0;
};

Otf2Result write_archive(const std::vector<Process>& processes, const fs::path& directory, const std::string& description);

}  // namespace

Otf2Result write_otf2_trace(const TraceModel& model, const fs::path& directory, const std::string& description) {
  return write_archive({{-1, &model, 0}}, directory, description);
}

Otf2Result write_otf2_job_trace(const std::vector<TraceRank>& ranks, const fs::path& directory,
                                const std::string& description) {
  if (ranks.empty()) throw Error("no rank's trace to write");
  std::vector<Process> processes;
  for (const TraceRank& r : ranks) processes.push_back({r.rank, r.model, r.clock_offset_ns});
  return write_archive(processes, directory, description);
}

namespace {

Otf2Result write_archive(const std::vector<Process>& processes, const fs::path& directory, const std::string& description) {
  std::error_code ec;
  if (fs::exists(directory, ec))
    throw Error(fmt::format("{} already exists: OTF2 does not write over an archive", directory.string()));
  fs::create_directories(directory.parent_path().empty() ? fs::path(".") : directory.parent_path(), ec);

  // Timestamps: each process's CLOCK_MONOTONIC ns where its run's origin is known (shifted by its
  // offset), all moved up together if one would fall below zero.
  std::vector<int64_t> base;
  int64_t lowest = std::numeric_limits<int64_t>::max(), highest = std::numeric_limits<int64_t>::min();
  for (const Process& p : processes) {
    int64_t first = 0;
    for (const ThreadTrack& t : p.model->threads)
      if (!t.slices.empty()) first = std::min(first, t.slices.front().begin);
    base.push_back(static_cast<int64_t>(p.model->origin_ns) + p.clock_offset_ns);
    lowest = std::min(lowest, base.back() + first);
    highest = std::max(highest, base.back() + std::max<int64_t>(p.model->end, first));
  }
  if (lowest < 0) {
    for (int64_t& b : base) b -= lowest;
    highest -= lowest;
    lowest = 0;
  }
  const uint64_t global_offset = static_cast<uint64_t>(lowest);
  const uint64_t trace_end = static_cast<uint64_t>(highest);
  // A rank's threads are locations rank << 32 | thread, so ranks never share one.
  auto location = [&](size_t p, uint32_t thread) -> OTF2_LocationRef {
    return processes[p].rank < 0 ? thread : (static_cast<uint64_t>(processes[p].rank) << 32) | thread;
  };

  // Regions: one definition per name, role and source place, shared by the ranks; teams and
  // locks: each process's after the previous ones'.
  struct RegionKey {
    std::string name, file;
    int line;
    OTF2_RegionRole role;
    OTF2_Paradigm paradigm = OTF2_PARADIGM_OPENMP;
    bool operator==(const RegionKey&) const = default;
  };
  std::vector<RegionKey> regions;
  std::vector<std::vector<OTF2_RegionRef>> region_of(processes.size());
  // Sample sites: a function region (paradigm sampling) and one calling context each, shared by
  // the ranks as regions are.
  std::vector<OTF2_RegionRef> context_region;  // by calling context
  std::vector<std::vector<OTF2_CallingContextRef>> context_of(processes.size());
  int64_t sample_period_ns = 0;
  std::vector<uint32_t> team_base, lock_base;
  uint32_t teams = 0, locks = 0;
  for (size_t p = 0; p < processes.size(); ++p) {
    for (const TraceRegion& r : processes[p].model->regions) {
      const RegionKey key{r.name, r.where.file, std::max(r.where.line, 0), role_of(r)};
      auto it = std::find(regions.begin(), regions.end(), key);
      if (it == regions.end()) it = regions.insert(regions.end(), key);
      region_of[p].push_back(static_cast<OTF2_RegionRef>(it - regions.begin()));
    }
    for (const report::Callsite& site : processes[p].model->sample_sites) {
      const RegionKey key{site.function.empty() ? site.label : site.function, site.file, std::max(site.line, 0),
                          OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_SAMPLING};
      auto it = std::find(regions.begin(), regions.end(), key);
      if (it == regions.end()) it = regions.insert(regions.end(), key);
      const auto region = static_cast<OTF2_RegionRef>(it - regions.begin());
      auto c = std::find(context_region.begin(), context_region.end(), region);
      if (c == context_region.end()) c = context_region.insert(context_region.end(), region);
      context_of[p].push_back(static_cast<OTF2_CallingContextRef>(c - context_region.begin()));
    }
    if (!sample_period_ns) sample_period_ns = processes[p].model->sample_period_ns;
    team_base.push_back(teams);
    lock_base.push_back(locks);
    teams += static_cast<uint32_t>(processes[p].model->teams.size());
    locks += processes[p].model->locks;
  }

  std::unique_ptr<OTF2_Archive, ArchiveCloser> archive(
      OTF2_Archive_Open(directory.string().c_str(), "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                        OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE));
  if (!archive) throw Error(fmt::format("cannot create the OTF2 archive in {}", directory.string()));
  OTF2_Archive* a = archive.get();
  check(OTF2_Archive_SetFlushCallbacks(a, &kFlushCallbacks, nullptr), "setting the flush callbacks");
  check(OTF2_Archive_SetSerialCollectiveCallbacks(a), "setting the serial collective callbacks");
  // Pthread locks, not OTF2's OpenMP ones: those would call omp_*_lock (docs/runtime-quirks.md Q15).
  check(OTF2_Pthread_Archive_SetLockingCallbacks(a, nullptr), "setting the locking callbacks");
  check(OTF2_Archive_SetCreator(a, "ompscope"), "setting the creator");
  if (!description.empty()) check(OTF2_Archive_SetDescription(a, description.c_str()), "setting the description");

  Otf2Result result;
  result.anchor = directory / "traces.otf2";
  std::vector<std::vector<uint64_t>> event_counts(processes.size());
  check(OTF2_Archive_OpenEvtFiles(a), "opening the event files");
  for (size_t p = 0; p < processes.size(); ++p)
    for (const ThreadTrack& track : processes[p].model->threads) {
      OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(a, location(p, track.thread));
      if (!w) throw Error(fmt::format("writing the OTF2 trace: no event writer for thread {}", track.thread));
      LocationWriter(*processes[p].model, w, static_cast<uint64_t>(base[p]), region_of[p], team_base[p], lock_base[p],
                     context_of[p])
          .write(track);
      uint64_t n = 0;
      check(OTF2_EvtWriter_GetNumberOfEvents(w, &n), "counting events");
      event_counts[p].push_back(n);
      result.events += n;
      check(OTF2_Archive_CloseEvtWriter(a, w), "closing an event writer");
    }
  check(OTF2_Archive_CloseEvtFiles(a), "closing the event files");

  // Local definitions: none, but each location needs its (empty) file.
  check(OTF2_Archive_OpenDefFiles(a), "opening the local definition files");
  for (size_t p = 0; p < processes.size(); ++p)
    for (const ThreadTrack& track : processes[p].model->threads) {
      OTF2_DefWriter* d = OTF2_Archive_GetDefWriter(a, location(p, track.thread));
      if (!d) throw Error("writing the OTF2 trace: no definition writer");
      check(OTF2_Archive_CloseDefWriter(a, d), "closing a definition writer");
    }
  check(OTF2_Archive_CloseDefFiles(a), "closing the local definition files");

  OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(a);
  if (!g) throw Error("writing the OTF2 trace: no global definition writer");
  check(OTF2_GlobalDefWriter_WriteClockProperties(g, 1'000'000'000, global_offset, trace_end - global_offset,
                                                  OTF2_UNDEFINED_TIMESTAMP),
        "ClockProperties");
  Strings str;
  const OTF2_StringRef empty = str("");
  const OTF2_StringRef openmp = str("OpenMP");
  char host[256] = "localhost";
  gethostname(host, sizeof host - 1);
  const OTF2_StringRef host_name = str(host), machine = str("machine");
  std::vector<OTF2_StringRef> process_names;
  std::vector<std::vector<OTF2_StringRef>> location_names(processes.size());
  std::vector<std::vector<OTF2_StringRef>> team_names(processes.size());
  for (size_t p = 0; p < processes.size(); ++p) {
    const Process& proc = processes[p];
    const std::string rank = proc.rank < 0 ? "" : fmt::format("rank {} ", proc.rank);
    process_names.push_back(str(proc.rank < 0 ? fmt::format("process {}", proc.model->pid)
                                              : fmt::format("rank {} (process {})", proc.rank, proc.model->pid)));
    for (const ThreadTrack& track : proc.model->threads)
      location_names[p].push_back(str(fmt::format("{}OpenMP thread {}", rank, track.thread)));
    for (size_t k = 0; k < proc.model->teams.size(); ++k)
      team_names[p].push_back(str(rank + (k == 0 ? std::string("initial thread") : fmt::format("thread team {}", k))));
  }
  struct RegionStrings {
    OTF2_StringRef name, file;
  };
  std::vector<RegionStrings> region_strings;
  for (const RegionKey& r : regions) region_strings.push_back({str(r.name), r.file.empty() ? OTF2_UNDEFINED_STRING : str(r.file)});
  const OTF2_StringRef all_threads = str("OpenMP threads");
  const OTF2_StringRef sampling_name = str("CPU time of each thread (POSIX timer)");
  str.write(g);

  check(OTF2_GlobalDefWriter_WriteParadigm(g, OTF2_PARADIGM_OPENMP, openmp, OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN),
        "Paradigm");
  // The processes' logs are read on this node; a job across nodes shows them under this one.
  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, host_name, machine, OTF2_UNDEFINED_SYSTEM_TREE_NODE),
        "SystemTreeNode");
  for (size_t p = 0; p < processes.size(); ++p)
    check(OTF2_GlobalDefWriter_WriteLocationGroup(g, static_cast<OTF2_LocationGroupRef>(p), process_names[p],
                                                  OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP),
          "LocationGroup");
  for (size_t p = 0; p < processes.size(); ++p)
    for (size_t k = 0; k < processes[p].model->threads.size(); ++k)
      check(OTF2_GlobalDefWriter_WriteLocation(g, location(p, processes[p].model->threads[k].thread), location_names[p][k],
                                               OTF2_LOCATION_TYPE_CPU_THREAD, event_counts[p][k],
                                               static_cast<OTF2_LocationGroupRef>(p)),
            "Location");
  for (size_t k = 0; k < regions.size(); ++k)
    check(OTF2_GlobalDefWriter_WriteRegion(g, static_cast<OTF2_RegionRef>(k), region_strings[k].name,
                                           region_strings[k].name, empty, regions[k].role, regions[k].paradigm,
                                           OTF2_REGION_FLAG_NONE, region_strings[k].file,
                                           static_cast<uint32_t>(regions[k].line), 0),
          "Region");
  if (!context_region.empty()) {
    // The sampled place of each calling context, its line where the region has one.
    for (size_t k = 0; k < context_region.size(); ++k) {
      const RegionKey& r = regions[context_region[k]];
      const bool placed = !r.file.empty();
      if (placed)
        check(OTF2_GlobalDefWriter_WriteSourceCodeLocation(g, static_cast<OTF2_SourceCodeLocationRef>(k),
                                                           region_strings[context_region[k]].file,
                                                           static_cast<uint32_t>(r.line)),
              "SourceCodeLocation");
      check(OTF2_GlobalDefWriter_WriteCallingContext(g, static_cast<OTF2_CallingContextRef>(k), context_region[k],
                                                     placed ? static_cast<OTF2_SourceCodeLocationRef>(k)
                                                            : OTF2_UNDEFINED_SOURCE_CODE_LOCATION,
                                                     OTF2_UNDEFINED_CALLING_CONTEXT),
            "CallingContext");
    }
    check(OTF2_GlobalDefWriter_WriteInterruptGenerator(g, 0, sampling_name, OTF2_INTERRUPT_GENERATOR_MODE_TIME,
                                                       OTF2_BASE_DECIMAL, -9, static_cast<uint64_t>(sample_period_ns)),
          "InterruptGenerator");
  }

  // Thread teams: a group of all threads (COMM_LOCATIONS), one group of ranks in it per team
  // (COMM_GROUP), and one communicator per team, referenced by the events.
  std::vector<uint64_t> locations;
  std::unordered_map<uint64_t, uint64_t> index_of;
  for (size_t p = 0; p < processes.size(); ++p)
    for (const ThreadTrack& track : processes[p].model->threads) {
      index_of[location(p, track.thread)] = locations.size();
      locations.push_back(location(p, track.thread));
    }
  check(OTF2_GlobalDefWriter_WriteGroup(g, 0, all_threads, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_OPENMP,
                                        OTF2_GROUP_FLAG_NONE, static_cast<uint32_t>(locations.size()),
                                        locations.data()),
        "Group (threads)");
  for (size_t p = 0; p < processes.size(); ++p)
    for (size_t k = 0; k < processes[p].model->teams.size(); ++k) {
      std::vector<uint64_t> members;
      for (uint32_t thread : processes[p].model->teams[k].threads) {
        auto it = index_of.find(location(p, thread));
        members.push_back(it == index_of.end() ? 0 : it->second);
      }
      const uint32_t team = team_base[p] + static_cast<uint32_t>(k);
      check(OTF2_GlobalDefWriter_WriteGroup(g, static_cast<OTF2_GroupRef>(team + 1), team_names[p][k],
                                            OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                            static_cast<uint32_t>(members.size()), members.data()),
            "Group (team)");
      check(OTF2_GlobalDefWriter_WriteComm(g, static_cast<OTF2_CommRef>(team), team_names[p][k],
                                           static_cast<OTF2_GroupRef>(team + 1), OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
            "Comm (team)");
    }
  check(OTF2_Archive_CloseGlobalDefWriter(a, g), "closing the global definition writer");
  OTF2_Archive* raw = archive.release();
  check(OTF2_Archive_Close(raw), "closing the archive");
  result.locations = static_cast<uint32_t>(locations.size());
  return result;
}

}  // namespace

}  // namespace ompscope::output
