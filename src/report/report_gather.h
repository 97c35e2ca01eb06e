// What `databox report` puts on its page, gathered from the registry, the run history, the
// catalog's tables (read by the caller from their metadata alone, as `databox catalog list`
// reads them) and the transform project's model files, then redacted. Parts that cannot be read
// are named in the report (tables_problem, models_problem) instead of failing the whole page.
#pragma once

#include <cstdint>
#include <vector>

#include "common/error.h"
#include "refresh/run_history.h"
#include "registry/model.h"
#include "report/report_model.h"

namespace databox::report {

struct ReportOptions {
  std::size_t runs = 20;            //!< newest runs shown
  int64_t stale_after_seconds = 0;  //!< routine sources older than this are stale
};

//! The report of `registry` now. `tables`: the catalog's tables with their counts (loaded_at
//! is filled in here), or why they could not be read; `records` oldest first, as
//! RunHistory::ReadAll returns them.
Report GatherReport(const registry::Registry& registry, Result<std::vector<TableState>> tables,
                    std::vector<refresh::RunRecord> records, const ReportOptions& options);

}  // namespace databox::report
