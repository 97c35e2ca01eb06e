// Online copies of the embedded catalog's SQLite database through SQLite's backup API
// (sqlite3_backup_init / _step / _finish). A backup reads every page of the live database in one
// step, under one read transaction: with the database in WAL mode (sqlite_db.h) other processes
// keep committing meanwhile, and the copy is the database exactly as of one commit, never half of
// one. A restore copies a backup over a database the same way, in one write transaction: other
// connections see the old content or the restored one.
#pragma once

#include <string>

#include "common/error.h"

namespace databox::catalog::sql {

//! Copies the database at `source_path` into the new file `dest_path` (which must not exist; its
//! folder must). The copy is a self-contained database file (rollback journal, no -wal file
//! needed). kNotFound when `source_path` does not exist; kIo naming the file otherwise. Waits up
//! to `busy_timeout_ms` for a writer that holds the database locked.
Status BackupSqliteDatabase(const std::string& source_path, const std::string& dest_path,
                            int busy_timeout_ms);

//! Replaces the whole content of the database at `target_path` (created if absent) with the
//! backup at `backup_path`. The caller decides whether the target may be overwritten.
Status RestoreSqliteDatabase(const std::string& backup_path, const std::string& target_path,
                             int busy_timeout_ms);

}  // namespace databox::catalog::sql
