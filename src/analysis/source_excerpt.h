// The code beside the findings: reads the lines a report names (each construct's directive, each
// finding's place) from the files the debug info names, and stores them in the report, so the
// renderers show the loop being told to change without reading a file themselves.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "analysis/report.h"

namespace ompscope::analysis {

// Lines shown before and after the line named.
inline constexpr int kExcerptBefore = 1;
inline constexpr int kExcerptAfter = 2;
// A line longer than this is cut (with "…"), so a generated file cannot bloat report.json.
inline constexpr std::size_t kExcerptLineChars = 160;

// Reads files once each, and keeps what it read.
class SourceReader {
 public:
  // The lines around `line` of `file`; an excerpt whose `missing` says why where the file cannot
  // be read or has no such line.
  report::SourceExcerpt excerpt(const std::string& file, int line);

 private:
  std::map<std::string, std::vector<std::string>> files_;  // empty: not readable
  std::map<std::string, bool> readable_;
};

// Sets the source of every construct with a file:line, and of every finding whose file:line no
// finding before it has.
void attach_source_excerpts(Report& report, SourceReader& reader);
inline void attach_source_excerpts(Report& report) {
  SourceReader reader;
  attach_source_excerpts(report, reader);
}

}  // namespace ompscope::analysis
