#include "duck/database.h"

#include <memory>
#include <string>

#include "duck/error_internal.h"
#include "duck/handles_internal.h"
#include "duck/quote.h"

namespace databox::duck {
namespace {

struct ConfigDeleter {
  void operator()(duckdb_config config) const { duckdb_destroy_config(&config); }
};
using ConfigPtr = std::unique_ptr<_duckdb_config, ConfigDeleter>;

Status Set(duckdb_config config, const std::string& name, const std::string& value) {
  if (duckdb_set_config(config, name.c_str(), value.c_str()) == DuckDBError) {
    return MakeError(ErrorKind::kConfig, "DuckDB rejected setting " + name + "='" + value +
                                             "': check the name and value of this option");
  }
  return Ok();
}

}  // namespace

Result<Database> Database::Open(const std::string& path, const DatabaseOptions& options) {
  duckdb_config raw_config = nullptr;
  if (duckdb_create_config(&raw_config) == DuckDBError) {
    return MakeError(ErrorKind::kInternal, "could not allocate a DuckDB configuration");
  }
  ConfigPtr config(raw_config);
  DATABOX_RETURN_IF_ERROR(Set(config.get(), "autoinstall_known_extensions", "false"));
  DATABOX_RETURN_IF_ERROR(Set(config.get(), "autoload_known_extensions", "false"));
  DATABOX_RETURN_IF_ERROR(Set(config.get(), "extension_directory", options.extension_directory));
  if (options.threads) {
    DATABOX_RETURN_IF_ERROR(Set(config.get(), "threads", std::to_string(*options.threads)));
  }
  if (options.memory_limit) {
    DATABOX_RETURN_IF_ERROR(Set(config.get(), "memory_limit", *options.memory_limit));
  }
  if (options.temp_directory) {
    DATABOX_RETURN_IF_ERROR(Set(config.get(), "temp_directory", *options.temp_directory));
  }
  if (options.read_only) {
    DATABOX_RETURN_IF_ERROR(Set(config.get(), "access_mode", "READ_ONLY"));
  }
  for (const auto& setting : options.settings) {
    const std::string& name = setting.first;
    if (name == "autoinstall_known_extensions" || name == "autoload_known_extensions" ||
        name == "extension_directory") {
      return MakeError(ErrorKind::kConfig, "setting " + name +
                                               " is fixed by Databox: remove it from "
                                               "DatabaseOptions::settings");
    }
  }

  duckdb_database db = nullptr;
  char* raw_error = nullptr;
  const char* c_path = path.empty() ? nullptr : path.c_str();
  if (duckdb_open_ext(c_path, &db, config.get(), &raw_error) == DuckDBError) {
    internal::DuckStringPtr error(raw_error);
    std::string where = path.empty() ? std::string("in-memory database") : "database " + path;
    return MakeError(ErrorKind::kIo, "opening DuckDB " + where + ": " +
                                         (error ? error.get() : "unknown DuckDB error"));
  }
  Database database(db, path, options);
  DATABOX_RETURN_IF_ERROR(database.ApplySettings());
  return database;
}

Status Database::ApplySettings() {
  if (options_.settings.empty()) return Ok();
  duckdb_connection raw = nullptr;
  if (duckdb_connect(db_.get(), &raw) == DuckDBError) {
    return MakeError(ErrorKind::kInternal, "connecting to a just-opened DuckDB database failed");
  }
  std::unique_ptr<_duckdb_connection, void (*)(duckdb_connection)> conn(
      raw, [](duckdb_connection c) { duckdb_disconnect(&c); });
  for (const auto& [name, value] : options_.settings) {
    internal::ResultGuard guard;
    const std::string sql = "SET GLOBAL " + QuoteIdentifier(name) + " = " + QuoteLiteral(value);
    if (duckdb_query(conn.get(), sql.c_str(), &guard.result) == DuckDBError) {
      Error error = internal::ResultError(&guard.result, "applying DuckDB setting " + name);
      error.kind = ErrorKind::kConfig;
      return std::unexpected(std::move(error));
    }
  }
  return Ok();
}

}  // namespace databox::duck
