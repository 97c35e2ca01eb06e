// `databox catalog backup [--to DIR]` and `databox catalog restore BACKUP [--force]
// [--roll-forward]` (platform/catalog_backup.h): the embedded SQL catalog's SQLite file, or a
// REST catalog server's PostgreSQL database through pg_dump / pg_restore, with the tables the
// REST catalog lists recorded at backup time and checked after a restore.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command.h"
#include "platform/catalog_backup.h"
#include "registry/model.h"

namespace databox::cli {

//! Adds the `backup` and `restore` subcommands to `app`; `chosen` gets the runner of the one
//! that is parsed.
void DeclareBackupAndRestore(CLI::App& app, Runner& chosen);

//! What platform::BackupCatalog lists a REST catalog's tables with (every table the catalog
//! serves and its metadata location); empty for the embedded catalog. `project` must outlive it.
platform::TableLister BackupTableLister(const registry::ProjectSettings& project);

}  // namespace databox::cli
