// Each model's health from the run history: its result in the newest transform whose record
// lists it (`transform.models`, refresh/model_results.h), its newest known build, and the
// models the transform project declares that no transform has named yet ("unknown"). Sorted for
// the page: failed models first, then by name.
#pragma once

#include <vector>

#include "refresh/run_history.h"
#include "report/report_model.h"

namespace databox::report {

//! The models of `scanned` (the project's files) and of `records` (oldest first).
std::vector<ModelHealth> ModelHealthOf(const std::vector<ModelReads>& scanned,
                                       const std::vector<refresh::RunRecord>& records);

//! The status of `model` in `health`; "unknown" when it is not there.
std::string ModelStatusOf(const std::vector<ModelHealth>& health, const std::string& model);

}  // namespace databox::report
