// The version of the DuckDB library we run against.
#pragma once

#include <string>

namespace databox::duck {

//! DuckDB's version string, e.g. "v1.5.5". Extensions and database files must match it.
std::string LibraryVersion();

}  // namespace databox::duck
