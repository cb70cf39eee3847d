// ompscope diff A B: two saved reports compared region by region (docs/diff.md); the comparison
// is analysis::diff_reports, its formats output/diff_reporters.h.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>

#include "analysis/diff_reports.h"
#include "cli/commands.h"
#include "cli/output_dir.h"
#include "cli/report_files.h"
#include "common/safe_file.h"
#include "output/diff_reporters.h"
#include "output/reporters.h"

namespace ompscope::cli {
Command add_diff_command(CLI::App& parent) {
  struct Options {
    std::string a, b, out, format = "text";
    int threads = 0;
  };
  auto options = std::make_shared<Options>();
  CLI::App* app = parent.add_subcommand(
      "diff", "compare two saved reports (before and after a change): each region's time and causes side by side");
  app->add_option("a", options->a, "the first output directory of profile or scale (before)")->required();
  app->add_option("b", options->b, "the second (after)")->required();
  app->add_option("--format", options->format, fmt::format("{}", fmt::join(output::names_of(output::diff_reporters()), " | ")))
      ->check(CLI::IsMember(output::names_of(output::diff_reporters())));
  app->add_option("-t,--threads", options->threads, "the thread count to compare at (default: the largest both measured)")
      ->check(CLI::PositiveNumber);
  CLI::Option* out = app->add_option("-o,--output", options->out,
                                     "write diff.json, diff.txt, diff.csv and diff.html into this directory");
  return {app, [options, out]() -> int {
            const report::Report a = read_report_file(options->a), b = read_report_file(options->b);
            const report::ReportDiff diff =
                analysis::diff_reports(a, options->a, b, options->b,
                                       options->threads > 0 ? std::optional(options->threads) : std::nullopt);
            // -o "" (an unset variable in a script) is refused by claim, as profile's is.
            if (out->count() > 0) {
              const OutputDir dir = OutputDir::claim(options->out, "diff");
              for (const output::DiffReporter& r : output::diff_reporters())
                write_file_replacing(dir.path() / r.file, r.render(diff));
            }
            fmt::print("{}", output::find_diff_reporter(options->format)->render(diff));
            return 0;
          }};
}

}  // namespace ompscope::cli
