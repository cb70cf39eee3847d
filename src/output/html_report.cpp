#include "output/html_report.h"

#include <fmt/format.h>

#include "output/html_escape.h"
#include "output/html_report_charts.h"
#include "output/html_report_sections.h"

namespace ompscope::output {

using report::Report;

namespace {

// System fonts only: a web font would be a network fetch.
constexpr const char* kStyle = R"css(
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       color: #1d1d1f; background: #f5f6f8; margin: 0; padding: 24px 32px 48px; }
h1 { font-size: 24px; margin: 0 0 2px; }
h2 { font-size: 18px; margin: 0 0 10px; }
h3 { font-size: 15px; margin: 14px 0 8px; }
header, section { background: #fff; border: 1px solid #dde1e6; border-radius: 8px; padding: 14px 18px;
                  margin: 0 0 16px; }
.tool { color: #666; margin: 0 0 8px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
dl.facts dt { font-weight: 600; color: #444; }
dl.facts dd { margin: 0; }
code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; overflow-wrap: break-word; }
.thread-count { display: inline-block; margin-right: 10px; }
.badge { display: inline-block; font-size: 11px; font-weight: 600; border-radius: 9px; padding: 0 7px;
         margin-left: 4px; vertical-align: 1px; }
.badge.kind { background: #eceef1; color: #444; border: 1px solid #ccd1d7; }
.badge.oversubscribed { background: #fff1d6; color: #8a5300; border: 1px solid #f0c36d; }
.failed-count { color: #b00020; }
table { border-collapse: collapse; margin: 4px 0 8px; }
th, td { border-bottom: 1px solid #e6e8eb; padding: 4px 10px; text-align: left; vertical-align: top; }
th { background: #f0f2f5; font-weight: 600; font-size: 13px; }
td.num, th.threads-group { text-align: right; white-space: nowrap; }
th.threads-group { text-align: center; border-left: 2px solid #dde1e6; }
tr.run.failed td { background: #fde7ea; }
tr.run.failed td.status strong { color: #b00020; }
td.dropped { background: #fff1d6; font-weight: 600; }
td.efficiency.good { background: #e3f4e1; }
td.efficiency.fair { background: #fff4d6; }
td.efficiency.poor { background: #fde3e3; }
td.gain { font-weight: 600; }
.table-scroll { overflow-x: auto; }
table.regions { font-size: 13px; }
table.regions th, table.regions td { padding: 4px 7px; }
table.regions thead tr + tr th { text-align: right; }
table.hints { width: 100%; }
table.hints td:first-child { white-space: nowrap; }
td.location { white-space: nowrap; }
td.function { min-width: 12em; max-width: 22em; }
.chart-grid + .chart-grid { margin-top: 16px; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; }
.location { color: #666; font-weight: normal; font-size: 13px; }
.chart-grid { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
svg.chart { font-family: system-ui, "DejaVu Sans", sans-serif; border: 1px solid #eceef1; border-radius: 6px;
            max-width: 100%; height: auto; }
svg.chart text { fill: #222; }
.amdahl { margin: 6px 0 0; }
td.model { min-width: 16em; border-left: 2px solid #dde1e6; }
.model-formula { white-space: nowrap; }
.model-about { color: #666; font-size: 12px; }
ol.findings { margin: 0 0 6px; padding-left: 22px; }
ol.findings > li { margin: 0 0 10px; }
.finding-line strong.cause { font-weight: 600; }
.action { font-weight: 600; }
.certainty { color: #555; font-size: 12.5px; font-weight: normal; }
details.runs > summary { cursor: pointer; color: #444; }
details.runs > summary h2 { display: inline; margin-right: 8px; }
.certainty.within_noise { color: #8a5300; }
pre.source { background: #f6f8fa; border: 1px solid #e3e6ea; border-radius: 4px; padding: 4px 8px; margin: 4px 0 0;
             font: 12px/1.4 "DejaVu Sans Mono", Menlo, Consolas, monospace; overflow-x: auto; }
pre.source .named { background: #fff3bf; display: inline-block; min-width: 100%; }
.source-missing { color: #8a5300; font-size: 12.5px; }
.legend-note { color: #555; font-size: 12.5px; margin: 4px 0; }
code.source-line { color: #555; background: #f6f8fa; padding: 0 4px; border-radius: 3px; }
)css";

std::string page_title(const Report& report) {
  return report.command.empty() ? "ompscope report" : "ompscope report: " + report.command.front();
}

std::string plots_section(const Report& report) {
  const ChartScope scope = chart_scope(report);
  return "<section id=\"plots\">\n<h2>Scaling</h2>\n<div class=\"chart-grid\">\n" + speedup_chart(report, scope) +
         efficiency_chart(report, scope) + "</div>\n<div class=\"chart-grid\">\n" + lost_time_chart(scope) +
         "</div>\n</section>\n";
}

}  // namespace

std::string render_html_report(const Report& report) {
  std::string html = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n"
      "<style>{}</style>\n</head>\n<body>\n",
      html_escape(page_title(report)), kStyle);
  html += header_section(report);
  // The order of the text report: findings, runs, the program, ranks, regions with their
  // causes, notes (the charts go with the program and regions they draw).
  html += findings_section(report);
  html += runs_section(report);
  html += program_section(report);
  html += ranks_section(report);
  html += plots_section(report);
  html += regions_section(report);
  html += diagnosis_section(report);
  html += notes_section(report);
  return html + "</body>\n</html>\n";
}

}  // namespace ompscope::output
