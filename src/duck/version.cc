#include "duck/version.h"

#include "duckdb.h"

namespace databox::duck {

std::string LibraryVersion() {
  const char* version = duckdb_library_version();
  return version != nullptr ? version : "";
}

}  // namespace databox::duck
