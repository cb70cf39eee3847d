#include "analysis/source_excerpt.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

namespace ompscope::analysis {

const std::vector<std::string>* SourceReader::lines_of(const std::string& file) {
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
  return readable_[file] ? &files_[file] : nullptr;
}

const std::string* SourceReader::text(const std::string& file, int line) {
  const std::vector<std::string>* lines = lines_of(file);
  if (!lines || line < 1 || line > static_cast<int>(lines->size())) return nullptr;
  return &(*lines)[line - 1];
}

namespace {

// The line in lower case with one space between words: what the directives are matched on.
std::string lower_words(const std::string& text) {
  std::string words;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!words.empty() && words.back() != ' ') words += ' ';
    } else {
      words += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return words;
}

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `word` (lower case) in `words` at `at`, not part of a longer word.
bool word_at(const std::string& words, const std::string& word, size_t at) {
  const size_t end = at + word.size();
  return words.compare(at, word.size(), word) == 0 && (at == 0 || !is_word_char(words[at - 1])) &&
         (end == words.size() || !is_word_char(words[end]));
}

}  // namespace

bool is_flush_directive(const std::string& text) {
  const std::string words = lower_words(text);
  for (const char* start : {"#pragma omp flush", "# pragma omp flush", "!$omp flush", "c$omp flush", "*$omp flush"})
    if (word_at(words, start, 0)) return true;
  return false;
}

bool waits_on_flush(SourceReader& reader, const std::string& file, int line) {
  const std::string* text = reader.text(file, line);
  if (!text) return false;
  if (is_flush_directive(*text)) return true;
  // A loop's head: `while`, `for` or `do` as a word (C), or Fortran's `do`.
  const std::string words = lower_words(*text);
  bool loop = false;
  for (const std::string word : {"while", "for", "do"})
    for (size_t at = words.find(word); at != std::string::npos && !loop; at = words.find(word, at + 1))
      loop = word_at(words, word, at);
  if (!loop) return false;
  // The body's first statement, past a brace on a line of its own.
  for (int next = line + 1; next <= line + 2; ++next) {
    const std::string* body = reader.text(file, next);
    if (!body) return false;
    const size_t first = body->find_first_not_of(" \t");
    if (first == std::string::npos || body->compare(first, std::string::npos, "{") == 0) continue;
    return is_flush_directive(*body);
  }
  return false;
}

report::SourceExcerpt SourceReader::excerpt(const std::string& file, int line) {
  report::SourceExcerpt out;
  out.file = file;
  out.line = line;
  const std::vector<std::string>* read = lines_of(file);
  if (!read) {
    out.missing = "source not found: " + file;
    return out;
  }
  const std::vector<std::string>& lines = *read;
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
