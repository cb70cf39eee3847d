// The OTF2 writer on the hand-built run, read back with OTF2's own reader: the exact events per
// location, the definitions, and the refusal to write over an archive.
#include "output/otf2_trace.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <otf2/otf2.h>
#include <unistd.h>

#include <map>

#include "common/error.h"
#include "trace_fixture.h"

namespace ompscope::trace_test {
namespace {

namespace fs = std::filesystem;

struct ReadBack {
  std::map<OTF2_StringRef, std::string> strings;
  std::map<OTF2_RegionRef, std::string> regions;
  std::map<OTF2_RegionRef, OTF2_RegionRole> roles;
  std::map<OTF2_LocationRef, uint64_t> location_events;
  std::map<OTF2_LocationRef, OTF2_LocationGroupRef> location_group;
  std::map<OTF2_LocationGroupRef, std::string> location_groups;
  std::map<OTF2_CommRef, OTF2_GroupRef> comms;
  std::map<OTF2_GroupRef, std::vector<uint64_t>> groups;
  uint64_t resolution = 0, offset = 0, length = 0;
  std::map<OTF2_LocationRef, std::vector<std::string>> events;  // "time kind detail"

  void add(OTF2_LocationRef loc, OTF2_TimeStamp t, const std::string& what) {
    events[loc].push_back(fmt::format("{} {}", t - 1'000'000, what));
  }
};

ReadBack& rb(void* p) { return *static_cast<ReadBack*>(p); }

OTF2_CallbackCode on_string(void* d, OTF2_StringRef self, const char* s) {
  rb(d).strings[self] = s;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_region(void* d, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_StringRef,
                            OTF2_RegionRole role, OTF2_Paradigm, OTF2_RegionFlag, OTF2_StringRef, uint32_t, uint32_t) {
  rb(d).regions[self] = rb(d).strings[name];
  rb(d).roles[self] = role;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_location(void* d, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType, uint64_t events,
                              OTF2_LocationGroupRef group) {
  rb(d).location_events[self] = events;
  rb(d).location_group[self] = group;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_location_group(void* d, OTF2_LocationGroupRef self, OTF2_StringRef name, OTF2_LocationGroupType,
                                    OTF2_SystemTreeNodeRef, OTF2_LocationGroupRef) {
  rb(d).location_groups[self] = rb(d).strings[name];
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_clock(void* d, uint64_t resolution, uint64_t offset, uint64_t length, uint64_t) {
  rb(d).resolution = resolution;
  rb(d).offset = offset;
  rb(d).length = length;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_group(void* d, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType, OTF2_Paradigm, OTF2_GroupFlag,
                           uint32_t n, const uint64_t* members) {
  rb(d).groups[self] = std::vector<uint64_t>(members, members + n);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_comm(void* d, OTF2_CommRef self, OTF2_StringRef, OTF2_GroupRef group, OTF2_CommRef, OTF2_CommFlag) {
  rb(d).comms[self] = group;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_enter(OTF2_LocationRef l, OTF2_TimeStamp t, void* d, OTF2_AttributeList*, OTF2_RegionRef r) {
  rb(d).add(l, t, "Enter " + rb(d).regions[r]);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_leave(OTF2_LocationRef l, OTF2_TimeStamp t, void* d, OTF2_AttributeList*, OTF2_RegionRef r) {
  rb(d).add(l, t, "Leave " + rb(d).regions[r]);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_fork(OTF2_LocationRef l, OTF2_TimeStamp t, void* d, OTF2_AttributeList*, OTF2_Paradigm, uint32_t n) {
  rb(d).add(l, t, fmt::format("ThreadFork {}", n));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_join(OTF2_LocationRef l, OTF2_TimeStamp t, void* d, OTF2_AttributeList*, OTF2_Paradigm) {
  rb(d).add(l, t, "ThreadJoin");
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_team_begin(OTF2_LocationRef l, OTF2_TimeStamp t, void* d, OTF2_AttributeList*, OTF2_CommRef c) {
  rb(d).add(l, t, fmt::format("ThreadTeamBegin {}", c));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_team_end(OTF2_LocationRef l, OTF2_TimeStamp t, void* d, OTF2_AttributeList*, OTF2_CommRef c) {
  rb(d).add(l, t, fmt::format("ThreadTeamEnd {}", c));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_acquire(OTF2_LocationRef l, OTF2_TimeStamp t, void* d, OTF2_AttributeList*, OTF2_Paradigm,
                             uint32_t lock, uint32_t order) {
  rb(d).add(l, t, fmt::format("ThreadAcquireLock {} {}", lock, order));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_release(OTF2_LocationRef l, OTF2_TimeStamp t, void* d, OTF2_AttributeList*, OTF2_Paradigm,
                             uint32_t lock, uint32_t order) {
  rb(d).add(l, t, fmt::format("ThreadReleaseLock {} {}", lock, order));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_task_create(OTF2_LocationRef l, OTF2_TimeStamp t, void* d, OTF2_AttributeList*, OTF2_CommRef c,
                                 uint32_t thread, uint32_t gen) {
  rb(d).add(l, t, fmt::format("ThreadTaskCreate {} {} {}", c, thread, gen));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_task_switch(OTF2_LocationRef l, OTF2_TimeStamp t, void* d, OTF2_AttributeList*, OTF2_CommRef c,
                                 uint32_t thread, uint32_t gen) {
  rb(d).add(l, t, fmt::format("ThreadTaskSwitch {} {} {}", c, thread, gen));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_task_complete(OTF2_LocationRef l, OTF2_TimeStamp t, void* d, OTF2_AttributeList*, OTF2_CommRef c,
                                   uint32_t thread, uint32_t gen) {
  rb(d).add(l, t, fmt::format("ThreadTaskComplete {} {} {}", c, thread, gen));
  return OTF2_CALLBACK_SUCCESS;
}

ReadBack read_archive(const fs::path& anchor) {
  ReadBack data;
  OTF2_Reader* reader = OTF2_Reader_Open(anchor.c_str());
  EXPECT_NE(reader, nullptr);
  if (!reader) return data;
  OTF2_Reader_SetSerialCollectiveCallbacks(reader);
  OTF2_GlobalDefReader* gdr = OTF2_Reader_GetGlobalDefReader(reader);
  OTF2_GlobalDefReaderCallbacks* dcb = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(dcb, on_string);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(dcb, on_region);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dcb, on_location);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(dcb, on_location_group);
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(dcb, on_clock);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(dcb, on_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(dcb, on_comm);
  OTF2_Reader_RegisterGlobalDefCallbacks(reader, gdr, dcb, &data);
  uint64_t n = 0;
  EXPECT_EQ(OTF2_Reader_ReadAllGlobalDefinitions(reader, gdr, &n), OTF2_SUCCESS);
  OTF2_GlobalDefReaderCallbacks_Delete(dcb);
  OTF2_Reader_CloseGlobalDefReader(reader, gdr);

  for (const auto& [loc, events] : data.location_events) OTF2_Reader_SelectLocation(reader, loc);
  OTF2_Reader_OpenDefFiles(reader);
  OTF2_Reader_OpenEvtFiles(reader);
  for (const auto& [loc, events] : data.location_events) {
    OTF2_DefReader* dr = OTF2_Reader_GetDefReader(reader, loc);
    if (dr) {
      uint64_t d = 0;
      OTF2_Reader_ReadAllLocalDefinitions(reader, dr, &d);
      OTF2_Reader_CloseDefReader(reader, dr);
    }
    OTF2_Reader_GetEvtReader(reader, loc);
  }
  OTF2_Reader_CloseDefFiles(reader);
  OTF2_GlobalEvtReader* ger = OTF2_Reader_GetGlobalEvtReader(reader);
  OTF2_GlobalEvtReaderCallbacks* ecb = OTF2_GlobalEvtReaderCallbacks_New();
  OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(ecb, on_enter);
  OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(ecb, on_leave);
  OTF2_GlobalEvtReaderCallbacks_SetThreadForkCallback(ecb, on_fork);
  OTF2_GlobalEvtReaderCallbacks_SetThreadJoinCallback(ecb, on_join);
  OTF2_GlobalEvtReaderCallbacks_SetThreadTeamBeginCallback(ecb, on_team_begin);
  OTF2_GlobalEvtReaderCallbacks_SetThreadTeamEndCallback(ecb, on_team_end);
  OTF2_GlobalEvtReaderCallbacks_SetThreadAcquireLockCallback(ecb, on_acquire);
  OTF2_GlobalEvtReaderCallbacks_SetThreadReleaseLockCallback(ecb, on_release);
  OTF2_GlobalEvtReaderCallbacks_SetThreadTaskCreateCallback(ecb, on_task_create);
  OTF2_GlobalEvtReaderCallbacks_SetThreadTaskSwitchCallback(ecb, on_task_switch);
  OTF2_GlobalEvtReaderCallbacks_SetThreadTaskCompleteCallback(ecb, on_task_complete);
  OTF2_Reader_RegisterGlobalEvtCallbacks(reader, ger, ecb, &data);
  EXPECT_EQ(OTF2_Reader_ReadAllGlobalEvents(reader, ger, &n), OTF2_SUCCESS);
  OTF2_GlobalEvtReaderCallbacks_Delete(ecb);
  OTF2_Reader_CloseGlobalEvtReader(reader, ger);
  OTF2_Reader_CloseEvtFiles(reader);
  OTF2_Reader_Close(reader);
  return data;
}

class Otf2TraceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           fmt::format("ompscope-otf2-test-{}-{}", getpid(), ::testing::UnitTest::GetInstance()->random_seed());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(Otf2TraceTest, AJobsRanksAreOneArchiveWithALocationGroupPerRank) {
  // Rank 1 ran the same program; its CLOCK_MONOTONIC origin is 500 ns after rank 0's and its
  // realtime offset 250 ns larger, so its events are 750 ns later on the archive's time axis.
  const analysis::TraceModel zero = two_thread_model();
  analysis::TraceModel one = two_thread_model();
  one.origin_ns += 500;
  const output::Otf2Result result =
      output::write_otf2_job_trace({{0, &zero, 1000}, {1, &one, 1250}}, dir_ / "trace", "job");
  EXPECT_EQ(result.locations, 4u);
  const ReadBack data = read_archive(result.anchor);
  const OTF2_LocationRef rank1 = OTF2_LocationRef{1} << 32;
  EXPECT_EQ(data.location_group, (std::map<OTF2_LocationRef, OTF2_LocationGroupRef>{
                                     {0, 0}, {1, 0}, {rank1, 1}, {rank1 | 1, 1}}));
  ASSERT_EQ(data.location_groups.size(), 2u);
  EXPECT_EQ(data.location_groups.at(0), fmt::format("rank 0 (process {})", zero.pid));
  EXPECT_EQ(data.location_groups.at(1), fmt::format("rank 1 (process {})", one.pid));
  // The regions are defined once for both ranks.
  EXPECT_EQ(data.regions.size(), zero.regions.size());
  // Each rank's events, on one time axis: rank 1's 750 ns after rank 0's; its thread teams are
  // its own communicators, after rank 0's.
  const auto& first0 = data.events.at(0);
  const auto& first1 = data.events.at(rank1);
  ASSERT_EQ(first0.size(), first1.size());
  EXPECT_EQ(first0[0], "2000 ThreadFork 2");
  EXPECT_EQ(first1[0], "2750 ThreadFork 2");
  EXPECT_EQ(first0[2], "2000 ThreadTeamBegin 1");
  EXPECT_EQ(first1[2], fmt::format("2750 ThreadTeamBegin {}", zero.teams.size() + 1));
  EXPECT_EQ(data.comms.size(), 2 * zero.teams.size());
  EXPECT_EQ(data.location_events.at(rank1), data.location_events.at(0));
}

TEST_F(Otf2TraceTest, AJobWithoutRanksIsRefused) {
  EXPECT_THROW(output::write_otf2_job_trace({}, dir_ / "trace"), Error);
}

TEST_F(Otf2TraceTest, WritesTheExactEventsOfEachLocation) {
  const output::Otf2Result result = output::write_otf2_trace(two_thread_model(), dir_ / "trace", "test");
  EXPECT_EQ(result.anchor, dir_ / "trace" / "traces.otf2");
  EXPECT_EQ(result.locations, 2u);
  const ReadBack data = read_archive(result.anchor);
  // Times are ns after the run's origin (1,000,000 ns of CLOCK_MONOTONIC in the fixture).
  const std::vector<std::string> master = {
      "1000 ThreadFork 2",
      "1000 Enter parallel main@t.c:10",
      "1000 ThreadTeamBegin 1",
      "3000 Enter create task work@t.c:20",
      "3000 ThreadTaskCreate 1 0 1",
      "3000 Leave create task work@t.c:20",
      "6000 Enter loop main@t.c:40",
      "13000 Enter wait critical main@t.c:30",
      "13500 Leave wait critical main@t.c:30",
      "13500 Enter critical main@t.c:30",
      "13500 ThreadAcquireLock 0 1",
      "14000 ThreadReleaseLock 0 1",
      "14000 Leave critical main@t.c:30",
      "14500 Leave loop main@t.c:40",
      "15000 Enter join barrier",
      "19500 Leave join barrier",
      "20000 ThreadTeamEnd 1",
      "20000 Leave parallel main@t.c:10",
      "20000 ThreadJoin",
  };
  const std::vector<std::string> worker = {
      "2000 Enter parallel main@t.c:10",
      "2000 ThreadTeamBegin 1",
      "4000 Enter join barrier",
      "5000 ThreadTaskSwitch 1 0 1",
      "5000 Enter task work@t.c:20",
      "12000 Leave task work@t.c:20",
      "12000 ThreadTaskComplete 1 0 1",
      "12000 ThreadTaskSwitch 1 1 0",  // back to thread 1's implicit task
      "20000 Leave join barrier",
      "20000 ThreadTeamEnd 1",
      "20000 Leave parallel main@t.c:10",
  };
  EXPECT_EQ(data.events.at(0), master);
  EXPECT_EQ(data.events.at(1), worker);
  EXPECT_EQ(data.location_events.at(0), master.size());
  EXPECT_EQ(data.location_events.at(1), worker.size());
  EXPECT_EQ(result.events, master.size() + worker.size());
}

TEST_F(Otf2TraceTest, DefinesTheClockRegionRolesAndThreadTeams) {
  const output::Otf2Result result = output::write_otf2_trace(two_thread_model(), dir_ / "trace");
  const ReadBack data = read_archive(result.anchor);
  EXPECT_EQ(data.resolution, 1'000'000'000u);
  EXPECT_EQ(data.offset, 1'000'000u);
  EXPECT_EQ(data.length, 21'000u);
  std::map<std::string, OTF2_RegionRole> role;
  for (const auto& [ref, name] : data.regions) role[name] = data.roles.at(ref);
  EXPECT_EQ(role.at("parallel main@t.c:10"), OTF2_REGION_ROLE_PARALLEL);
  EXPECT_EQ(role.at("join barrier"), OTF2_REGION_ROLE_IMPLICIT_BARRIER);
  EXPECT_EQ(role.at("task work@t.c:20"), OTF2_REGION_ROLE_TASK);
  EXPECT_EQ(role.at("create task work@t.c:20"), OTF2_REGION_ROLE_TASK_CREATE);
  EXPECT_EQ(role.at("critical main@t.c:30"), OTF2_REGION_ROLE_CRITICAL_SBLOCK);
  EXPECT_EQ(role.at("wait critical main@t.c:30"), OTF2_REGION_ROLE_CRITICAL);
  EXPECT_EQ(role.at("loop main@t.c:40"), OTF2_REGION_ROLE_LOOP);
  // Group 0: all threads; comm k → group k+1 of ranks in group 0.
  EXPECT_EQ(data.groups.at(0), (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ(data.comms.at(0), 1u);
  EXPECT_EQ(data.groups.at(1), std::vector<uint64_t>{0});
  EXPECT_EQ(data.comms.at(1), 2u);
  EXPECT_EQ(data.groups.at(2), (std::vector<uint64_t>{0, 1}));
}

TEST_F(Otf2TraceTest, RefusesToWriteOverAnExistingArchive) {
  fs::create_directories(dir_ / "trace");
  EXPECT_THROW(output::write_otf2_trace(two_thread_model(), dir_ / "trace"), Error);
}

}  // namespace
}  // namespace ompscope::trace_test
