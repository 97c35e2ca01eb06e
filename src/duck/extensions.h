// Loading optional DuckDB extensions (iceberg, httpfs, avro, excel) from the project's
// extension directory. Nothing is ever downloaded: scripts/setup installs the binaries.
#pragma once

#include <string>

#include "common/error.h"
#include "duck/connection.h"

namespace databox::duck {

//! Path where `name` must be: <extension_directory>/<version>/<platform>/<name>.duckdb_extension.
Result<std::string> ExtensionPath(Connection& conn, const std::string& name);

//! LOADs extension `name` into the connection's database. kNotFound ("extension iceberg not found
//! in <dir>: run scripts/setup") when the binary is absent; DuckDB's message if LOAD fails.
Status LoadExtension(Connection& conn, const std::string& name);

}  // namespace databox::duck
