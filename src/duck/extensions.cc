#include "duck/extensions.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>

#include "duck/quote.h"
#include "duck/version.h"

namespace databox::duck {
namespace {

bool IsPlainName(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::islower(c) || std::isdigit(c) || c == '_';
  });
}

}  // namespace

Result<std::string> ExtensionPath(Connection& conn, const std::string& name) {
  if (!IsPlainName(name)) {
    return MakeError(ErrorKind::kConfig, "invalid DuckDB extension name '" + name +
                                             "': use the lower-case name, e.g. iceberg");
  }
  DATABOX_ASSIGN_OR_RETURN(auto platform, conn.Query("SELECT platform FROM pragma_platform()"));
  DATABOX_ASSIGN_OR_RETURN(std::string platform_name, platform.GetString(0, 0));
  const std::filesystem::path path = std::filesystem::path(conn.extension_directory()) /
                                     LibraryVersion() / platform_name /
                                     (name + ".duckdb_extension");
  return path.string();
}

Status LoadExtension(Connection& conn, const std::string& name) {
  DATABOX_ASSIGN_OR_RETURN(std::string path, ExtensionPath(conn, name));
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return MakeError(ErrorKind::kNotFound, "extension " + name + " not found in " +
                                               conn.extension_directory() + " (looked for " + path +
                                               "): run scripts/setup");
  }
  auto loaded = conn.Execute("LOAD " + QuoteLiteral(path));
  if (!loaded) return std::unexpected(loaded.error().WithContext("loading extension " + name));
  return Ok();
}

}  // namespace databox::duck
