#include "model/extrap_text_reader.h"

#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <string_view>
#include <utility>

#include "common/error.h"

namespace ompscope::model {

namespace {

std::string_view trim(std::string_view text) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> result;
  std::size_t k = 0;
  while (k < text.size()) {
    while (k < text.size() && (text[k] == ' ' || text[k] == '\t')) ++k;
    const std::size_t begin = k;
    while (k < text.size() && text[k] != ' ' && text[k] != '\t') ++k;
    if (k > begin) result.push_back(text.substr(begin, k - begin));
  }
  return result;
}

std::optional<double> parse_number(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

class TextReader {
 public:
  explicit TextReader(std::string source) : source_(std::move(source)) {}

  void line(int number, std::string_view text) {
    line_ = number;
    text = trim(text);
    if (text.empty() || text.front() == '#') return;
    const auto space = text.find_first_of(" \t");
    const std::string_view keyword = text.substr(0, space);
    const std::string_view rest =
        space == std::string_view::npos ? std::string_view{} : trim(text.substr(space));
    if (keyword == "PARAMETER") return parameter(rest);
    if (keyword == "POINTS") return points(rest);
    if (keyword == "METRIC") return metric(rest);
    if (keyword == "REGION") return region(rest);
    if (keyword == "DATA") return data(rest);
    fail("unknown line '" + std::string(text.substr(0, 40)) +
         "' (expected PARAMETER, POINTS, REGION, METRIC, DATA, or a # comment)");
  }

  std::vector<Series> finish() {
    close_block("the end of the file");
    if (order_.empty()) {
      line_ = 0;
      fail("no DATA lines: nothing to model");
    }
    std::vector<Series> result;
    for (const auto& key : order_) result.push_back(std::move(series_[key]));
    return result;
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    if (line_ > 0) throw Error(source_ + ":" + std::to_string(line_) + ": " + message);
    throw Error(source_ + ": " + message);
  }

  void parameter(std::string_view rest) {
    for (std::string_view name : words(rest)) parameters_.emplace_back(name);
    if (words(rest).empty()) fail("PARAMETER without a name");
    if (parameters_.size() > 1) {
      std::string names;
      for (const auto& name : parameters_) names += (names.empty() ? "" : ", ") + name;
      fail("ompscope models one parameter (the thread count), but this file declares " +
           std::to_string(parameters_.size()) + ": " + names);
    }
  }

  // Bare numbers, or one number per parenthesised point: "( 1 ) ( 2 )", "(1) (2)", "((1))".
  void points(std::string_view rest) {
    if (parameters_.empty()) fail("POINTS before PARAMETER");
    if (data_started_) fail("POINTS after DATA: all points must be declared first");
    std::string spaced;
    for (char c : rest) {
      if (c == '(' || c == ')') {
        spaced += ' ';
        spaced += c;
        spaced += ' ';
      } else {
        spaced += c;
      }
    }
    int depth = 0;
    std::vector<double> coordinates;
    bool any = false;
    for (std::string_view word : words(spaced)) {
      if (word == "(") {
        ++depth;
        continue;
      }
      if (word == ")") {
        if (depth == 0) fail("')' without '(' in POINTS");
        if (--depth == 0) {
          if (coordinates.size() != 1)
            fail("a point has " + std::to_string(coordinates.size()) +
                 " coordinates; ompscope models one parameter (the thread count)");
          add_point(coordinates.front());
          coordinates.clear();
        }
        continue;
      }
      const auto value = parse_number(word);
      if (!value) fail("'" + std::string(word) + "' in POINTS is not a number");
      if (depth == 0) {
        add_point(*value);
      } else {
        coordinates.push_back(*value);
      }
      any = true;
    }
    if (depth != 0) fail("'(' without ')' in POINTS");
    if (!any) fail("POINTS without any point");
  }

  void add_point(double threads) {
    if (!(threads >= 1))
      fail("point " + std::to_string(threads) + " is not a thread count (>= 1)");
    points_.push_back(threads);
  }

  void metric(std::string_view rest) {
    if (rest.empty()) fail("METRIC without a name");
    close_block("METRIC");
    metric_ = std::string(rest);
  }

  void region(std::string_view rest) {
    if (rest.empty()) fail("REGION without a name");
    close_block("REGION");
    region_ = std::string(rest);
  }

  void data(std::string_view rest) {
    if (points_.empty()) fail("DATA before POINTS");
    if (!region_) fail("DATA before REGION");
    const auto values = words(rest);
    if (values.empty()) fail("DATA without values");
    if (block_lines_ == 0) {
      block_start_ = line_;
      data_started_ = true;
    }
    if (block_lines_ == points_.size())
      fail("one DATA line too many for region '" + *region_ + "' metric '" + metric_ +
           "': POINTS lists " + std::to_string(points_.size()) + " points");
    const std::pair key{*region_, metric_};
    auto [it, inserted] = series_.try_emplace(key);
    if (inserted) {
      order_.push_back(key);
      it->second.region = *region_;
      it->second.metric = metric_;
    }
    Measurement measurement{points_[block_lines_], {}};
    for (std::string_view word : values) {
      const auto value = parse_number(word);
      if (!value) fail("'" + std::string(word) + "' in DATA is not a finite number");
      measurement.values.push_back(*value);
    }
    it->second.points.push_back(std::move(measurement));
    ++block_lines_;
  }

  // A block of DATA lines must give exactly one line per point.
  void close_block(const std::string& what_ended_it) {
    if (block_lines_ != 0 && block_lines_ != points_.size())
      fail("region '" + *region_ + "' metric '" + metric_ + "' has " +
           std::to_string(block_lines_) + " DATA lines (from line " +
           std::to_string(block_start_) + ") before " + what_ended_it + ", but POINTS lists " +
           std::to_string(points_.size()) + " points");
    block_lines_ = 0;
  }

  std::string source_;
  int line_ = 0;
  std::vector<std::string> parameters_;
  std::vector<double> points_;
  std::string metric_ = "time";
  std::optional<std::string> region_;
  std::size_t block_lines_ = 0;
  int block_start_ = 0;
  bool data_started_ = false;
  std::map<std::pair<std::string, std::string>, Series> series_;
  std::vector<std::pair<std::string, std::string>> order_;
};

}  // namespace

std::vector<Series> read_extrap_text(std::istream& in, const std::string& source_name) {
  TextReader reader(source_name);
  std::string text;
  int number = 0;
  while (std::getline(in, text)) reader.line(++number, text);
  if (in.bad()) throw Error(source_name + ": read error");
  return reader.finish();
}

}  // namespace ompscope::model
