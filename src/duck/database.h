// An open DuckDB database (file or in-memory), configured for Databox.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "duckdb.h"

namespace databox::duck {

//! The project's extension directory (.deps/duckdb/extensions, filled by scripts/setup); defined
//! in a source CMake generates for the build folder (src/duck/CMakeLists.txt).
std::string DefaultExtensionDirectory();

//! How to open a database. Extension auto-install and auto-load are always off, whatever is set
//! here: extensions come only from `extension_directory`, loaded explicitly (extensions.h).
struct DatabaseOptions {
  //! Where LOAD looks for <version>/<platform>/<name>.duckdb_extension.
  std::string extension_directory = DefaultExtensionDirectory();
  //! Worker threads; DuckDB's default (all cores) when unset.
  std::optional<int> threads{};
  //! e.g. "2GB"; DuckDB's default (80% of RAM) when unset.
  std::optional<std::string> memory_limit{};
  //! Spill directory for larger-than-memory work; DuckDB's default when unset.
  std::optional<std::string> temp_directory{};
  //! Open the file read-only (several processes may then share it).
  bool read_only = false;
  //! Further DuckDB settings, applied in order with SET GLOBAL after opening (so settings of
  //! built-in extensions such as ICU's TimeZone work), e.g. {"TimeZone", "UTC"}.
  std::vector<std::pair<std::string, std::string>> settings{};
};

//! An open database. Move-only; closing happens in the destructor. Connections keep the
//! underlying instance alive, but by contract they should not outlive their Database.
class Database {
 public:
  //! Opens `path`, or an in-memory database when `path` is empty. Errors carry DuckDB's message.
  static Result<Database> Open(const std::string& path, const DatabaseOptions& options = {});

  Database(Database&&) noexcept = default;
  Database& operator=(Database&&) noexcept = default;
  ~Database() = default;

  //! The raw handle, for the duck module's own wrappers.
  duckdb_database handle() const { return db_.get(); }
  //! The options the database was opened with.
  const DatabaseOptions& options() const { return options_; }
  //! The path given to Open ("" for in-memory).
  const std::string& path() const { return path_; }

 private:
  struct Closer {
    void operator()(duckdb_database db) const { duckdb_close(&db); }
  };
  //! Runs SET GLOBAL for each of options_.settings.
  Status ApplySettings();
  Database(duckdb_database db, std::string path, DatabaseOptions options)
      : db_(db), path_(std::move(path)), options_(std::move(options)) {}

  std::unique_ptr<_duckdb_database, Closer> db_;  //!< never null in a live object
  std::string path_;                              //!< "" for in-memory
  DatabaseOptions options_;                       //!< as given to Open
};

}  // namespace databox::duck
