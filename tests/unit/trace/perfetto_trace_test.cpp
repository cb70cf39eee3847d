#include "output/perfetto_trace.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "trace_fixture.h"

namespace ompscope::trace_test {
namespace {

using nlohmann::json;

std::string render(const analysis::TraceModel& model, output::PerfettoOptions options, output::PerfettoResult* result = nullptr) {
  std::ostringstream out;
  const output::PerfettoResult r = output::write_perfetto_trace(model, out, options);
  if (result) *result = r;
  return out.str();
}

output::PerfettoOptions named(uint64_t max_events = 1'000'000) {
  output::PerfettoOptions o;
  o.process_name = "t";
  o.max_events = max_events;
  return o;
}

json metadata_events() {
  return json::parse(R"J([
    {"name":"process_name","ph":"M","pid":42,"args":{"name":"t"}},
    {"name":"thread_name","ph":"M","pid":42,"tid":1,"args":{"name":"OpenMP thread 0 (initial)"}},
    {"name":"thread_sort_index","ph":"M","pid":42,"tid":1,"args":{"sort_index":0}},
    {"name":"thread_name","ph":"M","pid":42,"tid":2,"args":{"name":"OpenMP thread 1"}},
    {"name":"thread_sort_index","ph":"M","pid":42,"tid":2,"args":{"sort_index":1}}
  ])J");
}

TEST(PerfettoTrace, WritesEveryIntervalAsANestedCompleteEventWithAFlowFromCreationToExecution) {
  output::PerfettoResult result;
  const json doc = json::parse(render(two_thread_model(), named(), &result));
  json expected = metadata_events();
  for (const json& e : json::parse(R"J([
    {"name":"parallel main@t.c:10","cat":"parallel","ph":"X","ts":1.0,"dur":19.0,"pid":42,"tid":1},
    {"name":"create task work@t.c:20","cat":"task_create","ph":"X","ts":3.0,"dur":0.0,"pid":42,"tid":1,
     "args":{"task":7},"bind_id":1,"flow_out":true},
    {"name":"loop main@t.c:40","cat":"work","ph":"X","ts":6.0,"dur":8.5,"pid":42,"tid":1},
    {"name":"wait critical main@t.c:30","cat":"lock_wait","ph":"X","ts":13.0,"dur":0.5,"pid":42,"tid":1,
     "args":{"lock":0}},
    {"name":"critical main@t.c:30","cat":"lock","ph":"X","ts":13.5,"dur":0.5,"pid":42,"tid":1,"args":{"lock":0}},
    {"name":"join barrier","cat":"join_barrier","ph":"X","ts":15.0,"dur":4.5,"pid":42,"tid":1},
    {"name":"parallel main@t.c:10","cat":"parallel","ph":"X","ts":2.0,"dur":18.0,"pid":42,"tid":2},
    {"name":"join barrier","cat":"join_barrier","ph":"X","ts":4.0,"dur":16.0,"pid":42,"tid":2},
    {"name":"task work@t.c:20","cat":"task","ph":"X","ts":5.0,"dur":7.0,"pid":42,"tid":2,
     "args":{"task":7},"bind_id":1,"flow_in":true}
  ])J"))
    expected.push_back(e);
  EXPECT_EQ(doc.at("traceEvents"), expected) << doc.at("traceEvents").dump(1);
  EXPECT_EQ(doc.at("displayTimeUnit"), "ns");
  EXPECT_EQ(doc.at("otherData").at("slices_total"), 9);
  EXPECT_EQ(doc.at("otherData").at("slices_written"), 9);
  EXPECT_EQ(doc.at("otherData").at("truncated"), false);
  EXPECT_FALSE(doc.at("otherData").contains("cut_at_us"));
  EXPECT_EQ(result.slices_written, 9u);
  EXPECT_EQ(result.events_written, 14u);
  EXPECT_EQ(result.flows, 1u);
  EXPECT_FALSE(result.truncated);
}

TEST(PerfettoTrace, TimesAreMicrosecondsWithExactlyTheNanosecondDigits) {
  const std::string text = render(two_thread_model(), named());
  EXPECT_NE(text.find(R"("ts":13.500,"dur":0.500,)"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("ts":3.000,"dur":0.000,)"), std::string::npos) << text;
}

TEST(PerfettoTrace, PastTheEventLimitCutsInTimeKeepsParentsAndDropsHalfFlows) {
  // 5 metadata events + 4 slices: the slices that begin before the 5th earliest begin (5 µs).
  output::PerfettoResult result;
  const json doc = json::parse(render(two_thread_model(), named(9), &result));
  json expected = metadata_events();
  for (const json& e : json::parse(R"J([
    {"name":"parallel main@t.c:10","cat":"parallel","ph":"X","ts":1.0,"dur":19.0,"pid":42,"tid":1},
    {"name":"create task work@t.c:20","cat":"task_create","ph":"X","ts":3.0,"dur":0.0,"pid":42,"tid":1,
     "args":{"task":7}},
    {"name":"parallel main@t.c:10","cat":"parallel","ph":"X","ts":2.0,"dur":18.0,"pid":42,"tid":2},
    {"name":"join barrier","cat":"join_barrier","ph":"X","ts":4.0,"dur":16.0,"pid":42,"tid":2}
  ])J"))
    expected.push_back(e);
  EXPECT_EQ(doc.at("traceEvents"), expected) << doc.at("traceEvents").dump(1);
  const json& meta = doc.at("otherData");
  EXPECT_EQ(meta.at("truncated"), true);
  EXPECT_EQ(meta.at("slices_total"), 9);
  EXPECT_EQ(meta.at("slices_written"), 4);
  EXPECT_DOUBLE_EQ(meta.at("cut_at_us").get<double>(), 5.0);
  EXPECT_NE(meta.at("note").get<std::string>().find("4 of 9 slices"), std::string::npos);
  EXPECT_TRUE(result.truncated);
  EXPECT_EQ(result.cut_at_ns, 5000);
  EXPECT_EQ(result.events_written, 9u);
  EXPECT_EQ(result.flows, 0u);
}

TEST(PerfettoTrace, NamesWithQuotesAndInvalidUtf8StayValidJson) {
  analysis::TraceModel model = two_thread_model();
  model.regions[0].name = "parallel \"odd\"\xff name";
  const json doc = json::parse(render(model, named()));
  EXPECT_EQ(doc.at("traceEvents").at(5).at("name"), "parallel \"odd\"\xEF\xBF\xBD name");
}

TEST(PerfettoTrace, AnEmptyRunIsAValidTraceWithItsThreadNames) {
  analysis::Timeline empty;
  const analysis::TraceModel model = analysis::build_trace_model(empty, name_of, 7);
  const json doc = json::parse(render(model, named()));
  ASSERT_EQ(doc.at("traceEvents").size(), 3u);
  EXPECT_EQ(doc.at("traceEvents").at(1).at("args").at("name"), "OpenMP thread 0 (initial)");
}

}  // namespace
}  // namespace ompscope::trace_test

namespace ompscope::trace_test {
namespace {

TEST(PerfettoTrace, SamplesAreInstantEventsOnTheirThreadsTrack) {
  analysis::TraceModel model = two_thread_model();
  model.sample_sites = {name_of(0x601)};
  model.threads[1].samples = {{6500, 0}};
  output::PerfettoResult result;
  const json doc = json::parse(render(model, named(), &result));
  const json& events = doc.at("traceEvents");
  const json& last = events.at(events.size() - 1);
  EXPECT_EQ(last.at("name"), "sample " + name_of(0x601).label);
  EXPECT_EQ(last.at("cat"), "sample");
  EXPECT_EQ(last.at("ph"), "i");
  EXPECT_EQ(last.at("s"), "t");
  EXPECT_DOUBLE_EQ(last.at("ts").get<double>(), 6.5);
  EXPECT_EQ(last.at("tid"), 2);
  EXPECT_EQ(result.samples_written, 1u);
  EXPECT_EQ(result.events_written, 5 + result.slices_written + 1);
}

}  // namespace
}  // namespace ompscope::trace_test
