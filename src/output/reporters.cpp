#include "output/reporters.h"

#include <array>

#include "output/collapsed_stacks.h"
#include "output/csv_report.h"
#include "output/html_report.h"
#include "output/text_report.h"
#include "report/report_json.h"

namespace ompscope::output {
namespace {

std::string json(const report::Report& r, const RenderOptions&) { return report::to_json(r).dump(2) + "\n"; }
std::string text(const report::Report& r, const RenderOptions& o) { return render_text_report(r, {.colour = o.colour}); }
std::string csv(const report::Report& r, const RenderOptions&) { return render_csv_report(r); }
std::string html(const report::Report& r, const RenderOptions&) { return render_html_report(r); }
std::string collapsed(const report::Report& r, const RenderOptions&) { return render_collapsed_stacks(r); }

constexpr std::array<Reporter, 5> kReporters{{
    {"json", "report.json", json},
    {"text", "report.txt", text},
    {"csv", "report.csv", csv},
    {"html", "report.html", html},
    {"collapsed", "stacks.folded", collapsed},
}};

}  // namespace

std::span<const Reporter> reporters() { return kReporters; }

const Reporter* find_reporter(std::string_view name) { return find_by_name(reporters(), name); }

}  // namespace ompscope::output
