#include "report/trace_model.h"

namespace ompscope::report {

const char* slice_kind_name(SliceKind kind) {
  switch (kind) {
    case SliceKind::Parallel: return "parallel";
    case SliceKind::Work: return "work";
    case SliceKind::Barrier: return "barrier";
    case SliceKind::JoinBarrier: return "join_barrier";
    case SliceKind::Taskwait: return "taskwait";
    case SliceKind::Taskgroup: return "taskgroup";
    case SliceKind::Sync: return "sync";
    case SliceKind::LockWait: return "lock_wait";
    case SliceKind::LockHeld: return "lock";
    case SliceKind::Task: return "task";
    case SliceKind::TaskCreate: return "task_create";
  }
  return "other";
}

uint64_t TraceModel::slice_count() const {
  uint64_t n = 0;
  for (const ThreadTrack& t : threads) n += t.slices.size();
  return n;
}

}  // namespace ompscope::report
