#include "load/load_database.h"

namespace databox::load {

Result<std::unique_ptr<LoadDatabase>> LoadDatabase::Open(const Workspace& workspace) {
  std::unique_ptr<LoadDatabase> opened(new LoadDatabase());
  DATABOX_ASSIGN_OR_RETURN(auto db, duck::Database::Open(""));
  opened->db_.emplace(std::move(db));
  DATABOX_ASSIGN_OR_RETURN(auto conn, duck::Connection::Open(*opened->db_));
  opened->conn_.emplace(std::move(conn));
  DATABOX_RETURN_IF_ERROR(workspace.PrepareDuckDbReads(*opened->conn_));
  DATABOX_ASSIGN_OR_RETURN(auto tables, NormalizedTables::Make(&*opened->conn_));
  opened->tables_.emplace(std::move(tables));
  return opened;
}

}  // namespace databox::load
