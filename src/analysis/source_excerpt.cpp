#include "analysis/source_excerpt.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace ompscope::analysis {

report::SourceExcerpt SourceReader::excerpt(const std::string& file, int line) {
  report::SourceExcerpt out;
  out.file = file;
  out.line = line;
  if (!readable_.count(file)) {
    // A regular file only: a FIFO named by the debug information would block (docs/safety.md).
    std::error_code ec;
    std::ifstream in;
    if (std::filesystem::is_regular_file(file, ec)) in.open(file, std::ios::binary);
    bool ok = in.is_open() && static_cast<bool>(in);
    std::vector<std::string>& lines = files_[file];
    for (std::string text; ok && std::getline(in, text);) {
      if (!text.empty() && text.back() == '\r') text.pop_back();
      lines.push_back(std::move(text));
    }
    readable_[file] = ok;
  }
  if (!readable_[file]) {
    out.missing = "source not found: " + file;
    return out;
  }
  const std::vector<std::string>& lines = files_[file];
  if (line < 1 || line > static_cast<int>(lines.size())) {
    out.missing = fmt::format("source not found: {} has no line {} (changed since the build?)", file, line);
    return out;
  }
  const int first = std::max(1, line - kExcerptBefore);
  const int last = std::min(static_cast<int>(lines.size()), line + kExcerptAfter);
  out.first_line = first;
  for (int n = first; n <= last; ++n) {
    std::string text = lines[n - 1];
    if (text.size() > kExcerptLineChars) {
      // Cut at a character boundary of UTF-8.
      std::size_t cut = kExcerptLineChars;
      while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
      text = text.substr(0, cut) + "…";
    }
    out.lines.push_back(std::move(text));
  }
  return out;
}

namespace {

void attach(std::vector<report::ConstructReport>& constructs, SourceReader& reader) {
  for (report::ConstructReport& c : constructs) {
    if (!c.file.empty() && c.line > 0) c.source = reader.excerpt(c.file, c.line);
    attach(c.constructs, reader);
  }
}

}  // namespace

void attach_source_excerpts(Report& report, SourceReader& reader) {
  for (RegionReport& region : report.regions) attach(region.constructs, reader);
  // A finding at the place of one before it shows no lines of its own: they are just above.
  for (std::size_t i = 0; i < report.findings.size(); ++i) {
    report::Finding& f = report.findings[i];
    const auto same_place = [&f](const report::Finding& e) { return e.file == f.file && e.line == f.line; };
    if (f.file.empty() || f.line <= 0 ||
        std::any_of(report.findings.begin(), report.findings.begin() + static_cast<std::ptrdiff_t>(i), same_place))
      continue;
    f.source = reader.excerpt(f.file, f.line);
  }
}

}  // namespace ompscope::analysis
