#include "bench/core/bench_json.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "sample_results.h"

namespace ompscope::bench {
namespace {

using nlohmann::json;

BenchDocument sample_document() {
  BenchDocument doc;
  doc.runtime = "llvm";
  doc.cores = 2;
  doc.proc_bind = "spread";
  doc.places = "threads";
  doc.clock = "TSC";
  doc.results.push_back(testing::sample_series("barrier", "llvm", "epcc", "overhead", 2,
                                               {4e-7, 1e-7, 2e-7, 9e-7, 3e-7, 2.5e-7, 2e-6, 2.2e-7}));
  doc.results.back().details = {{"inner_repetitions", 1000}};
  return doc;
}

TEST(BenchJson, WritesTheFieldsOmpscopeModelReads) {
  const json j = to_json(sample_document());
  EXPECT_EQ(j["tool"], "ompscope-bench");
  EXPECT_EQ(j["version"], OMPSCOPE_VERSION_STRING);
  EXPECT_EQ(j["runtime"], "llvm");
  EXPECT_EQ(j["cores"], 2);
  const json& r = j["results"][0];
  EXPECT_EQ(r["construct"], "barrier");
  EXPECT_EQ(r["runtime"], "llvm");
  EXPECT_EQ(r["method"], "epcc");
  EXPECT_EQ(r["metric"], "overhead");
  EXPECT_EQ(r["threads"], 2);
  EXPECT_EQ(r["oversubscribed"], false);
  EXPECT_EQ(r["unit"], "s");
  EXPECT_EQ(r["filter"], "dropped best and worst 25%");
  for (const char* key : {"mean", "sd", "min", "median", "max", "count"}) EXPECT_TRUE(r["statistics"].contains(key)) << key;
  EXPECT_EQ(r["details"]["inner_repetitions"], 1000);
}

TEST(BenchJson, RawAndStatisticsAreTheFilteredSeriesRawUnfilteredKeepsEverySample) {
  const json r = to_json(sample_document())["results"][0];
  EXPECT_EQ(r["raw"].get<std::vector<double>>(), (std::vector<double>{4e-7, 3e-7, 2.5e-7, 2.2e-7}));
  EXPECT_EQ(r["statistics"]["count"], 4);
  EXPECT_DOUBLE_EQ(r["statistics"]["median"].get<double>(), 2.75e-7);
  EXPECT_EQ(r["raw_unfiltered"].size(), 8u);
  EXPECT_EQ(r["statistics_unfiltered"]["count"], 8);
  EXPECT_DOUBLE_EQ(r["statistics_unfiltered"]["max"].get<double>(), 2e-6);
}

TEST(BenchJson, ReadsBackWhatItWrote) {
  const BenchDocument original = sample_document();
  const BenchDocument back = bench_document_from_json(json::parse(to_json(original).dump()));
  EXPECT_EQ(back.runtime, "llvm");
  EXPECT_EQ(back.cores, 2);
  EXPECT_EQ(back.proc_bind, "spread");
  EXPECT_EQ(back.places, "threads");
  ASSERT_EQ(back.results.size(), 1u);
  EXPECT_EQ(back.results[0].samples_s, original.results[0].samples_s);
  EXPECT_EQ(back.results[0].details, original.results[0].details);
  EXPECT_EQ(back.results[0].measured_at, original.results[0].measured_at);
}

TEST(BenchJson, RefusesOtherDocumentsWithTheFieldAtFault) {
  EXPECT_THROW(bench_document_from_json(json{{"tool", "ompscope"}}), std::invalid_argument);
  json j = to_json(sample_document());
  j["results"][0].erase("metric");
  try {
    bench_document_from_json(j);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("\"metric\""), std::string::npos);
  }
}

TEST(BenchJson, RefusesNonFiniteSamples) {
  BenchDocument doc = sample_document();
  doc.results[0].samples_s.push_back(std::numeric_limits<double>::quiet_NaN());
  EXPECT_THROW(to_json(doc), std::invalid_argument);
}

}  // namespace
}  // namespace ompscope::bench
