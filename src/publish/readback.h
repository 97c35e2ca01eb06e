// The check before the pointer moves (docs/publish.md, "Validation"): every relation of a
// version is read back from the target by DuckDB, as a consumer reads it (iceberg_scan of the
// published metadata file; ATTACH of the models file; httpfs for s3://), and its row count,
// ordered-schema hash and load ids must equal the manifest's.
#pragma once

#include <string>
#include <vector>

#include "common/error.h"
#include "duck/connection.h"
#include "publish/layout.h"
#include "publish/manifest.h"

namespace databox::publish {

//! The problems found, one line each naming the relation ("raw_x.t: 10 rows, the manifest
//! says 12"); empty when every relation reads back as the manifest says. `conn` has the iceberg
//! extension loaded (and httpfs with the target's secret for s3://). An error only when the
//! models file cannot be attached.
Result<std::vector<std::string>> ReadBack(duck::Connection& conn, const Manifest& manifest,
                                          const Layout& layout);

}  // namespace databox::publish
