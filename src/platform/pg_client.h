// PostgreSQL's own client programs (pg_dump, pg_restore, psql from Debian's postgresql-client) run
// against one database: the URL carries no password (the registry refuses one); the password,
// when configured, reaches the program only through PGPASSWORD in its environment, never its
// command line, output or a file. Failures become messages naming the URL and the likely cause
// (connection refused, authentication failed, server version mismatch, the program missing).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "common/error.h"

namespace databox::platform {

//! The Debian package that has pg_dump, pg_restore and psql.
inline constexpr const char* kPostgresClientPackage = "postgresql-client";

struct PgDatabase {
  std::string url;       //!< postgresql://user@host:port/db, without a password
  std::string password;  //!< empty = none configured (libpq's own defaults then apply)
};

class PgClient {
 public:
  //! `work_dir` (existing, private) takes each program's output log.
  PgClient(PgDatabase database, std::filesystem::path work_dir);

  //! Runs `program` (pg_dump, pg_restore, psql) with `args` and --dbname=<url> when `connect`;
  //! Ok with its output when it exits 0, else the classified failure of `action` ("backing up").
  Result<std::string> Run(const std::string& program, std::vector<std::string> args,
                          const std::string& action, bool connect = true) const;

  //! The tables (schema.name) the database holds outside the system schemas, sorted.
  Result<std::vector<std::string>> UserTables() const;

  const std::string& url() const { return database_.url; }

 private:
  PgDatabase database_;
  std::filesystem::path work_dir_;
};

//! The error for a client program that exited `exit_code` with `output` (its stderr and
//! stdout) while `action` ran against `url`: names the URL and the cause, hides `password`.
Error ClassifyPgFailure(const std::string& program, const std::string& action,
                        const std::string& url, const std::string& password, int exit_code,
                        const std::string& output);

//! The tables (schema.name) a custom-format archive creates, from `pg_restore --list` output.
std::vector<std::string> ArchiveTables(const std::string& listing);

}  // namespace databox::platform
