// `databox catalog recover --from-warehouse [--apply] [--include-unconfirmed] [--roll-forward]
// [--tables-under LOCATION] [--json]` (platform/catalog_recover.h) and the report it prints, also
// after `databox catalog restore --roll-forward`.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/command.h"
#include "iceberg/recovery/warehouse_recovery.h"

namespace databox::cli {

//! The report in words: one line per table, the refused files under it, then a summary line.
std::string FormatRecovery(const iceberg::WarehouseRecovery& recovery, bool applied,
                           double seconds);
//! The same as JSON.
nlohmann::json RecoveryJson(const iceberg::WarehouseRecovery& recovery, bool applied,
                            double seconds);

//! Adds the `recover` subcommand to `app`; `chosen` gets its runner when it is parsed.
void DeclareRecover(CLI::App& app, Runner& chosen);

}  // namespace databox::cli
