// Each region's time T(t), and the program's, fitted over the thread counts of a `scale` run by
// the model stage (PMNF, src/model) and recorded in report.json, where every writer finds them.
// The fit starts from the typed Report, not from report.json: regions keep their ids (the JSON
// reader of src/model folds id, function and file into one display name), and the values fitted
// are exactly the per-count medians the report shows, so a drawn curve runs through its points.
#pragma once
#include <nlohmann/json.hpp>

#include "analysis/report.h"
#include "model/series_modeler.h"

namespace ompscope::cli {

// One law over all measured counts: a report shows one T(t) per region, and splitting the
// counts into behavioural classes needs six or more of them, more than a scale run usually has
// (`ompscope model report.json` still tries the splits).
model::ModelOptions scaling_model_options();

// `doc` is output::report_to_json(report). Adds a "model" (docs/design.md, "The report", plus
// "oversubscribed_threads": the fitted counts above the cores) to doc's "program" and to each
// region measured at model::kScaleMinimumThreadCounts or more counts. With fewer counts in the
// whole run nothing is fitted and one note says why; regions measured at too few counts, or
// whose fit failed, are named in one note.
void add_scaling_models(const analysis::Report& report, nlohmann::json& doc,
                        const model::ModelOptions& options = scaling_model_options());

}  // namespace ompscope::cli
