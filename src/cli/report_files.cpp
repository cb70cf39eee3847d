#include "cli/report_files.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "common/error.h"
#include "output/csv_report.h"
#include "output/html_report.h"
#include "output/text_report.h"
#include "report/report_json.h"

namespace ompscope::cli {
namespace fs = std::filesystem;

namespace {
void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.flush();
  if (!out) throw Error(fmt::format("cannot write {} (disk full?)", path.string()));
}
}  // namespace

void write_report_files(const fs::path& dir, const report::Report& report) {
  write_file(dir / "report.json", report::to_json(report).dump(2) + "\n");
  write_file(dir / "report.txt", output::render_text_report(report));
  write_file(dir / "report.csv", output::render_csv_report(report));
  write_file(dir / "report.html", output::render_html_report(report));
}

report::Report read_report_file(const fs::path& dir) {
  const fs::path file = fs::is_directory(dir) ? dir / "report.json" : dir;
  if (fs::is_directory(dir) && !fs::exists(file))
    throw Error(fmt::format("{}: no report.json there: not an ompscope output directory", dir.string()));
  return report::read_report(file.string());
}

bool colour_wanted(std::FILE* stream) {
  const char* no_colour = getenv("NO_COLOR");
  return isatty(fileno(stream)) && !(no_colour && *no_colour);
}

void show_text_report(const report::Report& report, std::FILE* stream) {
  output::TextOptions options;
  options.colour = colour_wanted(stream);
  fmt::print(stream, "{}", output::render_text_report(report, options));
}

}  // namespace ompscope::cli
