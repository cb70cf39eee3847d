#include "output/display_format.h"

#include <fmt/format.h>

#include <cmath>

namespace ompscope::output {

namespace {
// Three significant digits: 950 ms, 12.5 ms, 1.60 s.
std::string three_digits(double value, std::string_view unit) {
  const double magnitude = std::fabs(value);
  const int decimals = magnitude >= 99.95 ? 0 : magnitude >= 9.995 ? 1 : 2;
  return fmt::format("{:.{}f} {}", value, decimals, unit);
}
}  // namespace

std::string format_seconds(double seconds) {
  const double magnitude = std::fabs(seconds);
  if (magnitude == 0.0) return "0 s";
  if (magnitude >= 0.9995) return three_digits(seconds, "s");
  if (magnitude >= 0.9995e-3) return three_digits(seconds * 1e3, "ms");
  if (magnitude >= 0.9995e-6) return three_digits(seconds * 1e6, "µs");
  return fmt::format("{:.0f} ns", seconds * 1e9);
}

std::string format_signed_seconds(double seconds) {
  return (seconds < 0 ? "-" : "+") + format_seconds(std::abs(seconds));
}

std::string format_percent(double fraction) { return fmt::format("{:.0f}%", fraction * 100.0); }

std::string format_speedup(double speedup) { return fmt::format("{:.2f}×", speedup); }

TimeUnit time_unit_for(double largest_seconds) {
  const double magnitude = std::fabs(largest_seconds);
  if (magnitude >= 1.0 || magnitude == 0.0) return {"s", 1.0};
  if (magnitude >= 1e-3) return {"ms", 1e3};
  if (magnitude >= 1e-6) return {"µs", 1e6};
  return {"ns", 1e9};
}

namespace {
bool is_utf8_continuation(char byte) { return (static_cast<unsigned char>(byte) & 0xC0) == 0x80; }
}  // namespace

std::string truncate_label(std::string_view text, std::size_t max_chars) {
  if (max_chars == 0) return {};
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (is_utf8_continuation(text[i])) continue;
    if (chars == max_chars) {
      // One character of room is taken by the ellipsis, so cut before the last one kept.
      std::size_t cut = i;
      do { --cut; } while (cut > 0 && is_utf8_continuation(text[cut]));
      return std::string(text.substr(0, cut)) + "…";
    }
    ++chars;
  }
  return std::string(text);
}

std::string sampled_line_place(const report::SampledLine& line) {
  if (line.file.empty())
    return (line.function.empty() ? std::string("(no symbol)") : line.function) + (line.module.empty() ? "" : " " + line.module);
  std::string place = std::string(std::string_view(line.file).substr(line.file.rfind('/') + 1)) + ":" + std::to_string(line.line);
  return line.function.empty() ? place : place + " (" + line.function + ")";
}

}  // namespace ompscope::output
