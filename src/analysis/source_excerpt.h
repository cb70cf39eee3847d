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
  // Line `line` of `file` as written; null where the file cannot be read or has no such line.
  const std::string* text(const std::string& file, int line);

 private:
  const std::vector<std::string>* lines_of(const std::string& file);
  std::map<std::string, std::vector<std::string>> files_;  // empty: not readable
  std::map<std::string, bool> readable_;
};

// An OpenMP flush directive, C's `#pragma omp flush` or Fortran's `!$omp flush`, whatever the
// spacing, case and list: the line gcc gives the fence it inlines for one (clang calls the runtime).
bool is_flush_directive(const std::string& text);

// Line `line` of `file` is a flush directive, or the head of a loop whose body's first statement
// is one (on its next line, or the one after a lone brace): `while (flag[j - 1] == 0) { #pragma
// omp flush }`, where gcc puts the samples of the fence it inlined (on the load that follows it,
// the loop's condition).
bool waits_on_flush(SourceReader& reader, const std::string& file, int line);

// Sets the source of every construct with a file:line, and of every finding whose file:line no
// finding before it has.
void attach_source_excerpts(Report& report, SourceReader& reader);
inline void attach_source_excerpts(Report& report) {
  SourceReader reader;
  attach_source_excerpts(report, reader);
}

}  // namespace ompscope::analysis
