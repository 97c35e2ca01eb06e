// Keeping secrets out of the status page. Run records are redacted when they are written, but
// a record written before a secret was set (or by an older version) may still hold one, so the
// page redacts again with every secret the process knows: loading the registry registers each
// one it resolves (RegisterSecrets in registry/registry.cc), which is all the page's texts can
// hold.
#pragma once

#include "report/report_model.h"

namespace databox::report {

//! Redacts (common/redact.h) every free text of `report`: run and source errors, notes,
//! inspection problems, transform log tails, problems.
void RedactReport(Report& report);

}  // namespace databox::report
