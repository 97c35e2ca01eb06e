// What `databox report` puts on its page, gathered from the registry, the run history, the
// catalog's table metadata (as `databox catalog list` reads it: no data file is read) and the
// transform project's model files, then redacted. Parts that cannot be read are named in the
// report (tables_problem, models_problem) instead of failing the whole page.
#pragma once

#include <cstdint>
#include <vector>

#include "iceberg/catalog.h"
#include "refresh/run_history.h"
#include "registry/model.h"
#include "report/report_model.h"

namespace databox::cli {

struct ReportOptions {
  std::size_t runs = 20;            //!< newest runs shown
  int64_t stale_after_seconds = 0;  //!< routine sources older than this are stale
};

//! The report of `registry` now; `records` oldest first, as RunHistory::ReadAll returns them.
report::Report GatherReport(const registry::Registry& registry, iceberg::Catalog& catalog,
                            std::vector<refresh::RunRecord> records, const ReportOptions& options);

}  // namespace databox::cli
