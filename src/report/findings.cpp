#include "report/findings.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace ompscope::report {
namespace {

// The construct (at any depth) that carries the largest share of `kind` at `threads`.
const ConstructReport* carrier(const std::vector<ConstructReport>& constructs, CauseKind kind, int threads,
                               double& best) {
  const ConstructReport* found = nullptr;
  for (const ConstructReport& c : constructs) {
    for (const Problem& p : c.problems)
      if (p.kind == kind.name() && p.threads == threads && p.gain_s > best && (!c.file.empty() || !c.function.empty())) {
        best = p.gain_s;
        found = &c;
      }
    if (const ConstructReport* inner = carrier(c.constructs, kind, threads, best)) found = inner;
  }
  return found;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n'; }

std::string trimmed(std::string s) {
  while (!s.empty() && (is_space(s.back()) || s.back() == ',' || s.back() == ':')) s.pop_back();
  std::size_t start = 0;
  while (start < s.size() && is_space(s[start])) ++start;
  return s.substr(start);
}

}  // namespace

int ranked_count(const Report& report) {
  if (!report.summary_threads.empty()) return report.summary_threads.front();
  const std::vector<int> counts = summary_counts(report);
  return counts.empty() ? 0 : counts.front();
}

namespace {

// Words a hint's advice starts with: the imperative of what to change (English, not causes).
constexpr std::string_view kActionVerbs[] = {
    "accumulate", "add",      "allocate", "avoid",  "batch",  "bind",    "block",   "call",     "collapse",
    "create",     "cut",      "divide",   "drop",   "fuse",   "give",    "hand",    "hoist",    "increase", "keep",
    "lower",      "make",     "merge",    "move",   "open",   "overlap", "pad",     "parallelise", "parallelize",
    "partition",  "raise",    "reduce",   "remove", "replace", "reuse",  "run",     "schedule", "set",     "share",
    "shorten",    "split",    "spread",   "stop",   "take",   "try",     "turn",    "use"};

bool starts_with_action(std::string_view clause) {
  const std::size_t end = clause.find_first_of(" ,(");
  const std::string_view word = clause.substr(0, end);
  for (std::string_view verb : kActionVerbs)
    if (word == verb) return true;
  return false;
}

// A clause without the remarks in parentheses that follow a space.
std::string without_remarks(std::string_view clause) {
  std::string out;
  int depth = 0;
  bool skipping = false;
  for (std::size_t i = 0; i < clause.size(); ++i) {
    const char c = clause[i];
    if (c == '(') {
      if (depth == 0) skipping = i > 0 && clause[i - 1] == ' ';
      ++depth;
    } else if (c == ')' && depth > 0) {
      --depth;
      if (depth == 0 && skipping) {
        skipping = false;
        while (!out.empty() && out.back() == ' ') out.pop_back();
        continue;
      }
    }
    if (!skipping) out += c;
  }
  return trimmed(out);
}

}  // namespace

std::string first_action(std::string_view hint) {
  // The first sentence, cut into clauses at ": " and "; " outside parentheses.
  std::vector<std::string_view> clauses;
  std::size_t before_list = std::string_view::npos;  // clauses before the first "; "
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < hint.size(); ++i) {
    const char c = hint[i];
    if (c == '(') ++depth;
    else if (c == ')' && depth > 0) --depth;
    const bool follows_space = i + 1 == hint.size() || hint[i + 1] == ' ';
    if (depth != 0 || !follows_space || (c != ':' && c != ';' && c != '.')) continue;
    clauses.push_back(hint.substr(start, i - start));
    if (c == ';' && before_list == std::string_view::npos) before_list = clauses.size();
    start = i + 2;
    if (c == '.') break;
    if (i + 1 == hint.size()) break;
  }
  if (start < hint.size() && (clauses.empty() || hint[start - 2] != '.')) clauses.push_back(hint.substr(start));
  // The first clause that says what to do; else what follows the first sentence's last colon
  // before its first "; ": the clauses after that are more items of a list ("A: x1; y: x2"), and
  // the list comes largest first (task_inflation's sites: the last one's +0% stood for a +2%).
  for (std::string_view clause : clauses) {
    while (!clause.empty() && clause.front() == ' ') clause.remove_prefix(1);
    if (starts_with_action(clause)) return without_remarks(clause);
  }
  return clauses.empty() ? std::string() : without_remarks(clauses[std::min(before_list, clauses.size()) - 1]);
}

std::string certainty_of(double gain_s, double spread_s, int repeats) {
  if (repeats < 2) return "one_run";
  if (gain_s >= 3 * spread_s) return "firm";
  if (gain_s >= spread_s) return "likely";
  return "within_noise";
}

std::vector<Finding> build_findings(const Report& report) {
  const int t = ranked_count(report);
  std::vector<Finding> out;
  if (t == 0) return out;
  const auto run = report.program_time_s.find(t);
  const double run_time = run == report.program_time_s.end() ? 0.0 : run->second;
  int repeats = 0;
  for (const RunRecord& r : report.runs)
    if (r.threads == t && r.observed) ++repeats;
  for (const RegionReport& region : report.regions) {
    const auto region_time = region.time_s.find(t);
    // The floor of the text report's cause lists: 1% of the run (or of the region, if longer).
    const double floor =
        0.01 * std::max(run_time, region_time == region.time_s.end() ? 0.0 : region_time->second);
    for (const Problem& p : region.problems) {
      if (p.threads != t || !(p.gain_s > 0) || p.gain_s < floor) continue;
      Finding f{p.kind};
      f.region = region.id;
      f.threads = t;
      f.file = region.file;
      f.line = region.line;
      f.function = region.function;
      double best = 0;
      if (const ConstructReport* c = carrier(region.constructs, p.kind, t, best)) {
        if (!c->file.empty()) {
          f.file = c->file;
          f.line = c->line;
        }
        if (!c->function.empty()) f.function = c->function;
      }
      f.gain_s = p.gain_s;
      f.time_s = p.time_s;
      f.run_share = run_time > 0 ? p.gain_s / run_time : 0.0;
      f.action = first_action(p.hint);
      f.hint = p.hint;
      f.repeats = std::max(repeats, 1);
      const auto spread = region.time_spread_s.find(t);
      f.spread_s = spread == region.time_spread_s.end() ? 0.0 : spread->second;
      f.certainty = certainty_of(f.gain_s, f.spread_s, f.repeats);
      out.push_back(std::move(f));
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Finding& a, const Finding& b) { return a.gain_s > b.gain_s; });
  if (out.size() > kMaxFindings) out.erase(out.begin() + kMaxFindings, out.end());
  return out;
}

}  // namespace ompscope::report
