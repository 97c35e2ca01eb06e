#include "publish/model_export.h"

#include <filesystem>
#include <system_error>

#include "duck/quote.h"

namespace databox::publish {
namespace {

constexpr const char* kExportAlias = "databox_publish_models";

std::pair<std::string, std::string> Split(const std::string& qualified) {
  const auto dot = qualified.find('.');
  if (dot == std::string::npos) return {"main", qualified};
  return {qualified.substr(0, dot), qualified.substr(dot + 1)};
}

}  // namespace

std::string RelationSql(const std::string& qualified, const std::string& database) {
  const auto [schema, name] = Split(qualified);
  std::string sql = "SELECT * FROM ";
  if (!database.empty()) sql += duck::QuoteIdentifier(database) + ".";
  return sql + duck::QuoteIdentifier(schema) + "." + duck::QuoteIdentifier(name);
}

Result<std::vector<std::string>> ListModels(duck::Connection& conn) {
  DATABOX_ASSIGN_OR_RETURN(
      duck::QueryResult rows,
      conn.Query("SELECT schema_name || '.' || table_name FROM duckdb_tables() WHERE "
                 "database_name = current_database() AND NOT internal AND NOT temporary "
                 "AND schema_name NOT LIKE 'sqlmesh\\_\\_%' ESCAPE '\\' AND schema_name NOT IN "
                 "('main', 'information_schema', 'pg_catalog') "
                 "UNION SELECT schema_name || '.' || view_name FROM duckdb_views() WHERE "
                 "database_name = current_database() AND NOT internal AND NOT temporary "
                 "AND schema_name NOT LIKE 'sqlmesh\\_\\_%' ESCAPE '\\' AND schema_name NOT IN "
                 "('main', 'information_schema', 'pg_catalog') ORDER BY 1"));
  std::vector<std::string> models;
  for (uint64_t row = 0; row < rows.row_count(); ++row) {
    DATABOX_ASSIGN_OR_RETURN(std::string name, rows.GetString(0, row));
    models.push_back(std::move(name));
  }
  return models;
}

Status ExportModels(duck::Connection& conn, const std::vector<std::string>& models,
                    const std::string& database) {
  std::error_code ignored;
  std::filesystem::remove(database, ignored);
  std::filesystem::remove(database + ".wal", ignored);
  const std::string alias = duck::QuoteIdentifier(kExportAlias);
  DATABOX_RETURN_IF_ERROR(conn.Execute("ATTACH " + duck::QuoteLiteral(database) + " AS " + alias));
  Status done = Ok();
  for (const std::string& model : models) {
    const auto [schema, name] = Split(model);
    done =
        conn.Execute("CREATE SCHEMA IF NOT EXISTS " + alias + "." + duck::QuoteIdentifier(schema));
    if (done) {
      done = conn.Execute("CREATE TABLE " + alias + "." + duck::QuoteIdentifier(schema) + "." +
                          duck::QuoteIdentifier(name) + " AS " + RelationSql(model));
    }
    if (!done) {
      done = std::unexpected(done.error().WithContext("exporting model " + model));
      break;
    }
  }
  Status detached = conn.Execute("DETACH " + alias);
  DATABOX_RETURN_IF_ERROR(done);
  return detached;
}

}  // namespace databox::publish
