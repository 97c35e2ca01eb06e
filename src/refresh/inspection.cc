#include "refresh/inspection.h"

#include "duck/connection.h"
#include "duck/database.h"
#include "duck/quote.h"
#include "iceberg/data/scan_sql.h"
#include "load/source_load.h"
#include "load/system_tables.h"

namespace databox::refresh {
namespace {

//! Loads the table and checks it has a current snapshot; adds a problem otherwise.
std::optional<iceberg::Table> CheckTable(load::Workspace& ws, const std::string& ns,
                                         const std::string& name,
                                         std::vector<std::string>& problems) {
  auto table =
      iceberg::Table::Load(ws.catalog(), ws.file_io(), iceberg::TableIdentifier{{ns}, name});
  if (!table) {
    problems.push_back(ns + "." + name + ": " + table.error().message);
    return std::nullopt;
  }
  if (!table->metadata().current_snapshot_id) {
    problems.push_back(ns + "." + name + " has no current snapshot");
  }
  return std::move(*table);
}

}  // namespace

std::vector<std::string> InspectSource(load::Workspace& ws, const registry::Source& source,
                                       const std::string& load_id) {
  std::vector<std::string> problems;
  const std::string ns = source.Namespace();
  for (const registry::Resource& resource : source.resources) {
    if (!resource.enabled) continue;
    CheckTable(ws, ns, resource.name, problems);
    for (const std::string& child : resource.child_tables) CheckTable(ws, ns, child, problems);
  }
  auto status = CheckTable(ws, ns, load::kLoadStatusTable, problems);
  if (!status) return problems;
  auto read = iceberg::ReadSql(*status);
  auto db = duck::Database::Open("");
  auto conn = db ? duck::Connection::Open(*db) : std::unexpected(db.error());
  if (conn) {
    if (auto prepared = ws.PrepareDuckDbReads(*conn); !prepared) {
      conn = std::unexpected(prepared.error());
    }
  }
  if (!read || !conn) {
    problems.push_back(ns + "._dlt_load_status cannot be read: " +
                       (!read ? read.error().message : conn.error().message));
    return problems;
  }
  auto rows = conn->Query("SELECT status FROM (" + *read +
                          ") WHERE load_id = " + duck::QuoteLiteral(load_id));
  if (!rows) {
    problems.push_back(ns + "._dlt_load_status cannot be read: " + rows.error().message);
  } else if (rows->row_count() != 1) {
    problems.push_back(ns + "._dlt_load_status holds " + std::to_string(rows->row_count()) +
                       " rows for this run's load " + load_id + " (expected 1)");
  } else if (rows->GetInt64(0, 0).value_or(-1) != 0) {
    problems.push_back(ns + "._dlt_load_status: load " + load_id + " has a non-zero status");
  }
  return problems;
}

}  // namespace databox::refresh
