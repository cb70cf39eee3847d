// read_run_log / read_thread_events / read_run_meta on log files written to a temporary
// directory: valid logs, a crashed program's zero tail, and every kind of corruption, each of
// which must throw ompscope::Error naming the file (and the line, for meta.txt).
#include "analysis/run_log.h"

#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/event_record.h"
#include "analysis/pipeline.h"

namespace ompscope::analysis {
namespace {
namespace fs = std::filesystem;

constexpr const char* kValidMeta =
    "ompscope-log 1\n"
    "pid 4242\n"
    "runtime LLVM OMP version: 5.0.20140926\n"
    "clock monotonic\n"
    "clock_start 1000 1000\n"
    "omp_version 201611\n"
    "callback thread_begin 5\n"
    "callback dispatch 1\n"
    "module 0 400000 401000 /bin/app\n"
    "module 0 400000 401000 /bin/app\n"
    "module 7f0000000000 7f0000001000 7f0000009000 /usr/lib/libomp.so.5\n"
    "initialized\n"
    "\n"
    "threads 2\n"
    "dropped 3\n"
    "clock_end 9000 9000\n"
    "finalized\n";

class RunLogFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(::testing::TempDir()) /
           (std::string("ompscope-run-log-") + info->name() + "-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write_text(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }

  static LogFileHeader header(uint32_t thread_index) {
    LogFileHeader h{};
    memcpy(h.magic, kLogMagic, sizeof h.magic);
    h.version = kLogVersion;
    h.record_size = sizeof(Event);
    h.thread_index = thread_index;
    h.pid = 4242;
    return h;
  }

  static Event ev(uint64_t time, EventKind kind, uint32_t id = 0) { return Event{time, 0x10, id, 0, 0, 0, kind, 0}; }

  // Header, then the records, then `extra` raw bytes (e.g. half a record).
  fs::path write_events(const std::string& name, const LogFileHeader& h, const std::vector<Event>& events,
                        const std::string& extra = "") {
    const fs::path p = dir_ / name;
    std::ofstream out(p, std::ios::binary);
    out.write(reinterpret_cast<const char*>(&h), sizeof h);
    out.write(reinterpret_cast<const char*>(events.data()), static_cast<std::streamsize>(events.size() * sizeof(Event)));
    out << extra;
    return p;
  }

  fs::path dir_;
};

// Runs `statement`, expects ompscope::Error, and checks that its message holds every fragment.
#define EXPECT_ERROR_NAMING(statement, ...)                                                         \
  do {                                                                                              \
    try {                                                                                           \
      statement;                                                                                    \
      ADD_FAILURE() << "no ompscope::Error from " #statement;                                       \
    } catch (const ::ompscope::Error& error) {                                                      \
      for (const std::string& fragment : std::vector<std::string>{__VA_ARGS__})                     \
        EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos)                      \
            << "message: " << error.what() << "\nmissing: " << fragment;                            \
    }                                                                                               \
  } while (0)

// --- meta.txt ----------------------------------------------------------------------------------

TEST_F(RunLogFiles, MetaIsParsed) {
  const RunMeta m = read_run_meta(write_text("meta.txt", kValidMeta));
  EXPECT_EQ(m.version, 1u);
  EXPECT_EQ(m.pid, 4242);
  EXPECT_EQ(m.runtime, "LLVM OMP version: 5.0.20140926");
  EXPECT_EQ(m.clock, "monotonic");
  EXPECT_EQ(m.clock_start.ticks, 1000u);
  EXPECT_EQ(m.clock_start.ns, 1000u);
  EXPECT_EQ(m.clock_end.ticks, 9000u);
  EXPECT_TRUE(m.initialized);
  EXPECT_TRUE(m.finalized);
  EXPECT_EQ(m.dropped_events, 3u);
  ASSERT_EQ(m.callbacks.size(), 2u);
  EXPECT_TRUE(m.callback_active("thread_begin"));
  EXPECT_FALSE(m.callback_active("dispatch"));  // ompt_set_never
  EXPECT_FALSE(m.callback_active("never_registered"));
  ASSERT_EQ(m.modules.size(), 2u);  // the repeated line is one module
  EXPECT_EQ(m.modules[0].path, "/bin/app");
  EXPECT_EQ(m.modules[0].begin, 0x400000u);
  EXPECT_EQ(m.modules[0].end, 0x401000u);
  EXPECT_EQ(m.modules[1].load_bias, 0x7f0000000000u);
  EXPECT_EQ(m.modules[1].path, "/usr/lib/libomp.so.5");
}

TEST_F(RunLogFiles, MetaCarriesTheLaunchersRank) {
  EXPECT_EQ(read_run_meta(write_text("meta.txt", kValidMeta)).rank, -1);  // not an MPI rank
  const std::string ranked = std::string(kValidMeta).replace(std::string(kValidMeta).find("runtime"), 0,
                                                             "rank 1 2 0 OMPI_COMM_WORLD_RANK\n");
  const RunMeta m = read_run_meta(write_text("meta.txt", ranked));
  EXPECT_EQ(m.rank, 1);
  EXPECT_EQ(m.ranks, 2);
  EXPECT_EQ(m.local_rank, 0);
}

TEST_F(RunLogFiles, MetaCarriesTheRealtimeOffsetOfTheMonotonicClock) {
  // A job's trace puts its ranks on CLOCK_REALTIME (docs/mpi.md, "Traces of a job").
  EXPECT_FALSE(read_run_meta(write_text("meta.txt", kValidMeta)).realtime_known);
  const std::string with = std::string(kValidMeta) + "clock_realtime 1700000000000005000 5000\n";
  const RunMeta m = read_run_meta(write_text("meta.txt", with));
  EXPECT_TRUE(m.realtime_known);
  EXPECT_EQ(m.realtime_offset_ns, 1700000000000000000);
}

TEST_F(RunLogFiles, MetaCarriesTheMachinesCheapestPageFault) {
  // capture/thread_usage.h: calibrate_page_fault_floor; an older log has none (0).
  EXPECT_EQ(read_run_meta(write_text("meta.txt", kValidMeta)).page_fault_floor_ticks, 0u);
  const RunMeta m = read_run_meta(write_text("meta.txt", std::string(kValidMeta) + "page_fault_floor 850\n"));
  EXPECT_EQ(m.page_fault_floor_ticks, 850u);
}

TEST_F(RunLogFiles, MalformedMetaLineNamesFileAndLine) {
  const std::string head = "ompscope-log 1\nclock monotonic\n";
  const struct {
    const char* line;
    const char* why;
  } cases[] = {
      {"clock_start 1000\n", "clock point needs ticks and ns"},
      {"clock_end many ns\n", "clock point needs ticks and ns"},
      {"callback thread_begin\n", "callback needs a name and a result"},
      {"module 0 zz\n", "module needs three addresses"},
      {"clock sundial\n", "unknown clock 'sundial'"},
      {"rank 1 2\n", "rank needs the rank, the job's size and the local rank"},
      {"clock_realtime 17\n", "clock_realtime needs the realtime and the monotonic ns"},
      {"rank -1 2 0 OMPI_COMM_WORLD_RANK\n", "rank needs the rank, the job's size and the local rank"},
      {"page_fault_floor fast\n", "page_fault_floor needs a tick count"},
  };
  for (const auto& c : cases) {
    const fs::path p = write_text("meta.txt", head + c.line + "clock_start 1 1\n");
    EXPECT_ERROR_NAMING(read_run_meta(p), p.string() + ":3:", c.why);
  }
}

TEST_F(RunLogFiles, MetaMustStartWithItsMagicLine) {
  const fs::path p = write_text("meta.txt", "pid 12\nompscope-log 1\n");
  EXPECT_ERROR_NAMING(read_run_meta(p), p.string() + ":1:", "ompscope-log");
  const fs::path q = write_text("meta.txt", "ompscope-log\n");
  EXPECT_ERROR_NAMING(read_run_meta(q), q.string() + ":1:", "missing version");
}

TEST_F(RunLogFiles, MetaOfAnotherFormatVersionIsRefused) {
  const fs::path p = write_text("meta.txt", "ompscope-log 2\nclock monotonic\nclock_start 1 1\n");
  EXPECT_ERROR_NAMING(read_run_meta(p), p.string(), "version 2");
}

TEST_F(RunLogFiles, MetaWithoutClockCalibrationOrEmptyIsRefused) {
  const fs::path p = write_text("meta.txt", "ompscope-log 1\npid 3\n");
  EXPECT_ERROR_NAMING(read_run_meta(p), p.string(), "no clock calibration point");
  const fs::path q = write_text("meta.txt", "");
  EXPECT_ERROR_NAMING(read_run_meta(q), q.string(), "empty");
}

TEST_F(RunLogFiles, MissingMetaIsAnError) {
  EXPECT_ERROR_NAMING(read_run_meta(dir_ / "meta.txt"), (dir_ / "meta.txt").string(), "cannot read");
  write_events("thread-0000.evt", header(0), {ev(1000, EventKind::ThreadBegin)});
  EXPECT_ERROR_NAMING(read_run_log(dir_), (dir_ / "meta.txt").string());
}

TEST_F(RunLogFiles, MissingDirectoryIsAnError) {
  EXPECT_ERROR_NAMING(read_run_log(dir_ / "nope"), (dir_ / "nope").string(), "no such log directory");
}

// --- thread-NNNN.evt ---------------------------------------------------------------------------

TEST_F(RunLogFiles, ValidThreadFile) {
  const fs::path p = write_events("thread-0003.evt", header(3),
                                  {ev(1000, EventKind::ThreadBegin), ev(1500, EventKind::ParallelBegin, 7),
                                   ev(1500, EventKind::ParallelEnd, 7), ev(2000, EventKind::ThreadEnd)});
  const ThreadEvents t = read_thread_events(p);
  EXPECT_EQ(t.thread_index, 3u);
  ASSERT_EQ(t.events.size(), 4u);
  EXPECT_EQ(t.events[1].kind, EventKind::ParallelBegin);
  EXPECT_EQ(t.events[1].id, 7u);
  EXPECT_EQ(t.events[1].time, 1500u);  // equal times are not going backwards
  EXPECT_EQ(t.events[3].kind, EventKind::ThreadEnd);
}

TEST_F(RunLogFiles, ZeroTailOfACrashedProgramIsReadUpToTheEndMarker) {
  // The capture pre-sizes its chunk: a program that died leaves zero-filled records after its last one.
  std::vector<Event> records = {ev(1000, EventKind::ThreadBegin), ev(1100, EventKind::ParallelBegin, 7),
                                ev(1200, EventKind::SyncBegin)};
  records.resize(records.size() + 5, Event{});
  const ThreadEvents t = read_thread_events(write_events("thread-0000.evt", header(0), records));
  ASSERT_EQ(t.events.size(), 3u);
  EXPECT_EQ(t.events.back().kind, EventKind::SyncBegin);
}

TEST_F(RunLogFiles, HeaderOnlyFileHasNoEvents) {
  EXPECT_TRUE(read_thread_events(write_events("thread-0000.evt", header(0), {})).events.empty());
}

TEST_F(RunLogFiles, BadMagicIsRefused) {
  LogFileHeader h = header(0);
  h.magic[0] = 'X';
  const fs::path p = write_events("thread-0000.evt", h, {ev(1, EventKind::ThreadBegin)});
  EXPECT_ERROR_NAMING(read_thread_events(p), p.string(), "bad magic");
}

TEST_F(RunLogFiles, WrongVersionOrRecordSizeIsRefused) {
  LogFileHeader h = header(0);
  h.version = kLogVersion + 1;
  const fs::path p = write_events("thread-0000.evt", h, {ev(1, EventKind::ThreadBegin)});
  EXPECT_ERROR_NAMING(read_thread_events(p), p.string(), "version " + std::to_string(kLogVersion + 1));
  LogFileHeader g = header(0);
  g.record_size = 24;
  const fs::path q = write_events("thread-0001.evt", g, {ev(1, EventKind::ThreadBegin)});
  EXPECT_ERROR_NAMING(read_thread_events(q), q.string(), "24-byte records");
}

TEST_F(RunLogFiles, FileShorterThanItsHeaderIsRefused) {
  const fs::path p = write_text("thread-0000.evt", "OMPSCEVT");
  EXPECT_ERROR_NAMING(read_thread_events(p), p.string(), "truncated");
}

TEST_F(RunLogFiles, RecordCutInHalfIsRefused) {
  const fs::path p = write_events("thread-0000.evt", header(0), {ev(1, EventKind::ThreadBegin)},
                                  std::string(sizeof(Event) / 2, '\x01'));
  EXPECT_ERROR_NAMING(read_thread_events(p), p.string(), "truncated", "record 1");
}

TEST_F(RunLogFiles, UnknownKindIsRefused) {
  Event bad = ev(2, EventKind::ThreadBegin);
  bad.kind = EventKind::Count;
  const fs::path p = write_events("thread-0000.evt", header(0), {ev(1, EventKind::ThreadBegin), bad});
  EXPECT_ERROR_NAMING(read_thread_events(p), p.string(), "record 1", "unknown kind " +
                                                                         std::to_string(int(EventKind::Count)));
}

TEST_F(RunLogFiles, TimeGoingBackwardsIsRefused) {
  const fs::path p = write_events("thread-0000.evt", header(0),
                                  {ev(100, EventKind::ThreadBegin), ev(200, EventKind::ParallelBegin),
                                   ev(150, EventKind::ParallelEnd)});
  EXPECT_ERROR_NAMING(read_thread_events(p), p.string(), "record 2", "back in time");
}

TEST_F(RunLogFiles, NonZeroRecordAfterTheEndMarkerIsRefused) {
  const fs::path p = write_events("thread-0000.evt", header(0),
                                  {ev(100, EventKind::ThreadBegin), Event{}, Event{}, ev(300, EventKind::ThreadEnd)});
  EXPECT_ERROR_NAMING(read_thread_events(p), p.string(), "record 3", "end marker");
}

// --- the whole directory -----------------------------------------------------------------------

TEST_F(RunLogFiles, ValidLogDirectory) {
  write_text("meta.txt", kValidMeta);
  // Written out of order; another file in the directory is not a thread log.
  write_events("thread-0001.evt", header(1), {ev(1500, EventKind::ThreadBegin), ev(2500, EventKind::ThreadEnd)});
  write_events("thread-0000.evt", header(0),
               {ev(1000, EventKind::ThreadBegin), ev(1200, EventKind::ParallelBegin, 7), ev(3000, EventKind::ThreadEnd)});
  write_text("report.json", "{}");
  const RunLog log = read_run_log(dir_);
  EXPECT_EQ(log.directory.string(), dir_.string());
  EXPECT_EQ(log.meta.pid, 4242);
  ASSERT_EQ(log.threads.size(), 2u);
  EXPECT_EQ(log.threads[0].thread_index, 0u);
  EXPECT_EQ(log.threads[0].events.size(), 3u);
  EXPECT_EQ(log.threads[1].thread_index, 1u);
  EXPECT_EQ(log.event_count(), 5u);
  EXPECT_EQ(log.last_ticks(), 9000u);  // finalize's clock point comes after the last event
  // Monotonic clock: ticks are ns; time 0 is the clock start.
  EXPECT_DOUBLE_EQ(log.ticks_per_second, 1e9);
  EXPECT_EQ(log.origin_ticks, 1000u);
  EXPECT_DOUBLE_EQ(log.seconds(1200), 200e-9);
  EXPECT_DOUBLE_EQ(log.duration(1200, 3000), 1800e-9);
}

TEST_F(RunLogFiles, TscClockIsCalibratedFromTheTwoClockPoints) {
  // 3e9 ticks over 1 s of CLOCK_MONOTONIC: 3 GHz.
  write_text("meta.txt",
             "ompscope-log 1\nclock tsc\nclock_start 1000 1000000000\nclock_end 3000001000 2000000000\nfinalized\n");
  write_events("thread-0000.evt", header(0), {ev(1000, EventKind::ThreadBegin), ev(3000001000, EventKind::ThreadEnd)});
  const RunLog log = read_run_log(dir_);
  EXPECT_DOUBLE_EQ(log.ticks_per_second, 3e9);
  EXPECT_EQ(log.origin_ticks, 1000u);
  EXPECT_DOUBLE_EQ(log.seconds(3000001000), 1.0);
}

TEST_F(RunLogFiles, TscLogOfACrashedProgramNeedsTheLaunchersClockPoint) {
  write_text("meta.txt", "ompscope-log 1\nclock tsc\nclock_start 1000 1000000000\n");
  write_events("thread-0000.evt", header(0), {ev(1000, EventKind::ThreadBegin), ev(1001000, EventKind::SyncBegin)});
  EXPECT_ERROR_NAMING(read_run_log(dir_), dir_.string(), "calibrated");
  const ClockPoint after{6000001000, 3000000000};  // 6e9 ticks over 2 s
  const RunLog log = read_run_log(dir_, {std::nullopt, after});
  EXPECT_DOUBLE_EQ(log.ticks_per_second, 3e9);
  EXPECT_FALSE(log.meta.finalized);
  EXPECT_EQ(log.last_ticks(), 1001000u);  // no finalize point: the last event
}

TEST_F(RunLogFiles, TscLogOfAProgramShorterThanAMillisecondIsCalibratedFromTheLaunchersPoints) {
  // The tool's own points are 0.5 ms apart (too short to calibrate); the launcher's points,
  // taken before the program started and after it ended, span 2 ms at 3 GHz. The origin stays
  // the tool's start.
  write_text("meta.txt",
             "ompscope-log 1\nclock tsc\nclock_start 3000000 1001000000\nclock_end 4500000 1001500000\nfinalized\n");
  write_events("thread-0000.evt", header(0), {ev(3000000, EventKind::ThreadBegin), ev(4500000, EventKind::SyncBegin)});
  const ClockPoint after{4500000, 1001500000};
  EXPECT_ERROR_NAMING(read_run_log(dir_, {std::nullopt, after}), dir_.string(), "calibrated");
  const ClockPoint before{0, 1000000000};
  const ClockPoint later{6000000, 1002000000};
  const RunLog log = read_run_log(dir_, {before, later});
  EXPECT_DOUBLE_EQ(log.ticks_per_second, 3e9);
  EXPECT_EQ(log.origin_ticks, 3000000u);
}

TEST_F(RunLogFiles, ALaterProcessCalibratesOnTheLaunchersPointsButStartsWhereItsToolDid) {
  // A script's second program (e2e_processes, "script"): it started 40 ms after the launch, ran
  // 0.5 ms and ended 0.2 ms before the launcher's end point, so neither its own pair nor its
  // start with the launcher's end spans a millisecond. Before, it was "not read" (the TSC cannot
  // be calibrated) and its regions vanished from the report, one run in ten.
  write_text("meta.txt",
             "ompscope-log 1\nclock tsc\nclock_start 120000000 1040000000\nclock_end 121500000 1040500000\nfinalized\n");
  write_events("thread-0000.evt", header(0), {ev(120000000, EventKind::ThreadBegin), ev(121500000, EventKind::ThreadEnd)});
  const LaunchClock launch{ClockPoint{0, 1000000000}, ClockPoint{122100000, 1040700000}};
  EXPECT_ERROR_NAMING(read_run_log(dir_, {std::nullopt, launch.end}), dir_.string(), "calibrated");
  const LoadedRun child = load_run(dir_, launch);
  EXPECT_DOUBLE_EQ(child.log.ticks_per_second, 3e9);
  EXPECT_DOUBLE_EQ(child.timeline.start, 0.0);  // its own start, not 40 ms before it
  const LoadedRun own = load_run(dir_, launch, true);
  EXPECT_NEAR(own.timeline.start, -0.04, 1e-9);  // the program's own process starts at the launch
}

TEST_F(RunLogFiles, ThreadIndexBeyondWhatTheToolCanWriteIsRefused) {
  // The fuzzer's find: a header claiming thread 151 000 000 sized a per-thread table at 3.6 GB.
  const fs::path p = write_events("thread-0000.evt", header(151000000), {ev(1, EventKind::ThreadBegin)});
  EXPECT_ERROR_NAMING(read_thread_events(p), p.string(), "thread index 151000000");
  const fs::path last = write_events("thread-0001.evt", header(kMaxThreadLogs - 1), {ev(1, EventKind::ThreadBegin)});
  EXPECT_EQ(read_thread_events(last).thread_index, kMaxThreadLogs - 1);
  // An empty file's index is its name's.
  const fs::path empty = write_events("thread-9999999999.evt", header(0), {});
  fs::resize_file(empty, 0);
  write_text("meta.txt", kValidMeta);
  fs::remove(p);
  fs::remove(last);
  EXPECT_ERROR_NAMING(read_run_log(dir_), empty.string(), "at most 4096 threads");
}

TEST_F(RunLogFiles, TwoFilesOfOneThreadAreRefused) {
  write_text("meta.txt", kValidMeta);
  write_events("thread-0000.evt", header(0), {ev(1000, EventKind::ThreadBegin)});
  write_events("thread-0001.evt", header(0), {ev(1000, EventKind::ThreadBegin)});
  EXPECT_ERROR_NAMING(read_run_log(dir_), dir_.string(), "two thread files hold thread 0");
}

TEST_F(RunLogFiles, CorruptThreadFileFailsTheWholeLog) {
  write_text("meta.txt", kValidMeta);
  LogFileHeader h = header(0);
  h.magic[7] = '?';
  write_events("thread-0000.evt", h, {ev(1000, EventKind::ThreadBegin)});
  EXPECT_ERROR_NAMING(read_run_log(dir_), (dir_ / "thread-0000.evt").string(), "bad magic");
}

}  // namespace
}  // namespace ompscope::analysis
