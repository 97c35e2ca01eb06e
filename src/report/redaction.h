// Keeping secrets out of the status page. Run records are redacted when they are written, but
// a record written before a secret was set (or by an older version) may still hold one, so the
// page redacts again with every secret the registry resolves.
#pragma once

#include "registry/model.h"
#include "report/report_model.h"

namespace databox::report {

//! Registers every secret value `registry` resolves (source auth, the catalog's credential and
//! backup password, S3 keys) for common/redact.h, then redacts every free text of `report`:
//! run and source errors, notes, inspection problems, transform log tails, problems.
void RedactReport(const registry::Registry& registry, Report& report);

}  // namespace databox::report
