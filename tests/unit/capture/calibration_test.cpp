// The capture's calibrations of the machine, measured for real: each is a floor (the fastest of
// several timings), and no floor may read less than the hardware can do. A page fault maps and
// zeroes a page in the kernel: it costs more than one uncontended atomic, and each of the writes
// it times took a fault of its own (a huge page would have taken them all in one).
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "capture/lock_records.h"
#include "capture/thread_usage.h"

namespace ompscope::capture {
namespace {

long minor_faults() {
  rusage ru;
  getrusage(RUSAGE_THREAD, &ru);
  return ru.ru_minflt;
}

TEST(Calibration, TheCheapestPageFaultCostsMoreThanOneAtomicAndEachWriteFaults) {
  const long before = minor_faults();
  const uint64_t fault_ns = calibrate_page_fault_floor(ClockSource::Monotonic);
  const long faults = minor_faults() - before;
  const double atomic_ns = static_cast<double>(calibrate_atomic_floor(ClockSource::Monotonic)) / kAtomicFloorOps;
  std::printf("cheapest page fault %llu ns (one atomic %.1f ns; %ld faults taken for %u pages)\n",
              static_cast<unsigned long long>(fault_ns), atomic_ns, faults, kFaultFloorPages);
  EXPECT_GE(faults, static_cast<long>(kFaultFloorPages));
  EXPECT_GT(static_cast<double>(fault_ns), atomic_ns);
  EXPECT_LT(fault_ns, 1000000u);  // a millisecond would be a preempted fault, not the floor
}

// The floor bounds what the program's faults cost from below: 256 fresh pages written one after
// the other take at least 256 times it.
TEST(Calibration, FreshPagesTakeAtLeastTheFloorEach) {
  const uint64_t floor_ns = calibrate_page_fault_floor(ClockSource::Monotonic);
  constexpr size_t kPages = 256;
  void* map = mmap(nullptr, kPages * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(map, MAP_FAILED);
  madvise(map, kPages * 4096, MADV_NOHUGEPAGE);
  volatile char* page = static_cast<char*>(map);
  const uint64_t begin = monotonic_ns();
  for (size_t i = 0; i < kPages; ++i) page[i * 4096] = 1;
  const uint64_t took = monotonic_ns() - begin;
  munmap(map, kPages * 4096);
  EXPECT_GE(took, kPages * floor_ns) << "floor " << floor_ns << " ns";
}


// Within a region instance that reads the kernel's accounting (capture/thread_usage.h:
// UsageStretches): the stretch before each of the first 64 barriers is read; then one in the power
// of two that spaces the readings 100 us apart at the pace of the last 16 barriers (at most one in
// 256); an arrival ends only a stretch that began, and the clock is looked at every 16th barrier.
TEST(UsageStretches, TheFirstBarriersThenOneReadingPer100usAtTheLastBarriersPace) {
  // Barriers apart by `apart(b)` ns; the readings (arrivals that end a stretch).
  const auto readings = [](auto apart, uint32_t barriers, int* clock_reads) {
    UsageStretches s;
    uint64_t now = 1'000'000;
    s.start(now);
    int read = 0;
    for (uint32_t b = 0; b < barriers; ++b) {
      now += apart(b);
      if (s.end()) ++read;  // barrier b's arrival
      EXPECT_FALSE(s.end());
      s.begin([&] {
        ++*clock_reads;
        return now;
      });
    }
    return read;
  };
  const auto every = [](uint64_t ns) { return [ns](uint32_t) { return ns; }; };
  int clock_reads = 0;
  EXPECT_EQ(readings(every(600), 64, &clock_reads), 64);  // all of the first 64
  EXPECT_EQ(clock_reads, 4);                              // at the 16th, 32nd, 48th and 64th
  // 100 000 barriers 0.6 us apart (many_barriers): 64, then one in 256 (167 per 100 us).
  EXPECT_EQ(readings(every(600), 100'000, &clock_reads), 64 + (100'000 - 1) / 256);
  // 83 us apart (NPB CG class W at 1 thread): one in 2 after the first 64.
  EXPECT_EQ(readings(every(83'000), 2064, &clock_reads), 64 + 2000 / 2);
  // 100 us apart or more: every one, as before.
  EXPECT_EQ(readings(every(100'000), 2000, &clock_reads), 2000);
  EXPECT_EQ(readings(every(400'000), 2000, &clock_reads), 2000);
  // A slow start, 1 000 barriers 37 us apart, then 99 000 at 0.6 us: after the first window
  // at the new pace, one in 256 (the mean since the start would have stayed near one in 8).
  const int slow_start =
      readings([](uint32_t b) { return uint64_t{b < 1000 ? 37'000u : 600u}; }, 100'000, &clock_reads);
  EXPECT_LE(slow_start, 64 + (1000 - 64) / 2 + 16 + 99'000 / 256 + 1);
  EXPECT_GE(slow_start, 64 + (1000 - 64) / 4 + 99'000 / 256 - 1);
  // A new implicit task begins a stretch, and reads its first barriers again.
  UsageStretches s;
  s.start(0);
  for (int b = 0; b < 1000; ++b) s.begin([] { return uint64_t{1}; });
  s.start(5);
  EXPECT_TRUE(s.end());
  EXPECT_TRUE(s.begin([] { return uint64_t{6}; }));
}

}  // namespace
}  // namespace ompscope::capture
