// The streamed reading of a log (scan_thread_events, for_each_block, read_run_log with
// LogReading::stream): the records it hands out are the file's, in order, whatever the block
// size; a timeline built from a streamed log is the one built from the same log in memory, down to
// the last bit of every time; a file cut short or changed between the checking read and the walk
// is an error naming it.
#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "analysis/run_log.h"
#include "analysis/timeline.h"
#include "common/error.h"
#include "common/event_record.h"
#include "event_log_builder.h"
#include "scenarios.h"
#include "task_scenarios.h"

namespace ompscope::analysis {
namespace {
namespace fs = std::filesystem;

class LogStream : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(::testing::TempDir()) / (std::string("ompscope-log-stream-") + info->name() + "-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static LogFileHeader header(uint32_t thread_index) {
    LogFileHeader h{};
    memcpy(h.magic, kLogMagic, sizeof h.magic);
    h.version = kLogVersion;
    h.record_size = sizeof(Event);
    h.thread_index = thread_index;
    h.pid = 4242;
    return h;
  }

  fs::path write_events(const fs::path& p, uint32_t thread_index, const std::vector<Event>& events,
                        const std::string& extra = "") {
    std::ofstream out(p, std::ios::binary);
    const LogFileHeader h = header(thread_index);
    out.write(reinterpret_cast<const char*>(&h), sizeof h);
    out.write(reinterpret_cast<const char*>(events.data()), static_cast<std::streamsize>(events.size() * sizeof(Event)));
    out << extra;
    return p;
  }

  // The hand-built log as the tool would have left it: meta.txt and one file per thread.
  fs::path write_log(const RunLog& log, const std::string& name) {
    const fs::path d = dir_ / name;
    fs::create_directories(d);
    const RunMeta& m = log.meta;
    std::ofstream meta(d / kMetaFileName);
    meta << "ompscope-log " << kLogVersion << "\npid 4242\nruntime " << m.runtime << "\nclock " << m.clock
         << "\nclock_start " << m.clock_start.ticks << " " << m.clock_start.ns << "\ninitialized\n";
    if (m.lock_record_gap_ticks) meta << "lock_record_gap " << m.lock_record_gap_ticks << "\n";
    if (m.atomic_floor_ops) meta << "atomic_floor " << m.atomic_floor_ticks << " " << m.atomic_floor_ops << "\n";
    if (m.clock_end.ticks) meta << "clock_end " << m.clock_end.ticks << " " << m.clock_end.ns << "\nfinalized\n";
    for (const ThreadEvents& t : log.threads)
      write_events(d / fmt::format("{}{:04}{}", kThreadFilePrefix, t.thread_index, kThreadFileSuffix), t.thread_index,
                   t.events);
    return d;
  }

  // Many records of every kind the timeline reads, for the block boundaries to fall anywhere.
  static std::vector<Event> varied_records(size_t n) {
    std::vector<Event> out;
    for (size_t i = 0; i < n; ++i) {
      const auto kind = static_cast<EventKind>(1 + i % (static_cast<size_t>(EventKind::Count) - 1));
      out.push_back(Event{1000 + 7 * i, 0x400000 + i, static_cast<uint32_t>(i), static_cast<uint32_t>(i * 3),
                          static_cast<uint32_t>(i * 5), static_cast<uint16_t>(i), kind, static_cast<uint8_t>(i)});
    }
    return out;
  }

  fs::path dir_;
};

bool same_records(const std::vector<Event>& a, const std::vector<Event>& b) {
  return a.size() == b.size() && (a.empty() || memcmp(a.data(), b.data(), a.size() * sizeof(Event)) == 0);
}

std::vector<Event> streamed(const ThreadEvents& t) {
  std::vector<Event> out;
  for_each_event(t, [&](const Event& e) { out.push_back(e); });
  return out;
}

// Every field of the timeline the analyses read, times in full precision: equal text, equal timeline.
std::string dump(const Timeline& t) {
  std::string s = fmt::format("start {} end {} events {} light {} floor {} gap {} paused {} samples {}\n", t.start, t.end,
                              t.events, t.light_tasks, t.lock_correction.floor, t.lock_correction.tool_gap, t.paused.size(),
                              t.samples.size());
  for (const RegionInstance& r : t.regions) {
    s += fmt::format("region {} {:x} {:x} req {} team {} master {} parent {} [{}, {}] {} {}\n", r.parallel_id, r.codeptr,
                     r.body, r.requested_threads, r.team_size, r.master_thread, r.parent_parallel_id, r.begin, r.end,
                     r.complete, r.light);
    for (const ThreadInRegion& p : r.threads) {
      s += fmt::format(" part {} {} {} [{}, {}] begin {} lock {} outside {} done {} mpi {} usage {} {}\n", p.thread,
                       p.index, p.implicit_task, p.start, p.end, p.thread_begin, p.lock_wait, p.tasks_outside_syncs,
                       p.tasks_completed, p.mpi, p.usage().wall_s, p.usage().cpu_s);
      for (const SyncVisit& v : p.syncs)
        s += fmt::format("  sync {} {:x} [{}, {}] tasks {} loop {} {} {} nested {} task {} cpu {} off {}\n",
                         static_cast<int>(v.kind), v.codeptr, v.arrive, v.depart, v.tasks, v.follows_loop,
                         v.loop_iterations, v.loop_schedule, v.nested, v.task, v.readings().cpu, v.readings().off_cpu);
    }
  }
  for (const LockAcquisition& a : t.locks)
    s += fmt::format("lock {} {:x} {:x} {} in {} [{}, {}, {}] w {} slot {} scale {} caps {} {}\n", a.thread, a.wait_id,
                     a.codeptr, a.mutex_kind, a.parallel_id, a.request, a.acquired, a.released, a.weight,
                     a.sampling_slot, a.scale, a.wait_cap, a.hold_cap);
  for (const TaskInstance& k : t.tasks) {
    s += fmt::format("task {} w {} light {} {} parent {} in {} by {} {:x} flags {} [{}, {}]", k.id, k.weight, k.light,
                     k.light_children, k.parent, k.parallel_id, k.creator_thread, k.codeptr, k.flags, k.created,
                     k.completed);
    for (const TaskFragment& f : k.fragments) s += fmt::format(" ({} {} {})", f.thread, f.begin, f.end);
    for (const TaskDependenceItem& d : k.depends()) s += fmt::format(" dep {:x} {}", d.address, d.type);
    for (uint32_t p : k.runtime_predecessors()) s += fmt::format(" after {}", p);
    s += "\n";
  }
  // Worksharing spans and MPI calls each thread's in order, the threads' epoch by epoch of the walk
  // (Timeline::work): thread by thread here, as in a walk of one epoch.
  std::vector<WorkSpan> work = t.work;
  std::stable_sort(work.begin(), work.end(), [](const WorkSpan& a, const WorkSpan& b) { return a.thread < b.thread; });
  for (const WorkSpan& w : work)
    s += fmt::format("work {} {} {:x} [{}, {}] in {} it {}\n", w.thread, w.work, w.codeptr, w.begin, w.end,
                     w.parallel_id, w.iterations);
  std::vector<MpiInterval> mpi = t.mpi;
  std::stable_sort(mpi.begin(), mpi.end(), [](const MpiInterval& a, const MpiInterval& b) { return a.thread < b.thread; });
  for (const MpiInterval& m : mpi) s += fmt::format("mpi {} [{}, {}]\n", m.thread, m.begin, m.end);
  for (const CpuSample& c : t.samples) {
    s += fmt::format("sample {} {} {} {:x}", c.thread, c.time, c.cpu_s, c.pc);
    for (uint64_t f : c.frames) s += fmt::format(" {:x}", f);
    s += "\n";
  }
  for (const auto& [from, to] : t.paused) s += fmt::format("paused [{}, {}]\n", from, to);
  for (const ThreadSummary& th : t.threads) s += fmt::format("thread {} [{}, {}]\n", th.thread, th.first, th.last);
  return s;
}

TEST_F(LogStream, BlocksHandOutTheFilesRecordsInOrderWhateverTheirSize) {
  const std::vector<Event> records = varied_records(1000);
  const fs::path p = write_events(dir_ / "thread-0002.evt", 2, records);
  for (size_t block : {size_t{1}, size_t{3}, size_t{7}, size_t{999}, size_t{1000}, size_t{1001}, kStreamBlockRecords}) {
    SCOPED_TRACE(block);
    const ThreadEvents t = scan_thread_events(p, block);
    EXPECT_TRUE(t.streamed());
    EXPECT_TRUE(t.events.empty());  // nothing held in memory
    EXPECT_EQ(t.thread_index, 2u);
    EXPECT_EQ(t.size(), 1000u);
    EXPECT_EQ(t.front_ticks(), 1000u);
    EXPECT_EQ(t.back_ticks(), 1000u + 7 * 999);
    EXPECT_TRUE(same_records(streamed(t), records));
    size_t blocks = 0, largest = 0;
    for_each_block(t, [&](const Event*, size_t n) {
      ++blocks;
      largest = std::max(largest, n);
    });
    EXPECT_EQ(blocks, (1000 + block - 1) / block);
    EXPECT_EQ(largest, std::min<size_t>(block, 1000));
  }
  // The records of each kind were counted by the checking read, as a thread in memory counts them.
  const ThreadEvents whole = read_thread_events(p);
  const ThreadEvents scanned = scan_thread_events(p, 3);
  size_t creations = 0;
  for (const Event& e : whole.events) creations += e.kind == EventKind::TaskCreate;
  EXPECT_GT(creations, 0u);
  EXPECT_EQ(whole.count(EventKind::TaskCreate), creations);
  for (uint8_t k = 0; k < static_cast<uint8_t>(EventKind::Count); ++k)
    EXPECT_EQ(scanned.count(static_cast<EventKind>(k)), whole.count(static_cast<EventKind>(k))) << int(k);
}

// The checking read counts the sync regions of each region part (an implicit task other than the
// initial one) in the order the parts began, and the timeline stores each part's visits in a vector
// of that size: a nested part's barriers are its own, not its outer part's; a barrier in the
// initial task belongs to no part.
TEST_F(LogStream, TheCheckingReadCountsEachPartsSyncRegions) {
  const auto barrier = ompt_sync_region_barrier_explicit;
  const auto join = ompt_sync_region_barrier_implicit_parallel;
  testing::LogBuilder b(1, 1000);
  b.thread(0)
      .thread_begin(0)
      .initial_task(0, 1, 2)
      .sync_begin(10, barrier)  // in the initial task: no part's
      .sync_end(11, barrier)
      .parallel_begin(100, 10, 2, 1, 0x500)
      .implicit_begin(101, 10, 11, 1, 0)
      .sync_begin(110, barrier)
      .sync_end(111, barrier)
      .parallel_begin(120, 20, 11, 1, 0x600)  // nested: its own part
      .implicit_begin(121, 20, 21, 1, 0)
      .sync_begin(130, barrier)
      .sync_end(131, barrier)
      .sync_begin(140, barrier)
      .sync_end(141, barrier)
      .sync_begin(150, join)
      .sync_end(151, join)
      .implicit_end(151, 20, 21, 0)
      .parallel_end(152, 20, 11, 0x600)
      .sync_begin(160, join)
      .sync_end(161, join)
      .implicit_end(161, 10, 11, 0)
      .parallel_end(162, 10, 2, 0x500)
      .initial_task_end(900, 1, 2)
      .thread_end(900);
  const fs::path d = write_log(b.log(), "nested");
  const RunLog streamed = read_run_log(d, {}, {.stream = true, .block_records = 3});
  ASSERT_EQ(streamed.threads.size(), 1u);
  EXPECT_EQ(streamed.threads[0].part_syncs, (std::vector<uint32_t>{2, 3}));
  const Timeline t = build_timeline(streamed);
  ASSERT_EQ(t.regions.size(), 2u);
  for (const RegionInstance& r : t.regions) {
    ASSERT_EQ(r.threads.size(), 1u);
    EXPECT_EQ(r.threads[0].syncs.size(), r.parallel_id == 10 ? 2u : 3u);
    EXPECT_EQ(r.threads[0].syncs.capacity(), r.threads[0].syncs.size());
  }
  EXPECT_TRUE(read_run_log(d).threads[0].part_syncs.empty());  // in memory: not counted
}

TEST_F(LogStream, ZeroTailIsLeftOutWhereverABlockEnds) {
  std::vector<Event> records = varied_records(10);
  records.resize(25, Event{});
  const fs::path p = write_events(dir_ / "thread-0000.evt", 0, records);
  for (size_t block : {size_t{1}, size_t{4}, size_t{10}, size_t{11}, size_t{64}}) {
    const ThreadEvents t = scan_thread_events(p, block);
    EXPECT_EQ(t.size(), 10u);
    EXPECT_EQ(t.back_ticks(), 1000u + 7 * 9);
    EXPECT_TRUE(same_records(streamed(t), read_thread_events(p).events));
  }
}

TEST_F(LogStream, EmptyAndHeaderOnlyFilesStreamNothing) {
  std::ofstream(dir_ / "thread-0005.evt");
  const ThreadEvents empty = scan_thread_events(dir_ / "thread-0005.evt");
  EXPECT_EQ(empty.thread_index, 5u);
  EXPECT_TRUE(empty.empty());
  EXPECT_TRUE(streamed(empty).empty());
  EXPECT_TRUE(streamed(scan_thread_events(write_events(dir_ / "thread-0001.evt", 1, {}))).empty());
}

TEST_F(LogStream, TruncatedOrCorruptFileIsRefusedByTheCheckingRead) {
  const std::vector<Event> records = varied_records(50);
  const fs::path cut = write_events(dir_ / "thread-0000.evt", 0, records, std::string(sizeof(Event) / 2, '\x01'));
  try {
    scan_thread_events(cut, 8);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("truncated log (ends inside record 50)"), std::string::npos) << e.what();
  }
  std::vector<Event> back = records;
  back[37].time = 5;  // in the fifth block of 8
  const fs::path p = write_events(dir_ / "thread-0001.evt", 1, back);
  try {
    scan_thread_events(p, 8);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("record 37 goes back in time"), std::string::npos) << e.what();
  }
  std::vector<Event> after_end = records;
  after_end[20] = Event{};  // the end marker; record 45 is not zero
  std::fill(after_end.begin() + 21, after_end.begin() + 45, Event{});
  const fs::path q = write_events(dir_ / "thread-0002.evt", 2, after_end);
  try {
    scan_thread_events(q, 8);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("record 45 follows the end marker"), std::string::npos) << e.what();
  }
}

TEST_F(LogStream, FileCutShortAfterTheCheckingReadIsAnErrorNotAShortWalk) {
  const fs::path p = write_events(dir_ / "thread-0000.evt", 0, varied_records(100));
  const ThreadEvents t = scan_thread_events(p, 16);
  fs::resize_file(p, sizeof(LogFileHeader) + 40 * sizeof(Event));
  size_t seen = 0;
  try {
    for_each_event(t, [&](const Event&) { ++seen; });
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(p.string() + ": the log changed while it was read (record 32 is gone)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(seen, 32u);  // the whole blocks before the cut
}

// Cut short while its block is mapped and walked (log_window.h): reading a page past the file's
// new end raises SIGBUS, which ends the process with one line naming the file and status 2, bad
// input, not a crash.
TEST_F(LogStream, FileCutShortWhileItsBlockIsWalkedEndsWithOneLineAndStatusTwo) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const fs::path p = write_events(dir_ / "thread-0000.evt", 0, varied_records(1000));
  const ThreadEvents t = scan_thread_events(p, 1000);
  const auto walk_while_cut = [&] {
    ThreadFileStream stream(t);
    const std::pair<const Event*, size_t> block = stream.next();
    // The death test's child runs SetUp with its own pid and ends in the SIGBUS handler, past any
    // TearDown: it cuts the file through a descriptor after removing its directory, so that
    // nothing of it is left in the temporary directory.
    const int fd = ::open(p.c_str(), O_WRONLY);
    fs::remove_all(dir_);
    if (fd < 0 || ::ftruncate(fd, sizeof(LogFileHeader)) != 0) std::exit(3);
    uint64_t sum = 0;
    for (size_t i = 0; i < block.second; ++i) sum += block.first[i].time;
    std::printf("read %zu records, sum %llu\n", block.second, static_cast<unsigned long long>(sum));
    std::exit(0);
  };
  EXPECT_EXIT(walk_while_cut(),
      ::testing::ExitedWithCode(2), "^ompscope: .*/thread-0000.evt: the log changed while it was read");  // the re-run test names its own directory
}

// Three threads, no task: region 10 (thread 1 forks it, thread 2 its worker) holds a loop, then
// the nested region 20 (thread 1 forks it, thread 0 its worker: the file walked first holds a
// worker of a fork not yet read), where thread 0 holds lock 0x77 while thread 1 waits for it;
// thread 2 takes lock 0x78 after its loop. `stray_ends`: a damaged log's ends of instances on
// threads that did not fork them, one walked before its fork (thread 0's, no effect), one after
// (thread 2's, the instance's end).
RunLog nested_regions_and_locks_log(bool stray_ends) {
  constexpr auto kJoin = ompt_sync_region_barrier_implicit_parallel;
  testing::LogBuilder b(3, 1010);
  testing::Stream worker_of_nested = b.thread(0), master = b.thread(1), worker = b.thread(2);
  master.thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(100, 10, 2, 2, 0xA00)
      .implicit_begin(101, 10, 11, 2, 0)
      .work_begin(105, ompt_work_loop, 0xA10)
      .work_end(150, ompt_work_loop, 0xA10)
      .parallel_begin(200, 20, 11, 2, 0xB00)
      .implicit_begin(201, 20, 21, 2, 0)
      .acquire(210, ompt_mutex_lock, 0x77, 0xB10)
      .acquired(212, ompt_mutex_lock, 0x77, 0xB10)
      .released(230, ompt_mutex_lock, 0x77, 0xB10)
      .sync_begin(240, kJoin, 0xB30)
      .sync_end(260, kJoin, 0xB30)
      .implicit_end(260, 20, 21, 0)
      .parallel_end(262, 20, 11, 0xB00)
      .sync_begin(300, kJoin, 0xA30)
      .sync_end(320, kJoin, 0xA30)
      .implicit_end(320, 10, 11, 0)
      .parallel_end(322, 10, 2, 0xA00)
      .initial_task_end(1000, 1, 2)
      .thread_end(1000);
  worker_of_nested.thread_begin(190, ompt_thread_worker).implicit_begin(202, 20, 22, 2, 1);
  if (stray_ends) worker_of_nested.parallel_end(203, 20, 11, 0xB00);
  worker_of_nested.acquire(205, ompt_mutex_lock, 0x77, 0xB10)
      .acquired(206, ompt_mutex_lock, 0x77, 0xB10)
      .released(211, ompt_mutex_lock, 0x77, 0xB10)
      .work_begin(215, ompt_work_loop, 0xB20)
      .work_end(235, ompt_work_loop, 0xB20)
      .sync_begin(236, kJoin, 0xB30)
      .sync_end(260, kJoin, 0xB30)
      .implicit_end(260, 20, 22, 1)
      .thread_end(990);
  worker.thread_begin(50, ompt_thread_worker)
      .implicit_begin(103, 10, 12, 2, 1)
      .work_begin(106, ompt_work_loop, 0xA10)
      .work_end(290, ompt_work_loop, 0xA10)
      .acquire(291, ompt_mutex_lock, 0x78, 0xA20)
      .acquired(292, ompt_mutex_lock, 0x78, 0xA20)
      .released(295, ompt_mutex_lock, 0x78, 0xA20)
      .sync_begin(296, kJoin, 0xA30)
      .sync_end(320, kJoin, 0xA30)
      .implicit_end(320, 0, 12, 1);
  if (stray_ends) worker.parallel_end(330, 10, 2, 0xA00);
  worker.thread_end(1001);
  return b.log();
}

// Two threads, four top-level regions forked by thread 0, so that a walk in epochs of a record ends
// one at each fork: in region 10 both run a loop, take lock 0x77 and are sampled, and the worker
// learns of the region's end after the next fork (Q1); between the regions thread 0 calls MPI,
// takes lock 0x78 and is sampled, the worker too; in region 20 thread 0 creates two tasks that
// the worker runs, one inside the barrier, and the worker forks nested region 25, thread 0 its
// worker; region 30 is sampled out; in region 40 thread 0 runs a masked construct and pauses the
// tool until the serial code after it, and the worker's loop is still open when its log ends.
RunLog regions_in_epochs_log() {
  constexpr auto kJoin = ompt_sync_region_barrier_implicit_parallel;
  constexpr auto kBarrier = ompt_sync_region_barrier_explicit;
  testing::LogBuilder b(2, 2000);
  testing::Stream master = b.thread(0), worker = b.thread(1);
  master.thread_begin(0)
      .initial_task(0, 1, 2)
      .parallel_begin(100, 10, 2, 2, 0xA00)
      .implicit_begin(101, 10, 11, 2, 0)
      .work_begin(105, ompt_work_loop, 0xA10)
      .work_end(150, ompt_work_loop, 0xA10)
      .acquire(151, ompt_mutex_lock, 0x77, 0xA20)
      .acquired(153, ompt_mutex_lock, 0x77, 0xA20)
      .released(160, ompt_mutex_lock, 0x77, 0xA20)
      .sample(170, 140, 0xA15, 1, {0xA16, 0xA17, 0xA18})
      .sync_begin(170, kJoin, 0xA30)
      .sync_end(200, kJoin, 0xA30)
      .implicit_end(200, 10, 11, 0)
      .parallel_end(201, 10, 2, 0xA00)
      .mpi_call(210, 230, MpiCallKind::Barrier)
      .acquire(240, ompt_mutex_lock, 0x78, 0x510)
      .acquired(241, ompt_mutex_lock, 0x78, 0x510)
      .released(250, ompt_mutex_lock, 0x78, 0x510)
      .sample(260, 245, 0x520)
      .parallel_begin(300, 20, 2, 2, 0xB00)
      .implicit_begin(301, 20, 21, 2, 0)
      .task_create(310, 501, 21, 0xB10)
      .task_create(312, 502, 21, 0xB11)
      .sync_begin(320, kBarrier, 0xB20)
      .sync_end(380, kBarrier, 0xB20)
      .implicit_begin(385, 25, 26, 2, 1)
      .work_begin(386, ompt_work_loop, 0xC10)
      .work_end(390, ompt_work_loop, 0xC10)
      .sync_begin(391, kJoin, 0xC30)
      .sync_end(398, kJoin, 0xC30)
      .implicit_end(398, 25, 26, 1)
      .sync_begin(400, kJoin, 0xB30)
      .sync_end(420, kJoin, 0xB30)
      .implicit_end(420, 20, 21, 0)
      .parallel_end(421, 20, 2, 0xB00)
      .light_parallel(500, 540, 30, 2, 2, 0xD00)
      .parallel_begin(600, 40, 2, 2, 0xE00)
      .implicit_begin(601, 40, 41, 2, 0)
      .masked_begin(602, 0xE10)
      .tool_control(605, 2)
      .masked_end(650, 0xE10)
      .sync_begin(660, kJoin, 0xE30)
      .sync_end(700, kJoin, 0xE30)
      .implicit_end(700, 40, 41, 0)
      .parallel_end(701, 40, 2, 0xE00)
      .tool_control(750, 1)
      .initial_task_end(1900, 1, 2)
      .thread_end(1900);
  worker.thread_begin(90, ompt_thread_worker)
      .implicit_begin(102, 10, 12, 2, 1)
      .work_begin(106, ompt_work_loop, 0xA10)
      .work_end(140, ompt_work_loop, 0xA10)
      .acquire(141, ompt_mutex_lock, 0x77, 0xA20)
      .acquired(160, ompt_mutex_lock, 0x77, 0xA20)
      .released(165, ompt_mutex_lock, 0x77, 0xA20)
      .sample(165, 150, 0xA15)
      .sync_begin(166, kJoin, 0xA30)
      .sync_end(302, kJoin, 0xA30)
      .implicit_end(302, 0, 12, 1)
      .sample(303, 290, 0x530)
      .implicit_begin(304, 20, 22, 2, 1)
      .task_schedule(306, 22, ompt_task_switch, 501)
      .task_schedule(318, 501, ompt_task_complete, 22)
      .sync_begin(322, kBarrier, 0xB20)
      .task_schedule(330, 22, ompt_task_switch, 502)
      .task_schedule(360, 502, ompt_task_complete, 22)
      .sync_end(380, kBarrier, 0xB20)
      .parallel_begin(382, 25, 22, 2, 0xC00)
      .implicit_begin(383, 25, 27, 2, 0)
      .work_begin(384, ompt_work_loop, 0xC10)
      .work_end(389, ompt_work_loop, 0xC10)
      .sync_begin(390, kJoin, 0xC30)
      .sync_end(398, kJoin, 0xC30)
      .implicit_end(398, 25, 27, 0)
      .parallel_end(399, 25, 22, 0xC00)
      .sync_begin(401, kJoin, 0xB30)
      .sync_end(420, kJoin, 0xB30)
      .implicit_end(421, 0, 22, 1)
      .implicit_begin(603, 40, 42, 2, 1)
      .work_begin(610, ompt_work_loop, 0xE20)
      .thread_end(680);
  return b.log();
}

// The timeline of a streamed log is the in-memory one, for every hand-built scenario and block
// size (1 record per block puts a boundary between every two records).
TEST_F(LogStream, TimelineOfAStreamedLogIsTheOneBuiltInMemory) {
  const std::vector<std::pair<std::string, RunLog>> logs = {
      {"two_thread_loop", testing::two_thread_loop_log()},
      {"two_thread_loop_libomp14", testing::two_thread_loop_log(true)},
      {"task_with_taskwait_in_barrier", testing::task_with_taskwait_in_barrier_log()},
      {"creator_with_preparation", testing::creator_with_preparation_log()},
      {"three_tasks_on_two_threads", testing::three_tasks_on_two_threads_log()},
      {"twenty_tiny_tasks", testing::twenty_tiny_tasks_log()},
      {"twenty_tiny_tasks_sampled", testing::twenty_tiny_tasks_sampled_log()},
      {"two_level_tree", testing::two_level_tree_log()},
      {"tied_waits_for_stolen_child", testing::tied_task_waits_for_a_stolen_child_log(ompt_task_explicit)},
      {"sampled_tree_whose_recorded_tasks_wait", testing::sampled_tree_whose_recorded_tasks_wait_log()},
      {"one_chain", testing::one_chain_log(20)},
      {"nested_regions_and_locks", nested_regions_and_locks_log(false)},
      {"nested_regions_and_locks_stray_ends", nested_regions_and_locks_log(true)},
      {"regions_in_epochs", regions_in_epochs_log()},
  };
  for (const auto& [name, log] : logs) {
    SCOPED_TRACE(name);
    const fs::path d = write_log(log, name);
    const std::string in_memory = dump(build_timeline(read_run_log(d)));
    EXPECT_EQ(dump(build_timeline(log)), in_memory);  // the files hold the hand-built log
    EXPECT_NE(in_memory.find("region "), std::string::npos);
    // Walked in one epoch, or in epochs that end at every fork of a top-level region.
    EXPECT_EQ(dump(build_timeline(log, 0)), in_memory);
    EXPECT_EQ(dump(build_timeline(log, 1)), in_memory);
    for (size_t block : {size_t{1}, size_t{2}, size_t{5}, kStreamBlockRecords}) {
      SCOPED_TRACE(block);
      const RunLog s = read_run_log(d, {}, {.stream = true, .block_records = block});
      ASSERT_FALSE(s.threads.empty());
      for (const ThreadEvents& t : s.threads) EXPECT_TRUE(t.streamed() && t.events.empty());
      EXPECT_EQ(s.event_count(), log.event_count());
      EXPECT_EQ(s.last_ticks(), log.last_ticks());
      EXPECT_EQ(dump(build_timeline(s)), in_memory);
      EXPECT_EQ(dump(build_timeline(s, 1)), in_memory);
    }
  }
}

}  // namespace
}  // namespace ompscope::analysis
