#include "cli/report_files.h"

#include <fmt/format.h>
#include <unistd.h>

#include <fcntl.h>
#include <sys/file.h>

#include <algorithm>
#include <cstdlib>

#include "analysis/rank_merge.h"
#include "common/error.h"
#include "common/launcher_rank.h"
#include "common/safe_file.h"
#include "output/reporters.h"
#include "output/text_report.h"
#include "report/report_json.h"

namespace ompscope::cli {
namespace fs = std::filesystem;

namespace {
// Written to a new temporary beside its place (O_EXCL|O_NOFOLLOW: a planted symlink is never
// followed) and renamed into it: another rank's ompscope reading it meanwhile (docs/mpi.md) sees
// the old file or the new one, never half of one (docs/safety.md).
void write_file(const fs::path& path, const std::string& text) { write_file_replacing(path, text); }

std::vector<std::pair<int, fs::path>> rank_report_files(const fs::path& dir) {
  std::vector<std::pair<int, fs::path>> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() <= 5 || name.compare(0, 5, "rank-") != 0 ||
        !std::all_of(name.begin() + 5, name.end(), [](char c) { return c >= '0' && c <= '9'; }))
      continue;
    if (fs::exists(entry.path() / "report.json")) out.emplace_back(std::stoi(name.substr(5)), entry.path() / "report.json");
  }
  std::sort(out.begin(), out.end());
  return out;
}
}  // namespace

void write_report_files(const fs::path& dir, const report::Report& report) {
  for (const output::Reporter& format : output::reporters())
    write_file(dir / format.file, format.render(report, {}));
}

report::Report read_report_file(const fs::path& dir) {
  const fs::path file = fs::is_directory(dir) ? dir / "report.json" : dir;
  if (fs::is_directory(dir) && !fs::exists(file))
    throw Error(fmt::format("{}: no report.json there: not an ompscope output directory", dir.string()));
  return report::read_report(file.string());
}

bool colour_wanted(std::FILE* stream) {
  const char* no_colour = getenv("NO_COLOR");
  // stdout and stderr are ompscope's guarded streams (own_output.h), which have no descriptor.
  const int fd = stream == stdout ? STDOUT_FILENO : stream == stderr ? STDERR_FILENO : fileno(stream);
  return isatty(fd) && !(no_colour && *no_colour);
}

void show_text_report(const report::Report& report, std::FILE* stream) {
  output::TextOptions options;
  options.colour = colour_wanted(stream);
  fmt::print(stream, "{}", output::render_text_report(report, options));
}

report::Report write_job_reports(const fs::path& dir, const std::vector<report::Report>& ranks) {
  for (const report::Report& rank : ranks) {
    char name[32];
    rank_directory_name(rank.runs.empty() ? 0 : rank.runs.front().rank, name, sizeof name);
    const fs::path rank_dir = dir / name;
    make_own_directory(rank_dir);
    report::Report own = rank;
    for (report::RunRecord& run : own.runs)
      if (!run.log.empty()) run.log = fs::path(run.log).lexically_relative(name).string();
    write_report_files(rank_dir, own);
  }
  report::Report merged = analysis::merge_rank_reports(ranks);
  write_report_files(dir, merged);
  return merged;
}

bool has_rank_reports(const fs::path& dir) { return !rank_report_files(dir).empty(); }

std::optional<report::Report> merge_rank_reports_in(const fs::path& dir, int expected) {
  // One merge at a time: the ranks of `mpirun -np N ompscope profile` finish together.
  const int lock = open((dir / ".ompscope-merge.lock").c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (lock >= 0) flock(lock, LOCK_EX);
  std::optional<report::Report> merged;
  const auto files = rank_report_files(dir);
  // The ranks that finish together both find every rank's report; the first to hold the lock
  // merges them, and the next finds a merged report newer than each of them: nothing is left to
  // merge, and the merged report is shown once (two ranks both merged and printed it before).
  std::error_code error;
  const auto merged_at = fs::last_write_time(dir / "report.json", error);
  if (!error && expected > 0 && static_cast<int>(files.size()) >= expected &&
      std::all_of(files.begin(), files.end(), [&](const auto& f) {
        std::error_code e;
        return f.first >= expected || fs::last_write_time(f.second, e) < merged_at;
      })) {
    if (lock >= 0) close(lock);
    return std::nullopt;
  }
  std::vector<report::Report> ranks;
  for (const auto& [rank, file] : files)
    if (expected <= 0 || rank < expected) {
      report::Report r = report::read_report(file.string());
      for (report::RunRecord& run : r.runs)  // relative to DIR, not to DIR/rank-R
        run.log = (file.parent_path().filename() / run.log).lexically_normal().string();
      ranks.push_back(std::move(r));
    }
  if (!ranks.empty() && (expected <= 0 || static_cast<int>(ranks.size()) == expected)) {
    merged = analysis::merge_rank_reports(ranks);
    write_report_files(dir, *merged);
  }
  if (lock >= 0) close(lock);
  return merged;
}

}  // namespace ompscope::cli
