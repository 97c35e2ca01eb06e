#include "catalog/sql/sqlite_backup.h"

#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <thread>

namespace databox::catalog::sql {
namespace {

constexpr std::chrono::milliseconds kBusyPause{20};

//! Closes a connection (also one whose open failed).
struct CloseConnection {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
using Connection = std::unique_ptr<sqlite3, CloseConnection>;

Result<Connection> OpenFile(const std::string& path, int flags, int busy_timeout_ms) {
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  Connection db(raw);
  if (rc != SQLITE_OK) {
    const std::string detail = raw != nullptr ? sqlite3_errmsg(raw) : sqlite3_errstr(rc);
    return MakeError(ErrorKind::kIo, "cannot open SQLite database '" + path + "': " + detail);
  }
  sqlite3_busy_timeout(db.get(), busy_timeout_ms);
  return db;
}

Status Exec(sqlite3* db, const std::string& sql, const std::string& path) {
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
    return MakeError(ErrorKind::kIo, "'" + sql + "' on SQLite database '" + path +
                                         "' failed: " + sqlite3_errmsg(db));
  }
  return Ok();
}

//! Copies every page of `from` into `to` in one step (one read transaction on `from`, one write
//! transaction on `to`), retrying while a writer holds either locked.
Status CopyPages(sqlite3* from, sqlite3* to, const std::string& from_path,
                 const std::string& to_path, int busy_timeout_ms) {
  sqlite3_backup* backup = sqlite3_backup_init(to, "main", from, "main");
  if (backup == nullptr) {
    return MakeError(ErrorKind::kIo, "cannot start copying SQLite database '" + from_path +
                                         "' to '" + to_path + "': " + sqlite3_errmsg(to));
  }
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_timeout_ms);
  int rc = SQLITE_OK;
  while (true) {
    rc = sqlite3_backup_step(backup, -1);
    const bool busy = rc == SQLITE_BUSY || rc == SQLITE_LOCKED;
    if (!busy || std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(kBusyPause);
  }
  const int finished = sqlite3_backup_finish(backup);
  if (rc != SQLITE_DONE || finished != SQLITE_OK) {
    const int code = rc != SQLITE_DONE ? rc : finished;
    std::string message = "copying SQLite database '" + from_path + "' to '" + to_path +
                          "' failed: " + sqlite3_errstr(code);
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED) {
      message += "; another process held the database locked too long, retry";
    }
    return MakeError(ErrorKind::kIo, message);
  }
  return Ok();
}

}  // namespace

Status BackupSqliteDatabase(const std::string& source_path, const std::string& dest_path,
                            int busy_timeout_ms) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(source_path, ec)) {
    return MakeError(ErrorKind::kNotFound,
                     "there is no catalog database at '" + source_path + "' to back up");
  }
  if (std::filesystem::exists(dest_path, ec)) {
    return MakeError(ErrorKind::kAlreadyExists,
                     "backup file '" + dest_path + "' exists already; choose another folder");
  }
  DATABOX_ASSIGN_OR_RETURN(Connection source,
                           OpenFile(source_path, SQLITE_OPEN_READONLY, busy_timeout_ms));
  DATABOX_ASSIGN_OR_RETURN(
      Connection dest,
      OpenFile(dest_path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, busy_timeout_ms));
  DATABOX_RETURN_IF_ERROR(
      CopyPages(source.get(), dest.get(), source_path, dest_path, busy_timeout_ms));
  // The live database is in WAL mode and the copy took its header: one file is easier to keep.
  return Exec(dest.get(), "PRAGMA journal_mode=DELETE", dest_path);
}

Status RestoreSqliteDatabase(const std::string& backup_path, const std::string& target_path,
                             int busy_timeout_ms) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(backup_path, ec)) {
    return MakeError(ErrorKind::kNotFound, "there is no backup database at '" + backup_path + "'");
  }
  DATABOX_ASSIGN_OR_RETURN(Connection backup,
                           OpenFile(backup_path, SQLITE_OPEN_READONLY, busy_timeout_ms));
  DATABOX_ASSIGN_OR_RETURN(
      Connection target,
      OpenFile(target_path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, busy_timeout_ms));
  DATABOX_RETURN_IF_ERROR(
      CopyPages(backup.get(), target.get(), backup_path, target_path, busy_timeout_ms));
  // The catalog runs in WAL mode (sqlite_db.cc); the backup's header said otherwise.
  return Exec(target.get(), "PRAGMA journal_mode=WAL", target_path);
}

}  // namespace databox::catalog::sql
