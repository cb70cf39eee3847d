// Each region's time T(t), and the program's, fitted over the thread counts of a `scale` run by
// the model stage (PMNF, src/model) and stored, typed, in the Report. The fit starts from the
// report's own per-count medians, so a drawn curve runs through the points the report shows.
#pragma once
#include "analysis/report.h"
#include "model/series_modeler.h"

namespace ompscope::analysis {

// One law over all measured counts: a report shows one T(t) per region, and splitting the
// counts into behavioural classes needs six or more of them, more than a scale run usually has
// (`ompscope model report.json` still tries the splits).
model::ModelOptions scaling_model_options();

// Sets the model of the program and of each region measured at model::kScaleMinimumThreadCounts
// or more counts, with the fitted counts above the cores named and the speedup curve the model
// predicts. With fewer counts in the whole run nothing is fitted and one note says why; regions
// measured at too few counts, or whose fit failed, are named in one note.
void add_scaling_models(Report& report, const model::ModelOptions& options = scaling_model_options());

}  // namespace ompscope::analysis
