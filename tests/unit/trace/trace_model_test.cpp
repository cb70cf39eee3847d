#include "analysis/build_trace_model.h"

#include <gtest/gtest.h>

#include "trace_fixture.h"

namespace ompscope::trace_test {
namespace {

using analysis::Slice;
using analysis::SliceKind;

struct Expect {
  SliceKind kind;
  int64_t begin, end;
  uint16_t depth;
};

void expect_slices(const analysis::TraceModel& model, const analysis::ThreadTrack& track, const std::vector<Expect>& want) {
  ASSERT_EQ(track.slices.size(), want.size()) << "thread " << track.thread;
  for (size_t k = 0; k < want.size(); ++k) {
    const Slice& s = track.slices[k];
    EXPECT_EQ(s.kind, want[k].kind) << "slice " << k << " " << model.regions[s.region].name;
    EXPECT_EQ(s.begin, want[k].begin) << "slice " << k << " " << model.regions[s.region].name;
    EXPECT_EQ(s.end, want[k].end) << "slice " << k << " " << model.regions[s.region].name;
    EXPECT_EQ(s.depth, want[k].depth) << "slice " << k << " " << model.regions[s.region].name;
  }
}

TEST(TraceModel, NestsEachThreadsIntervalsInNanoseconds) {
  const analysis::TraceModel model = two_thread_model();
  ASSERT_EQ(model.threads.size(), 2u);
  expect_slices(model, model.threads[0],
                {{SliceKind::Parallel, 1000, 20000, 0},
                 {SliceKind::TaskCreate, 3000, 3000, 1},
                 {SliceKind::Work, 6000, 14500, 1},
                 {SliceKind::LockWait, 13000, 13500, 2},
                 {SliceKind::LockHeld, 13500, 14000, 2},
                 {SliceKind::JoinBarrier, 15000, 19500, 1}});
  expect_slices(model, model.threads[1],
                {{SliceKind::Parallel, 2000, 20000, 0},
                 {SliceKind::JoinBarrier, 4000, 20000, 1},
                 {SliceKind::Task, 5000, 12000, 2}});
  EXPECT_EQ(model.clamped, 0u);
  EXPECT_EQ(model.end, 21000);
  EXPECT_EQ(model.pid, 42);
}

TEST(TraceModel, TeamsTaskIdsAndLockOrderFollowOtf2sConventions) {
  const analysis::TraceModel model = two_thread_model();
  ASSERT_EQ(model.teams.size(), 2u);
  EXPECT_EQ(model.teams[0].threads, std::vector<uint32_t>{0});  // serial code's team
  EXPECT_EQ(model.teams[1].threads, (std::vector<uint32_t>{0, 1}));
  ASSERT_EQ(model.parallels.size(), 1u);
  EXPECT_EQ(model.parallels[0].team, 1u);
  EXPECT_EQ(model.parallels[0].requested_threads, 2u);
  ASSERT_EQ(model.tasks.size(), 1u);
  EXPECT_EQ(model.tasks[0].team, 1u);
  EXPECT_EQ(model.tasks[0].creator_index, 0u);
  EXPECT_EQ(model.tasks[0].generation, 1u);
  EXPECT_TRUE(model.tasks[0].completed);
  EXPECT_TRUE(model.tasks[0].ran);
  EXPECT_EQ(model.locks, 1u);
  const Slice& held = model.threads[0].slices[4];
  EXPECT_EQ(held.aux, 1u);  // first acquisition of lock 0
  EXPECT_EQ(model.threads[1].slices[2].flags, analysis::kSliceCompletesTask);
  EXPECT_EQ(model.regions[model.threads[0].slices[0].region].where.line, 10);
}

// Task A runs on thread 1, creates B, waits for it (B runs inside A's taskwait), then ends.
TEST(TraceModel, ATiedTaskIsOneSliceWithTheTasksRunWhileItWasSuspendedInside) {
  analysis::Timeline t = two_thread_run();
  t.locks.clear();
  analysis::TaskInstance& a = t.tasks[0];
  a.fragments = {{1, us(5), us(7)}, {1, us(9), us(12)}};
  analysis::TaskInstance b;
  b.id = 8;
  b.parent = 7;
  b.parallel_id = 1;
  b.creator_thread = 1;
  b.codeptr = 0x200;
  b.flags = ompt_task_explicit;
  b.created = us(6);
  b.completed = us(9);
  b.fragments = {{1, us(7), us(9)}};
  t.tasks.push_back(b);
  t.regions[0].threads[1].syncs.insert(t.regions[0].threads[1].syncs.begin(),
                                        {.kind = analysis::SyncKind::Taskwait, .arrive = us(6.5), .depart = us(9), .tasks = us(2)});
  const analysis::TraceModel model = analysis::build_trace_model(t, name_of);
  expect_slices(model, model.threads[1],
                {{SliceKind::Parallel, 2000, 20000, 0},
                 {SliceKind::JoinBarrier, 4000, 20000, 1},
                 {SliceKind::Task, 5000, 12000, 2},
                 {SliceKind::TaskCreate, 6000, 6000, 3},
                 {SliceKind::Taskwait, 6500, 9000, 3},
                 {SliceKind::Task, 7000, 9000, 4}});
  ASSERT_EQ(model.tasks.size(), 2u);
  EXPECT_EQ(model.tasks[1].creator_index, 1u);
  EXPECT_EQ(model.tasks[1].generation, 1u);  // the first task thread 1 created
  EXPECT_EQ(model.clamped, 0u);
}

TEST(TraceModel, AnUntiedTaskThatMovedIsOneSlicePerFragmentCompletingOnTheLastThread) {
  analysis::Timeline t = two_thread_run();
  t.locks.clear();
  t.tasks[0].flags = ompt_task_explicit | ompt_task_untied;
  t.tasks[0].fragments = {{1, us(5), us(7)}, {0, us(15.5), us(16)}};
  t.tasks[0].completed = us(16);
  const analysis::TraceModel model = analysis::build_trace_model(t, name_of);
  EXPECT_TRUE(model.tasks[0].untied);
  const auto& m = model.threads[0].slices;
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m[3].kind, SliceKind::Task);
  EXPECT_EQ(m[3].begin, 15500);
  EXPECT_EQ(m[3].depth, 2);  // inside the master's join barrier
  EXPECT_EQ(m[3].flags, analysis::kSliceCompletesTask);
  const auto& w = model.threads[1].slices;
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[2].end, 7000);
  EXPECT_EQ(w[2].flags, 0);
}

TEST(TraceModel, AnIntervalOutlivingItsParentIsCutAtTheParentsEndAndCounted) {
  std::vector<analysis::WorkSpan> work = two_thread_work();
  work[0].end = us(13.8);  // the loop ends while the critical section is held
  const analysis::TraceModel model = analysis::build_trace_model(with_work(two_thread_run(), work), name_of);
  EXPECT_EQ(model.clamped, 1u);
  const Slice& held = model.threads[0].slices[4];
  EXPECT_EQ(held.kind, SliceKind::LockHeld);
  EXPECT_EQ(held.end, 13800);
}

TEST(TraceModel, AHoldEndsNoLaterThanTheNextAcquisitionOfItsLock) {
  // OMPT stamps a release after the lock is free: thread 1 acquires at 13.9 µs, before thread
  // 0's release (14 µs) was stamped. Thread 0's hold ends at 13.9 µs, so the trace never shows
  // the lock held twice.
  analysis::Timeline t = two_thread_run();
  analysis::LockAcquisition next = t.locks[0];
  next.thread = 1;
  next.request = us(13.7);
  next.acquired = us(13.9);
  next.released = us(14.2);
  t.locks.push_back(next);
  const analysis::TraceModel model = analysis::build_trace_model(with_work(t, two_thread_work()), name_of);
  for (const analysis::ThreadTrack& track : model.threads)
    for (const Slice& s : track.slices)
      if (s.kind == SliceKind::LockHeld) EXPECT_EQ(s.end, track.thread == 0 ? 13900 : 14200);
}

TEST(TraceModel, ANestLockTakenAgainByItsOwnerHasNoHoldOfItsOwn) {
  analysis::Timeline t = two_thread_run();
  t.locks[0].mutex_kind = ompt_mutex_nest_lock;
  analysis::LockAcquisition again = t.locks[0];
  again.request = us(13.6);
  again.acquired = again.released = us(13.7);
  t.locks.push_back(again);
  const analysis::TraceModel model = analysis::build_trace_model(with_work(t, two_thread_work()), name_of);
  int holds = 0, waits = 0;
  for (const Slice& s : model.threads[0].slices) {
    holds += s.kind == SliceKind::LockHeld;
    waits += s.kind == SliceKind::LockWait;
  }
  EXPECT_EQ(holds, 1);
  EXPECT_EQ(waits, 2);
  EXPECT_EQ(model.regions[model.threads[0].slices[4].region].name, "nest lock main@t.c:30");
}

TEST(TraceModel, ALoopIsNamedByTheScheduleTheRuntimeReports) {
  // libomp 14 says ompt_work_loop; 19 says loop_static (10), loop_dynamic (11), loop_guided (12)
  // or loop_other (13).
  const std::pair<uint8_t, const char*> cases[] = {{ompt_work_loop, "loop main@t.c:40"},
                                                   {10, "loop (static) main@t.c:40"},
                                                   {11, "loop (dynamic) main@t.c:40"},
                                                   {12, "loop (guided) main@t.c:40"},
                                                   {13, "loop main@t.c:40"}};
  for (const auto& [work, name] : cases) {
    const analysis::TraceModel model = analysis::build_trace_model(
        with_work(two_thread_run(), {{0, work, 0x400, us(6), us(14.5)}}), name_of, 42, 1'000'000);
    EXPECT_EQ(model.regions[model.threads[0].slices[2].region].name, name) << "work " << int(work);
  }
}

}  // namespace
}  // namespace ompscope::trace_test

namespace ompscope::trace_test {
namespace {

// CPU-time samples (docs/sampling.md): one site per sampled address, named as the address after
// it would be (the sampled instruction's own place), each thread's samples in time order.
analysis::Timeline sampled_run() {
  analysis::Timeline t = two_thread_run();
  t.sample_period_s = 1e-3;
  t.samples = {{1, us(9), 1e-3, 0x700, {}}, {0, us(7), 1e-3, 0x600, {}}, {1, us(6), 2e-3, 0x600, {}}};
  return t;
}

TEST(TraceModel, SamplesAreTimedOnTheirThreadsAndNamedByTheirPlace) {
  const analysis::TraceModel model = analysis::build_trace_model(sampled_run(), name_of, 42);
  EXPECT_EQ(model.sample_period_ns, 1'000'000);
  ASSERT_EQ(model.sample_sites.size(), 2u);
  EXPECT_EQ(model.sample_sites[0].label, name_of(0x701).label);
  EXPECT_EQ(model.sample_sites[1].label, name_of(0x601).label);
  ASSERT_EQ(model.threads.size(), 2u);
  ASSERT_EQ(model.threads[0].samples.size(), 1u);
  EXPECT_EQ(model.threads[0].samples[0].time, 7000);
  EXPECT_EQ(model.threads[0].samples[0].site, 1u);
  ASSERT_EQ(model.threads[1].samples.size(), 2u);
  EXPECT_EQ(model.threads[1].samples[0].time, 6000);  // sorted by time
  EXPECT_EQ(model.threads[1].samples[1].site, 0u);
}

}  // namespace
}  // namespace ompscope::trace_test
