// What `databox run` and `databox ingest` print about a committed load.
#pragma once

#include "load/source_load.h"

namespace databox::cli {

//! Prints a committed load's tables (table, disposition, rows, snapshot) and notes, indented.
void PrintLoadedTables(const load::SourceLoadResult& loaded);

}  // namespace databox::cli
