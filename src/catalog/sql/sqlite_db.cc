#include "catalog/sql/sqlite_db.h"

#include <sqlite3.h>
#include <sys/statvfs.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <thread>
#include <utility>

namespace databox::catalog::sql {

Result<std::unique_ptr<SqliteDb>> SqliteDb::Open(const std::string& path, int busy_timeout_ms) {
  sqlite3* raw = nullptr;
  int rc =
      sqlite3_open_v2(path.c_str(), &raw,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string detail = raw != nullptr ? sqlite3_errmsg(raw) : sqlite3_errstr(rc);
    sqlite3_close(raw);
    return MakeError(ErrorKind::kIo, "could not open catalog database '" + path + "': " + detail +
                                         "; check that its folder exists and is writable");
  }
  std::unique_ptr<SqliteDb> db(new SqliteDb(raw, path));
  sqlite3_busy_timeout(raw, busy_timeout_ms);
  sqlite3_extended_result_codes(raw, 1);
  // WAL lets readers proceed while one writer commits. synchronous=NORMAL syncs the WAL at
  // checkpoints instead of at every commit (one fsync less per commit): a commit survives a
  // crash of any process, and the database stays consistent after a power loss or OS crash,
  // but the most recent commits can then be rolled back. Such a rollback loses a table version
  // whole (its files become orphans for `databox maintain`), never half of one, and a source's
  // tables and load status, committed in one transaction, roll back together.
  // Switching a new database to WAL takes its exclusive lock, and SQLite answers SQLITE_BUSY
  // at once (without the busy handler) while another process is opening the same new database;
  // the switch is retried until the busy timeout has passed.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_timeout_ms);
  while (true) {
    Status set = db->Exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;");
    if (set) break;
    const int primary = sqlite3_errcode(raw) & 0xff;
    if ((primary != SQLITE_BUSY && primary != SQLITE_LOCKED) ||
        std::chrono::steady_clock::now() >= deadline) {
      return std::unexpected(set.error());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return db;
}

SqliteDb::~SqliteDb() { sqlite3_close_v2(db_); }

namespace {

//! "12 KB free" on the file system holding `path`, or "" when statvfs fails.
std::string FreeSpace(const std::string& path) {
  struct statvfs stats {};
  const std::string folder = std::filesystem::path(path).parent_path().string();
  if (::statvfs(folder.empty() ? "." : folder.c_str(), &stats) != 0) return "";
  const auto free_bytes = static_cast<unsigned long long>(stats.f_bavail) * stats.f_frsize;
  return std::to_string(free_bytes >> 10) + " KB free";
}

}  // namespace

Error SqliteDb::ErrorFor(int rc, std::string_view what) const {
  int primary = rc & 0xff;
  if (primary == SQLITE_FULL || (primary == SQLITE_IOERR && sqlite3_system_errno(db_) == ENOSPC)) {
    // The statement (often the whole catalog DDL) says nothing useful here.
    const std::string free = FreeSpace(path_);
    const std::string folder = std::filesystem::path(path_).parent_path().string();
    return Error{ErrorKind::kIo, "the disk is full: the catalog database '" + path_ +
                                     "' could not be written (" +
                                     (free.empty() ? "" : "only " + free + " ") + "in " + folder +
                                     ", and the write needs more): free space there and retry"};
  }
  std::string message =
      std::string(what) + " on catalog database '" + path_ + "' failed: " + sqlite3_errmsg(db_);
  switch (primary) {
    case SQLITE_CONSTRAINT:
      return Error{ErrorKind::kAlreadyExists, message};
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Error{ErrorKind::kIo, message + "; another process held the lock too long, retry"};
    default:
      return Error{ErrorKind::kIo, message};
  }
}

Status SqliteDb::Exec(std::string_view sql) {
  std::string text(sql);
  int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) return std::unexpected(ErrorFor(rc, "'" + text + "'"));
  return Ok();
}

Result<SqliteStatement> SqliteDb::Prepare(std::string_view sql,
                                          std::initializer_list<SqlValue> params) {
  sqlite3_stmt* raw = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &raw, nullptr);
  if (rc != SQLITE_OK) return std::unexpected(ErrorFor(rc, "preparing '" + std::string(sql) + "'"));
  SqliteStatement stmt(this, raw);
  int index = 1;
  for (const SqlValue& value : params) {
    if (std::holds_alternative<int64_t>(value)) {
      rc = sqlite3_bind_int64(raw, index, std::get<int64_t>(value));
    } else if (std::holds_alternative<std::string_view>(value)) {
      std::string_view text = std::get<std::string_view>(value);
      rc = sqlite3_bind_text64(raw, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    } else {
      rc = sqlite3_bind_null(raw, index);
    }
    if (rc != SQLITE_OK) return std::unexpected(ErrorFor(rc, "binding a parameter"));
    ++index;
  }
  return stmt;
}

Result<int64_t> SqliteDb::Run(std::string_view sql, std::initializer_list<SqlValue> params) {
  DATABOX_ASSIGN_OR_RETURN(SqliteStatement stmt, Prepare(sql, params));
  while (true) {
    DATABOX_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
  }
  return sqlite3_changes64(db_);
}

Result<bool> SqliteDb::HasColumn(std::string_view table, std::string_view column) {
  DATABOX_ASSIGN_OR_RETURN(SqliteStatement stmt,
                           Prepare("SELECT name FROM pragma_table_info(?1)", {table}));
  while (true) {
    DATABOX_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) return false;
    if (stmt.Text(0) == column) return true;
  }
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : db_(other.db_), stmt_(std::exchange(other.stmt_, nullptr)) {}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(stmt_); }

Result<bool> SqliteStatement::Step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return std::unexpected(db_->ErrorFor(rc, std::string("running '") + sqlite3_sql(stmt_) + "'"));
}

std::optional<std::string> SqliteStatement::Text(int i) const {
  const unsigned char* text = sqlite3_column_text(stmt_, i);
  if (text == nullptr) return std::nullopt;
  return std::string(reinterpret_cast<const char*>(text),
                     static_cast<size_t>(sqlite3_column_bytes(stmt_, i)));
}

}  // namespace databox::catalog::sql
