#include "analysis/region_identity.h"

#include <gtest/gtest.h>

#include "analysis/region_profile.h"
#include "analysis/symbolizer.h"

namespace ompscope::analysis {
namespace {

// Three outlined bodies at 0x1000, 0x2000, 0x3000 (0x100 bytes each); user code elsewhere.
uint64_t body_entry_of(uint64_t address) {
  for (uint64_t entry : {0x1000u, 0x2000u, 0x3000u})
    if (address > entry && address < entry + 0x100) return entry;
  return 0;
}

constexpr uint64_t kFork = 0x500;  // one fork callsite for every region: merged or tail-called forks

RegionInstance instance(uint32_t id, double begin, bool light = false) {
  RegionInstance r;
  r.parallel_id = id;
  r.codeptr = kFork;
  r.begin = begin;
  r.end = begin + 1;
  r.light = light;
  r.team_size = light ? 0 : 1;
  if (!light) {
    ThreadInRegion p;
    p.implicit_task = 100 + id;
    p.start = r.begin;
    p.end = r.end;
    r.threads.push_back(p);
  }
  return r;
}

WorkSpan loop_at(uint32_t parallel, uint64_t codeptr) {
  WorkSpan w;
  w.codeptr = codeptr;
  w.parallel_id = parallel;
  return w;
}

CpuSample sample(uint32_t thread, double time, uint64_t pc, std::vector<uint64_t> frames = {}) {
  CpuSample s;
  s.thread = thread;
  s.time = time;
  s.pc = pc;
  s.frames = std::move(frames);
  return s;
}

// Bodies that call the runtime only at their fork and join (an atomic reduction; clang -O2
// merged replicated_work's three forks into one call): the CPU-time samples on their threads
// name the body, by the sample's address or else its frames, innermost first, where the forking
// function passes that body to a fork. A sample in a region the instance forked is that region's,
// a sample outside the instance no one's, and a body the fork does not pass (a task's, run in
// the instance) names nothing: the instance then takes its fork's neighbour's.
TEST(RegionIdentity, ABodyWithoutRuntimeCallsIsNamedByTheSamplesTakenInItWhereItsForkPassesIt) {
  Timeline t;
  for (uint32_t id = 1; id <= 4; ++id) t.regions.push_back(instance(id, 10 * id));
  t.regions[0].codeptr = 0x501;  // four forks: no instance of another fork stands in
  t.regions[1].codeptr = 0x502;
  t.regions[2].codeptr = 0x503;
  t.regions[3].codeptr = 0x502;  // the fork of instance 2, its body not sampled in it
  RegionInstance inner = instance(5, 30.2);  // forked by instance 3, inside it
  inner.codeptr = 0x504;
  inner.end = 30.5;
  inner.parent_parallel_id = 3;
  t.regions.push_back(inner);
  t.work.push_back(loop_at(5, 0x3010));
  t.samples = {sample(0, 5, 0x2010),                       // before any instance: no one's
               sample(0, 10.5, 0x9000, {0x9100, 0x1020}),  // in instance 1: its frames name 0x1000
               sample(0, 20.5, 0x2030),                    // in instance 2
               sample(0, 30.3, 0x3020),                    // in instance 5, forked by 3
               sample(0, 30.8, 0x2040),                    // in instance 3, outside 5
               sample(0, 40.5, 0x1040)};                   // in instance 4: a body its fork does not pass
  std::vector<std::pair<uint64_t, uint64_t>> asked;
  const PassedAtFork passed_at_fork = [&](uint64_t fork, uint64_t entry) {
    asked.emplace_back(fork, entry);
    return !(fork == 0x502 && entry == 0x1000);
  };
  identify_region_bodies(t, body_entry_of, {}, passed_at_fork);
  EXPECT_EQ(t.regions[0].body, 0x1000u);
  EXPECT_EQ(t.regions[1].body, 0x2000u);
  EXPECT_EQ(t.regions[2].body, 0x2000u);
  EXPECT_EQ(t.regions[3].body, 0x2000u);  // its fork's neighbour, instance 2
  EXPECT_EQ(t.regions[4].body, 0x3000u);  // its own loop
  EXPECT_EQ(asked.size(), 4u);  // once per fork and body

  // Without the fork's check the samples name nothing: the fork's callsite stays the region.
  for (RegionInstance& r : t.regions) r.body = 0;
  identify_region_bodies(t, body_entry_of);
  EXPECT_EQ(t.regions[0].body, 0u);
  EXPECT_EQ(t.regions[1].body, 0u);
  EXPECT_EQ(t.regions[4].body, 0x3000u);
}

TEST(RegionIdentity, MergedForksSeparateByTheBodyTheirLoopsRanIn) {
  // clang -O2 merged the forks of three regions in if/else branches: one return address.
  Timeline t;
  for (uint32_t id = 1; id <= 6; ++id) t.regions.push_back(instance(id, id));
  const uint64_t body_of_instance[] = {0x1010, 0x2010, 0x2010, 0x3010, 0x3010, 0x3010};
  for (uint32_t id = 1; id <= 6; ++id) t.work.push_back(loop_at(id, body_of_instance[id - 1]));
  identify_region_bodies(t, body_entry_of);
  EXPECT_EQ(t.regions[0].body, 0x1000u);
  EXPECT_EQ(t.regions[2].body, 0x2000u);
  EXPECT_EQ(t.regions[5].body, 0x3000u);

  const ProgramProfile p = profile_program(t);
  ASSERT_EQ(p.regions.size(), 3u);  // one region per body, each with its own instance count
  EXPECT_EQ(p.regions[0].body, 0x1000u);
  EXPECT_EQ(p.regions[0].instances, 1u);
  EXPECT_EQ(p.regions[1].instances, 2u);
  EXPECT_EQ(p.regions[2].instances, 3u);
  EXPECT_EQ(p.regions[2].codeptr, kFork);
}

TEST(RegionIdentity, AddressesOutsideAnyBodyAreSkippedAndTheJoinBarrierIsNoEvidence) {
  Timeline t;
  t.regions.push_back(instance(1, 1));
  t.work.push_back(loop_at(1, 0x700));  // an orphaned loop in a function the body calls
  ThreadInRegion& p = t.regions[0].threads[0];
  p.syncs.push_back({.kind = SyncKind::JoinBarrier, .codeptr = 0x1020}); // at the fork, never the body
  p.syncs.push_back({.kind = SyncKind::Barrier, .codeptr = 0x2030}); // an explicit barrier in it
  identify_region_bodies(t, body_entry_of);
  EXPECT_EQ(t.regions[0].body, 0x2000u);
}

TEST(RegionIdentity, TasksCountOnlyWhenTheImplicitTaskCreatedThemAndLocksComeLast) {
  Timeline t;
  t.regions.push_back(instance(1, 1));
  TaskInstance nested;  // created by an explicit task: its address is in that task's outlined body
  nested.parallel_id = 1;
  nested.parent = 55;
  nested.codeptr = 0x3010;
  TaskInstance direct;
  direct.parallel_id = 1;
  direct.parent = 101;  // the region's implicit task
  direct.codeptr = 0x2010;
  t.tasks = {nested, direct};
  LockAcquisition lock;
  lock.parallel_id = 1;
  lock.codeptr = 0x1010;
  t.locks.push_back(lock);
  identify_region_bodies(t, body_entry_of);
  EXPECT_EQ(t.regions[0].body, 0x2000u);

  t.tasks.clear();
  t.regions[0].body = 0;
  identify_region_bodies(t, body_entry_of);
  EXPECT_EQ(t.regions[0].body, 0x1000u);  // a critical section in the body, when nothing else is

  // The implicit task of another instance is no evidence for this one: the pair counts, not the id.
  t.regions.push_back(instance(2, 2));
  t.regions[1].codeptr = kFork + 0x100;  // another fork: no body taken from instance 1's
  t.regions[0].body = 0;
  t.locks.clear();
  TaskInstance elsewhere = direct;  // in instance 2, its parent instance 1's implicit task
  elsewhere.parallel_id = 2;
  elsewhere.codeptr = 0x3010;
  t.tasks = {elsewhere, direct};
  identify_region_bodies(t, body_entry_of);
  EXPECT_EQ(t.regions[0].body, 0x2000u);
  EXPECT_EQ(t.regions[1].body, 0u);
}

TEST(RegionIdentity, InstancesWithoutEvidenceTakeTheNearestRecordedInstanceOfTheirFork) {
  Timeline t;
  t.regions.push_back(instance(1, 1, true));   // light, before any recorded one: the next one's
  t.regions.push_back(instance(2, 2));
  t.regions.push_back(instance(3, 3, true));   // the one before it
  t.regions.push_back(instance(4, 4));
  t.regions.push_back(instance(5, 5, true));
  t.work = {loop_at(2, 0x1010), loop_at(4, 0x3010)};
  identify_region_bodies(t, body_entry_of);
  EXPECT_EQ(t.regions[0].body, 0x1000u);
  EXPECT_EQ(t.regions[2].body, 0x1000u);
  EXPECT_EQ(t.regions[4].body, 0x3000u);
}

TEST(RegionIdentity, WithoutAnyEvidenceTheRegionIsItsForkCallsite) {
  Timeline t;
  t.regions.push_back(instance(1, 1));
  t.regions.push_back(instance(2, 2));
  t.regions[1].codeptr = 0x600;
  identify_region_bodies(t, body_entry_of);
  EXPECT_EQ(t.regions[0].body, 0u);
  EXPECT_EQ(t.regions[0].site(), kFork);
  const ProgramProfile p = profile_program(t);
  ASSERT_EQ(p.regions.size(), 2u);
  EXPECT_EQ(p.regions[1].site(), 0x600u);
}

TEST(RegionIdentity, AForkWithNoEvidenceTakesTheBodyItsTailCallingFunctionPasses) {
  // Two functions each end in a plain parallel region holding only an atomic (clang -O2: `jmp
  // __kmpc_fork_call`), called from the caller at 0x500 and 0x600: nothing inside the bodies;
  // the fork at 0x700 is a normal one whose function holds two regions (no body known).
  Timeline t;
  for (uint32_t id = 1; id <= 4; ++id) t.regions.push_back(instance(id, id));
  t.regions[1].codeptr = 0x600;
  t.regions[2].codeptr = 0x700;
  t.regions[3].codeptr = 0x600;
  t.regions.push_back(instance(5, 5));  // evidence inside it: its own body, whatever the fork
  t.regions[4].codeptr = 0x800;
  t.work.push_back(loop_at(5, 0x3010));
  int asked = 0;
  const BodyEntryOf tail_called = [&](uint64_t ra) -> uint64_t {
    ++asked;
    return ra == 0x500 ? 0x1000 : ra == 0x600 ? 0x2000 : 0;
  };
  identify_region_bodies(t, body_entry_of, tail_called);
  EXPECT_EQ(t.regions[0].body, 0x1000u);
  EXPECT_EQ(t.regions[1].body, 0x2000u);
  EXPECT_EQ(t.regions[2].body, 0u);
  EXPECT_EQ(t.regions[2].site(), 0x700u);
  EXPECT_EQ(t.regions[3].body, 0x2000u);
  EXPECT_EQ(t.regions[4].body, 0x3000u);
  EXPECT_EQ(asked, 3);  // once per fork return address, never for an instance with evidence
  const ProgramProfile p = profile_program(t);
  EXPECT_EQ(p.regions.size(), 4u);  // bodies 0x1000, 0x2000, 0x3000 and the fork 0x700
}

}  // namespace
}  // namespace ompscope::analysis

TEST(EnclosingFunction, GccOutlinedBodiesAreNamedAfterTheirFunctionWithoutTheCloneSuffix) {
  EXPECT_EQ(ompscope::analysis::enclosing_function("solve._omp_fn.2"), "solve");
  EXPECT_EQ(ompscope::analysis::enclosing_function("_ZL20CalcPressureForElemsPdi._omp_fn.0"), "CalcPressureForElems(double*, int)");
  EXPECT_EQ(ompscope::analysis::enclosing_function("_Z5solvev"), "solve()");
  EXPECT_EQ(ompscope::analysis::enclosing_function(".omp_outlined."), ".omp_outlined.");
}
