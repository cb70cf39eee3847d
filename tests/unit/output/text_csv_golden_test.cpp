// The text and CSV reports of a hand-built scale report against reviewed copies, matched line by
// line as Google Benchmark's output tests match theirs: a golden line is a pattern in which
// {{NUM}} stands for a number and {{TIME}} for a duration ("1.23 ms"), so the copies pin what a
// reader sees (the lines, their order, their words) while the numbers are checked elsewhere.
// And a report written as report.json and read back renders exactly as the report itself.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "output/csv_report.h"
#include "output/html_report.h"
#include "output/text_report.h"
#include "report/findings.h"
#include "report/report_json.h"

namespace ompscope::output {
namespace {

report::Report scale_report() {
  report::Report r;
  r.version = "0.1.0";
  r.command = {"./solver", "--size", "4096"};
  r.threads = {1, 2, 4};
  r.cores = 2;
  r.runtime = "LLVM OMP version: 5.0.20140926";
  for (int t : r.threads) r.runs.push_back({t, 0, 1.0 / t, 0, 0, "ok", true, true, 1000u * t, 0, "runs/t" + std::to_string(t)});
  r.runs.push_back({2, 1, 0.5, 0, 0, "ok", true, true, 2000u, 0, "runs/t2-r1"});  // a second repeat at 2 threads
  r.program_time_s = {{1, 1.2}, {2, 0.7}, {4, 0.8}};
  r.program_speedup = report::speedups(r.program_time_s);
  r.program_efficiency = {{1, 1.0}, {2, 1.2 / 1.4}, {4, 1.2 / 3.2}};
  r.serial_s = {{1, 0.1}, {2, 0.1}, {4, 0.1}};
  r.amdahl_speedup_bound = 12;
  report::RegionReport a;
  a.id = "r1";
  a.file = "solver.cpp";
  a.line = 42;
  a.function = "void solve<std::vector<int>>(int)";
  a.instances = 100;
  a.instances_at = {{1, 100}, {2, 100}, {4, 100}};
  a.time_s = {{1, 1.0}, {2, 0.6}, {4, 0.7}};
  a.speedup = report::speedups(a.time_s);
  a.efficiency = {{1, 1.0}, {2, 1.0 / 1.2}, {4, 1.0 / 2.8}};
  a.time_lost_s = {{1, 0.0}, {2, 0.1}, {4, 0.45}};
  a.problems = {{"load_imbalance", 2, 0.08, 0.08, "iterations of the loop differ in cost: try schedule(dynamic, 4) on it",
                 {{"barriers", 100}}},
                {"fork_join_overhead", 4, 0.3, 0.3, "open one parallel region around the loop", {}}};
  a.time_spread_s = {{2, 0.01}};
  // The loop that carries the imbalance, with the lines the analysis read around it.
  report::ConstructReport loop;
  loop.kind = report::ConstructKind::kLoop;
  loop.file = "src/solver.cpp";
  loop.line = 44;
  loop.function = a.function;
  loop.instances = 100;
  loop.time_s = {{2, 0.55}};
  loop.problems = {{"load_imbalance", 2, 0.08, 0.08, "iterations of the loop differ in cost", {{"share", 1}}}};
  loop.source = report::SourceExcerpt{"src/solver.cpp", 44, 43, {"  {", "#pragma omp for schedule(static)", "  for (int i = 0; i < n; ++i) work(a<i>);", "  }"}, ""};
  a.constructs = {loop};
  a.outside_constructs_s = {{2, 0.05}};
  r.regions.push_back(a);
  report::RegionReport serial;
  serial.id = "serial";
  serial.kind = report::RegionKind::kSerial;
  serial.function = "(outside parallel regions)";
  serial.instances = 1;
  serial.time_s = r.serial_s;
  serial.problems = {{"serial_code", 2, 0.1, 0.05, "parallelise the serial code", {}}};
  serial.time_spread_s = {{2, 0.02}};
  r.regions.push_back(serial);
  r.summary_threads = report::summary_counts(r);
  r.findings = report::build_findings(r);
  // What the analysis reads beside them: the loop's lines, and a file that is not there.
  r.findings.at(0).source = r.regions[0].constructs[0].source;
  r.findings.at(1).source = report::SourceExcerpt{"", 0, 0, {}, "source not found: src/gone.cpp"};
  r.notes = {{"sampled_instances", "adaptive sampling: recorded in part", {"r1 (solver.cpp:42): 50 of 100 instances"}},
             {"oversubscribed", "thread counts above 2 are oversubscribed", {}}};
  return r;
}

std::string read_file(const std::string& path) {
  std::ifstream input(path);
  std::stringstream content;
  content << input.rdbuf();
  return content.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A golden line as a regex: everything literal but the placeholders.
std::regex pattern_of(const std::string& golden) {
  static const std::regex special(R"([.^$|()\[\]{}*+?\\])");
  std::string pattern = std::regex_replace(golden, special, R"(\$&)");
  const auto replace = [&](const std::string& placeholder, const std::string& with) {
    const std::string escaped = std::regex_replace(placeholder, special, R"(\$&)");
    for (auto at = pattern.find(escaped); at != std::string::npos; at = pattern.find(escaped, at + with.size()))
      pattern.replace(at, escaped.size(), with);
  };
  replace("{{TIME}}", R"([0-9]+(\.[0-9]+)? (s|ms|µs|ns))");
  replace("{{NUM}}", R"(-?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?)");
  return std::regex(pattern);
}

void expect_matches_golden(const std::string& output, const std::string& golden_file) {
  // OMPSCOPE_UPDATE_GOLDEN=DIR writes the output there, to be turned into a reviewed copy.
  if (const char* dir = std::getenv("OMPSCOPE_UPDATE_GOLDEN")) std::ofstream(std::string(dir) + "/" + golden_file) << output;
  const std::vector<std::string> got = lines_of(output);
  const std::vector<std::string> want = lines_of(read_file(std::string(OMPSCOPE_OUTPUT_GOLDEN_DIR) + "/" + golden_file));
  ASSERT_FALSE(want.empty()) << "missing golden file " << golden_file;
  for (std::size_t i = 0; i < std::max(got.size(), want.size()); ++i) {
    ASSERT_LT(i, got.size()) << golden_file << ": output ends before golden line " << i + 1 << ": " << want[i];
    ASSERT_LT(i, want.size()) << golden_file << ": output has more lines than the golden copy: " << got[i];
    EXPECT_TRUE(std::regex_match(got[i], pattern_of(want[i])))
        << golden_file << " line " << i + 1 << "\n  got:  " << got[i] << "\n  want: " << want[i];
  }
}

TEST(TextReportGolden, MatchesTheReviewedCopyLineByLine) {
  expect_matches_golden(render_text_report(scale_report()), "scale_report.txt");
}

TEST(CsvReportGolden, MatchesTheReviewedCopyLineByLine) {
  expect_matches_golden(render_csv_report(scale_report()), "scale_report.csv");
}

TEST(GoldenPattern, PlaceholdersStandForNumbersOnly) {
  EXPECT_TRUE(std::regex_match("gain 45.0 ms of 1.20 s", pattern_of("gain {{TIME}} of {{TIME}}")));
  EXPECT_TRUE(std::regex_match("r1,2,0.6,1e-05", pattern_of("r1,{{NUM}},{{NUM}},{{NUM}}")));
  EXPECT_FALSE(std::regex_match("gain a lot of 1.20 s", pattern_of("gain {{TIME}} of {{TIME}}")));
  EXPECT_FALSE(std::regex_match("r1 (x)", pattern_of("r1 {{NUM}}")));
}

// What `ompscope report DIR` does: report.json read back renders as the report did.
TEST(ReportReadBack, RendersTextCsvAndHtmlIdenticalToTheReportWritten) {
  const report::Report written = scale_report();
  const report::Report back =
      report::report_from_json(nlohmann::ordered_json::parse(report::to_json(written).dump(2)), "report.json");
  EXPECT_EQ(render_text_report(back), render_text_report(written));
  EXPECT_EQ(render_csv_report(back), render_csv_report(written));
  EXPECT_EQ(render_html_report(back), render_html_report(written));
}

}  // namespace
}  // namespace ompscope::output
