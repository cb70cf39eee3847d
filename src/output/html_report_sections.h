// The HTML report's sections, each rendered from report.json into one <section> (or "" when the
// report has nothing for it). Everything that came from the observed program is escaped.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

namespace ompscope::output {

// Command, thread counts (oversubscribed ones labelled), cores, and how many runs failed.
std::string header_section(const nlohmann::json& report);

// One row per run, failed runs highlighted with what ended them.
std::string runs_section(const nlohmann::json& report);

std::string notes_section(const nlohmann::json& report);

// Time, efficiency and serial time per thread count; the Amdahl bound when known.
std::string program_section(const nlohmann::json& report);

// The ranked regions: location, function, instances, then time / efficiency / time lost per count.
std::string regions_section(const nlohmann::json& report);

// Per region: its hint table (cause, threads, time, gain, hint, details), its task graph (work, span,
// parallelism and the speedup bound beside the measured speedup) where it has tasks, and per-thread bars.
std::string diagnosis_section(const nlohmann::json& report);

}  // namespace ompscope::output
