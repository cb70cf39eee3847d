#include "analysis/sampled_code.h"

#include <algorithm>
#include <filesystem>
#include <tuple>

namespace ompscope::analysis {

InstanceIndex::InstanceIndex(const Timeline& timeline) {
  for (const RegionInstance& r : timeline.regions) {
    if (r.light && r.parent_parallel_id == 0) light_top.push_back(&r);
    for (const ThreadInRegion& p : r.threads) parts[p.thread].emplace_back(p.start, p.end, &r);
    // The master from the fork to the join: starting and ending the team (GOMP_parallel's own
    // time on libgomp, before its implicit task begins) is the region's, not serial code's.
    if (!r.light) parts[r.master_thread].emplace_back(r.begin, r.end, &r);
  }
  for (auto& [thread, list] : parts) std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) {
      return std::get<0>(a) < std::get<0>(b);
    });
  std::sort(light_top.begin(), light_top.end(),
            [](const RegionInstance* a, const RegionInstance* b) { return a->begin < b->begin; });
}

const RegionInstance* InstanceIndex::at(uint32_t thread, double time) const {
  if (auto it = parts.find(thread); it != parts.end()) {
    const auto& list = it->second;
    auto after = std::upper_bound(list.begin(), list.end(), time,
                                  [](double t, const auto& part) { return t < std::get<0>(part); });
    // The latest part that began before `time` and still runs is the innermost; an enclosing one
    // began earlier. A few steps back cover any nesting a program has.
    for (int steps = 0; after != list.begin() && steps < 16; ++steps) {
      --after;
      if (time <= std::get<1>(*after)) return std::get<2>(*after);
    }
  }
  // A sampled-out instance has no threads: its span holds every thread's time in it.
  auto after = std::upper_bound(light_top.begin(), light_top.end(), time,
                                [](double t, const RegionInstance* r) { return t < r->begin; });
  if (after != light_top.begin() && time <= (*std::prev(after))->end) return *std::prev(after);
  return nullptr;
}

namespace {

bool is_program_code(const SourceLocation& where) {
  // A system library's line is none the user can change (the symbolizer reads none: its
  // function names it); the program's line that called it is.
  return !where.file.empty() && !where.in_runtime && !is_system_library(where.module) && !is_tool_library(where.module);
}

// ompscope's own frames are one name, as the line they give a sample is: their functions are the
// capture's internals, which the symbol table names without the functions inlined into them.
constexpr const char* kToolFrame = "(ompscope's capture)";

std::string frame_name(const SourceLocation& where) {
  if (is_tool_library(where.module)) return kToolFrame;
  if (!where.function.empty()) return where.function;
  return where.file_line();
}

// Appends a frame's name, where it is not a second tool frame in a row (one call into the
// capture is one frame of the stack).
void push_frame(std::vector<std::string>& names, std::string name) {
  if (name == kToolFrame && !names.empty() && names.back() == kToolFrame) return;
  names.push_back(std::move(name));
}

}  // namespace

DescribedSample describe_sample(const CpuSample& sample, Symbolizer& symbols) {
  // The interrupted instruction itself: resolve() takes a return address (the call before it).
  const SourceLocation leaf = symbols.resolve(sample.pc + 1);
  const SourceLocation* line = is_program_code(leaf) ? &leaf : nullptr;
  std::vector<std::string> names{frame_name(leaf)};
  // The frames: a chain that leaves the program's symbols (a frame without a frame pointer read
  // garbage) or enters the runtime (the region's caller) ends there.
  SourceLocation caller;
  for (uint64_t ret : sample.frames) {
    const SourceLocation& where = symbols.resolve(ret);
    if (where.function.empty() && where.file.empty()) break;
    if (where.in_runtime && !leaf.in_runtime) break;
    if (!line && is_program_code(where)) {
      caller = where;
      line = &caller;
    }
    push_frame(names, frame_name(where));
  }
  // No line of the program's: the library the sample was in, by its function (all of the
  // runtime's as one: its symbols are its internals).
  const SourceLocation& at = line ? *line : leaf;
  const std::string module = std::filesystem::path(at.module).filename().string();
  const std::string function = line                          ? at.function
                               : at.in_runtime               ? std::string("(OpenMP runtime)")
                               : is_tool_library(at.module)   ? std::string(kToolFrame)
                                                             : at.function;
  const std::string file = line ? at.file : std::string();
  const int line_number = line ? at.line : 0;
  DescribedSample out{{file.empty() ? function + "@" + module : file, line_number},
                      {file, line_number, function, module, sample.cpu_s},
                      {},
                      leaf.in_runtime};
  for (auto it = names.rbegin(); it != names.rend(); ++it) {
    if (!out.folded.empty()) out.folded += ';';
    out.folded += *it;
  }
  return out;
}

void add_sample(RunSamples& into, const DescribedSample& sample) {
  into.cpu_s += sample.line.cpu_s;
  if (sample.in_runtime) into.runtime_s += sample.line.cpu_s;
  report::SampledLine& l = into.lines[sample.key];
  if (l.cpu_s == 0) l = {sample.line.file, sample.line.line, sample.line.function, sample.line.module, 0};
  l.cpu_s += sample.line.cpu_s;
  into.stacks[sample.folded] += sample.line.cpu_s;
}

DescribedSamples::DescribedSamples(const Timeline& timeline, Symbolizer& symbols)
    : timeline_(timeline), symbols_(symbols), described_(timeline.samples.size()) {}

const DescribedSample& DescribedSamples::of(const CpuSample& sample) {
  const auto i = static_cast<size_t>(&sample - timeline_.samples.data());
  if (!described_.at(i)) {
    DescribedSample d = describe_sample(sample, symbols_);
    d.inline_flush = !d.in_runtime && !d.line.file.empty() && waits_on_flush(sources_, d.line.file, d.line.line);
    described_[i] = std::move(d);
  }
  return *described_[i];
}

std::map<std::pair<std::string, int>, report::SampledLine> mean_lines(const std::vector<const RunSamples*>& repeats) {
  std::map<std::pair<std::string, int>, report::SampledLine> out;
  for (const RunSamples* r : repeats)
    for (const auto& [key, line] : r->lines) {
      auto [it, fresh] = out.try_emplace(key, line);
      if (fresh) it->second.cpu_s = 0;
      it->second.cpu_s += line.cpu_s / static_cast<double>(repeats.size());
    }
  return out;
}

namespace {

std::vector<report::SampledLine> largest(std::vector<report::SampledLine> lines, size_t top) {
  std::stable_sort(lines.begin(), lines.end(),
                   [](const report::SampledLine& a, const report::SampledLine& b) { return a.cpu_s > b.cpu_s; });
  if (lines.size() > top) lines.resize(top);
  return lines;
}

}  // namespace

report::SampledCode summarize_samples(const std::vector<const RunSamples*>& repeats, size_t top) {
  report::SampledCode out;
  if (repeats.empty()) return out;
  std::vector<report::SampledLine> lines;
  for (auto& [key, line] : mean_lines(repeats)) lines.push_back(line);
  for (const RunSamples* r : repeats) out.cpu_s += r->cpu_s / static_cast<double>(repeats.size());
  out.lines = largest(std::move(lines), top);
  return out;
}

std::vector<report::SampledLine> grown_lines(const std::vector<const RunSamples*>& base,
                                             const std::vector<const RunSamples*>& now, size_t top) {
  if (base.empty() || now.empty()) return {};
  const auto before = mean_lines(base);
  std::vector<report::SampledLine> grown;
  for (auto [key, line] : mean_lines(now)) {
    const auto it = before.find(key);
    line.cpu_s -= it == before.end() ? 0.0 : it->second.cpu_s;
    if (line.cpu_s > 0) grown.push_back(line);
  }
  return largest(std::move(grown), top);
}

std::vector<std::pair<std::string, double>> top_stacks(const std::vector<const RunSamples*>& repeats, size_t top) {
  std::map<std::string, double> mean;
  for (const RunSamples* r : repeats)
    for (const auto& [stack, s] : r->stacks) mean[stack] += s / static_cast<double>(repeats.size());
  std::vector<std::pair<std::string, double>> out(mean.begin(), mean.end());
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (out.size() > top) out.resize(top);
  return out;
}

}  // namespace ompscope::analysis
