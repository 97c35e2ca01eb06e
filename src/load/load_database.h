// The DuckDB database of one load (a source load, `databox ingest`): in memory, with one
// connection that reads the warehouse (merges and child-table deletes read the tables' current
// files) and the load's merge tables staged in it (NormalizedTables). The streamed data files of
// append and replace tables are written by connections of their own to the same database
// (streamed_files.h).
#pragma once

#include <memory>
#include <optional>

#include "common/error.h"
#include "duck/connection.h"
#include "duck/database.h"
#include "load/normalized_tables.h"
#include "load/workspace.h"

namespace databox::load {

class LoadDatabase {
 public:
  static Result<std::unique_ptr<LoadDatabase>> Open(const Workspace& workspace);

  duck::Connection& conn() { return *conn_; }
  //! For more connections (a thread each), e.g. streamed data files (streamed_files.h).
  duck::Database& database() { return *db_; }
  NormalizedTables& tables() { return *tables_; }

 private:
  LoadDatabase() = default;

  std::optional<duck::Database> db_;
  std::optional<duck::Connection> conn_;    //!< of db_
  std::optional<NormalizedTables> tables_;  //!< staged through conn_
};

}  // namespace databox::load
