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
// The model is built in analysis (analysis/trace_model.h); this file only writes it.
using analysis::ParallelInstance;
using analysis::Slice;
using analysis::SliceKind;
using analysis::TaskInfo;
using analysis::ThreadTrack;
using analysis::TraceModel;
using analysis::TraceRegion;
using analysis::kSliceCompletesTask;
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
  LocationWriter(const TraceModel& model, OTF2_EvtWriter* w, uint64_t base) : model_(model), w_(w), base_(base) {}

  void write(const ThreadTrack& track) {
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
  }

 private:
  OTF2_TimeStamp ts(int64_t ns) const { return static_cast<OTF2_TimeStamp>(static_cast<int64_t>(base_) + ns); }

  TaskId task_id(uint32_t task) const {
    const TaskInfo& t = model_.tasks[task];
    return {t.team, t.creator_index, t.generation};
  }

  // The task that runs once `s` ends: the innermost enclosing explicit task, else the implicit
  // task of the innermost enclosing region, else the initial task.
  TaskId resumed_task(const std::vector<const Slice*>& open) const {
    for (size_t k = open.size() - 1; k-- > 0;) {  // open.back() is the slice that ends
      const Slice& s = *open[k];
      if (s.kind == SliceKind::Task) return task_id(s.ref);
      if (s.kind == SliceKind::Parallel) return {model_.parallels[s.ref].team, s.aux, 0};
    }
    return {0, 0, 0};
  }

  void enter(const Slice& s) {
    const OTF2_TimeStamp t = ts(s.begin);
    switch (s.kind) {
      case SliceKind::Parallel: {
        const ParallelInstance& p = model_.parallels[s.ref];
        if (s.aux == 0) check(OTF2_EvtWriter_ThreadFork(w_, nullptr, t, OTF2_PARADIGM_OPENMP, p.requested_threads), "ThreadFork");
        check(OTF2_EvtWriter_Enter(w_, nullptr, t, s.region), "Enter");
        check(OTF2_EvtWriter_ThreadTeamBegin(w_, nullptr, t, p.team), "ThreadTeamBegin");
        return;
      }
      case SliceKind::Task: {
        const TaskId id = task_id(s.ref);
        check(OTF2_EvtWriter_ThreadTaskSwitch(w_, nullptr, t, id.team, id.thread, id.generation), "ThreadTaskSwitch");
        check(OTF2_EvtWriter_Enter(w_, nullptr, t, s.region), "Enter");
        return;
      }
      case SliceKind::TaskCreate: {
        const TaskId id = task_id(s.ref);
        check(OTF2_EvtWriter_Enter(w_, nullptr, t, s.region), "Enter");
        check(OTF2_EvtWriter_ThreadTaskCreate(w_, nullptr, t, id.team, id.thread, id.generation), "ThreadTaskCreate");
        return;
      }
      case SliceKind::LockHeld:
        check(OTF2_EvtWriter_Enter(w_, nullptr, t, s.region), "Enter");
        check(OTF2_EvtWriter_ThreadAcquireLock(w_, nullptr, t, OTF2_PARADIGM_OPENMP, s.ref, s.aux), "ThreadAcquireLock");
        return;
      default:
        check(OTF2_EvtWriter_Enter(w_, nullptr, t, s.region), "Enter");
    }
  }

  void leave(const Slice& s, const std::vector<const Slice*>& open) {
    const OTF2_TimeStamp t = ts(s.end);
    switch (s.kind) {
      case SliceKind::Parallel: {
        const ParallelInstance& p = model_.parallels[s.ref];
        check(OTF2_EvtWriter_ThreadTeamEnd(w_, nullptr, t, p.team), "ThreadTeamEnd");
        check(OTF2_EvtWriter_Leave(w_, nullptr, t, s.region), "Leave");
        if (s.aux == 0) check(OTF2_EvtWriter_ThreadJoin(w_, nullptr, t, OTF2_PARADIGM_OPENMP), "ThreadJoin");
        return;
      }
      case SliceKind::Task: {
        check(OTF2_EvtWriter_Leave(w_, nullptr, t, s.region), "Leave");
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
        check(OTF2_EvtWriter_ThreadReleaseLock(w_, nullptr, t, OTF2_PARADIGM_OPENMP, s.ref, s.aux), "ThreadReleaseLock");
        check(OTF2_EvtWriter_Leave(w_, nullptr, t, s.region), "Leave");
        return;
      default:
        check(OTF2_EvtWriter_Leave(w_, nullptr, t, s.region), "Leave");
    }
  }

  const TraceModel& model_;
  OTF2_EvtWriter* w_;
  uint64_t base_;
};

}  // namespace

Otf2Result write_otf2_trace(const TraceModel& model, const fs::path& directory, const std::string& description) {
  std::error_code ec;
  if (fs::exists(directory, ec))
    throw Error(fmt::format("{} already exists: OTF2 does not write over an archive", directory.string()));
  fs::create_directories(directory.parent_path().empty() ? fs::path(".") : directory.parent_path(), ec);

  // Timestamps: CLOCK_MONOTONIC ns where the run's origin is known, never below zero.
  int64_t first = 0;
  for (const ThreadTrack& t : model.threads)
    if (!t.slices.empty()) first = std::min(first, t.slices.front().begin);
  uint64_t base = model.origin_ns;
  if (static_cast<int64_t>(base) + first < 0) base = static_cast<uint64_t>(-first);
  const uint64_t global_offset = static_cast<uint64_t>(static_cast<int64_t>(base) + first);
  const uint64_t trace_end = static_cast<uint64_t>(static_cast<int64_t>(base) + std::max<int64_t>(model.end, first));

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
  std::vector<uint64_t> event_counts;
  check(OTF2_Archive_OpenEvtFiles(a), "opening the event files");
  for (const ThreadTrack& track : model.threads) {
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(a, track.thread);
    if (!w) throw Error(fmt::format("writing the OTF2 trace: no event writer for thread {}", track.thread));
    LocationWriter(model, w, base).write(track);
    uint64_t n = 0;
    check(OTF2_EvtWriter_GetNumberOfEvents(w, &n), "counting events");
    event_counts.push_back(n);
    result.events += n;
    check(OTF2_Archive_CloseEvtWriter(a, w), "closing an event writer");
  }
  check(OTF2_Archive_CloseEvtFiles(a), "closing the event files");

  // Local definitions: none, but each location needs its (empty) file.
  check(OTF2_Archive_OpenDefFiles(a), "opening the local definition files");
  for (const ThreadTrack& track : model.threads) {
    OTF2_DefWriter* d = OTF2_Archive_GetDefWriter(a, track.thread);
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
  const OTF2_StringRef process = str(fmt::format("process {}", model.pid));
  std::vector<OTF2_StringRef> location_names;
  for (const ThreadTrack& track : model.threads)
    location_names.push_back(str(fmt::format("OpenMP thread {}", track.thread)));
  struct RegionStrings {
    OTF2_StringRef name, file;
  };
  std::vector<RegionStrings> region_strings;
  for (const TraceRegion& r : model.regions)
    region_strings.push_back({str(r.name), r.where.file.empty() ? OTF2_UNDEFINED_STRING : str(r.where.file)});
  std::vector<OTF2_StringRef> team_names;
  for (size_t k = 0; k < model.teams.size(); ++k)
    team_names.push_back(str(k == 0 ? std::string("initial thread") : fmt::format("thread team {}", k)));
  const OTF2_StringRef all_threads = str("OpenMP threads");
  str.write(g);

  check(OTF2_GlobalDefWriter_WriteParadigm(g, OTF2_PARADIGM_OPENMP, openmp, OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN),
        "Paradigm");
  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, host_name, machine, OTF2_UNDEFINED_SYSTEM_TREE_NODE),
        "SystemTreeNode");
  check(OTF2_GlobalDefWriter_WriteLocationGroup(g, 0, process, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                OTF2_UNDEFINED_LOCATION_GROUP),
        "LocationGroup");
  for (size_t k = 0; k < model.threads.size(); ++k)
    check(OTF2_GlobalDefWriter_WriteLocation(g, model.threads[k].thread, location_names[k],
                                             OTF2_LOCATION_TYPE_CPU_THREAD, event_counts[k], 0),
          "Location");
  for (size_t k = 0; k < model.regions.size(); ++k) {
    const TraceRegion& r = model.regions[k];
    check(OTF2_GlobalDefWriter_WriteRegion(g, static_cast<OTF2_RegionRef>(k), region_strings[k].name,
                                           region_strings[k].name, empty, role_of(r), OTF2_PARADIGM_OPENMP,
                                           OTF2_REGION_FLAG_NONE, region_strings[k].file,
                                           static_cast<uint32_t>(std::max(r.where.line, 0)), 0),
          "Region");
  }

  // Thread teams: a group of all threads (COMM_LOCATIONS), one group of ranks in it per team
  // (COMM_GROUP), and one communicator per team, referenced by the events.
  std::vector<uint64_t> locations;
  std::unordered_map<uint32_t, uint64_t> rank_of;
  for (const ThreadTrack& track : model.threads) {
    rank_of[track.thread] = locations.size();
    locations.push_back(track.thread);
  }
  check(OTF2_GlobalDefWriter_WriteGroup(g, 0, all_threads, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_OPENMP,
                                        OTF2_GROUP_FLAG_NONE, static_cast<uint32_t>(locations.size()),
                                        locations.data()),
        "Group (threads)");
  for (size_t k = 0; k < model.teams.size(); ++k) {
    std::vector<uint64_t> ranks;
    for (uint32_t thread : model.teams[k].threads) {
      auto it = rank_of.find(thread);
      ranks.push_back(it == rank_of.end() ? 0 : it->second);
    }
    check(OTF2_GlobalDefWriter_WriteGroup(g, static_cast<OTF2_GroupRef>(k + 1), team_names[k],
                                          OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                          static_cast<uint32_t>(ranks.size()), ranks.data()),
          "Group (team)");
    check(OTF2_GlobalDefWriter_WriteComm(g, static_cast<OTF2_CommRef>(k), team_names[k],
                                         static_cast<OTF2_GroupRef>(k + 1), OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
          "Comm (team)");
  }
  check(OTF2_Archive_CloseGlobalDefWriter(a, g), "closing the global definition writer");
  OTF2_Archive* raw = archive.release();
  check(OTF2_Archive_Close(raw), "closing the archive");
  result.locations = static_cast<uint32_t>(model.threads.size());
  return result;
}

}  // namespace ompscope::output
