#include "bench/core/clock_offset.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>
#include <thread>
#include <vector>

#include "skewed_clock.h"

namespace ompscope::bench {
namespace {

TEST(EstimateOffset, SymmetricDelayGivesTheExactOffset) {
  // Master sends at 1000, the worker (500 ahead) reads at true 1010, master sees it at 1020.
  const std::vector<PingSample> samples{{1000, 1510, 1020}};
  const OffsetEstimate e = estimate_offset(samples);
  EXPECT_EQ(e.offset, 500);
  EXPECT_EQ(e.uncertainty, 10);
}

TEST(EstimateOffset, OneQuickRoundTripAmongSlowOnesIsEnough) {
  // The first exchange was delayed on the way back: its midpoint alone would be 197 off.
  // Bounds: [-395, 5], [-3, 7], [-50, 50]; together [-3, 5].
  const std::vector<PingSample> samples{{0, 5, 400}, {1000, 1007, 1010}, {2000, 2050, 2100}};
  const OffsetEstimate e = estimate_offset(samples);
  EXPECT_EQ(e.offset, 1);
  EXPECT_EQ(e.uncertainty, 4);
  EXPECT_TRUE(e.consistent);
}

TEST(EstimateOffset, SlowRoundTripsTogetherBoundTheOffsetBetterThanAnyAlone) {
  // Each says +-50 around a different middle (-40, 40); both hold only within [-10, 10].
  const std::vector<PingSample> samples{{0, 10, 100}, {200, 290, 300}};
  const OffsetEstimate e = estimate_offset(samples);
  EXPECT_EQ(e.offset, 0);
  EXPECT_EQ(e.uncertainty, 10);
  EXPECT_TRUE(e.consistent);
}

TEST(OffsetBounds, BatchesAddedInTurnNarrowToWhatAllTheirSamplesGiveAtOnce) {
  const std::vector<PingSample> first{{0, 5, 400}, {2000, 2050, 2100}}, second{{1000, 1007, 1010}};
  OffsetBounds bounds;
  for (const PingSample& s : first) bounds.add(s);
  EXPECT_EQ(bounds.estimate().offset, -23);  // [-50, 5] after the first batch
  EXPECT_EQ(bounds.estimate().uncertainty, 28);
  for (const PingSample& s : second) bounds.add(s);
  const OffsetEstimate e = bounds.estimate();
  EXPECT_EQ(e.offset, 1);  // [-3, 5], as estimate_offset over all three
  EXPECT_EQ(e.uncertainty, 4);
  EXPECT_THROW(OffsetBounds{}.estimate(), std::invalid_argument);
}

TEST(EstimateOffset, RoundTripsNoSingleOffsetFitsAreFlaggedAndSpanned) {
  // The worker's clock jumped 50 back between the exchanges: [90, 100], then [40, 50].
  const std::vector<PingSample> samples{{0, 100, 10}, {1000, 1050, 1010}};
  const OffsetEstimate e = estimate_offset(samples);
  EXPECT_FALSE(e.consistent);
  EXPECT_EQ(e.offset, 70);
  EXPECT_EQ(e.uncertainty, 20);
}

TEST(EstimateOffset, WorkerBehindGivesANegativeOffset) {
  const std::vector<PingSample> samples{{10000, 7004, 10008}};
  EXPECT_EQ(estimate_offset(samples).offset, -3000);
}

TEST(EstimateOffset, RefusesNoSamplesAndBackwardRoundTrips) {
  EXPECT_THROW(estimate_offset(std::vector<PingSample>{}), std::invalid_argument);
  EXPECT_THROW(estimate_offset(std::vector<PingSample>{{10, 11, 9}}), std::invalid_argument);
}

// The real protocol on two threads whose clocks disagree by a known amount: the estimate must
// hold the injected offset within its own stated uncertainty.
void expect_recovers(int64_t injected_ns) {
  testing::SkewedClock master{0}, worker{injected_ns};
  PingPongChannel channel;
  std::thread answering([&] { channel.run_worker(worker, 200); });
  const std::vector<PingSample> samples = channel.run_master(master, 200);
  answering.join();
  const OffsetEstimate e = estimate_offset(samples);
  // Every bound holds (the clock is read in order with the handshake), so they never conflict.
  EXPECT_TRUE(e.consistent);
  EXPECT_LE(std::llabs(e.offset - injected_ns), e.uncertainty + 1) << "injected " << injected_ns;
  EXPECT_LT(e.uncertainty, 5'000'000) << "no round trip under 10 ms: the protocol is stuck";
}

TEST(PingPong, RecoversAnInjectedOffsetAhead) { expect_recovers(250'000'000); }
TEST(PingPong, RecoversAnInjectedOffsetBehind) { expect_recovers(-120'000'000); }
TEST(PingPong, RecoversAZeroOffset) { expect_recovers(0); }

}  // namespace
}  // namespace ompscope::bench
