// Shared pieces of the reliability suite: a workspace holding a copy of the example registry
// (plus a test-only source `faulty` served from cassettes the test writes), the catalog view
// used to prove that nothing was committed, and the fault tally printed at the end.
#pragma once

#include <sqlite3.h>
#include <sys/types.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/binary_test_support.h"

namespace databox::reliability {

namespace fs = std::filesystem;
using cli::testing::RunResult;

//! One recorded HTTP interaction of a cassette.
struct Interaction {
  std::string uri;   //!< request URL (credential params are ignored by replay)
  std::string body;  //!< raw response bytes, written as !!binary
  int status = 200;  //!< HTTP status code
  std::string content_type = "application/json";
  std::string content_encoding;  //!< "gzip" makes replay inflate the body
};

//! A plain JSON response to GET `uri`.
Interaction Respond(std::string uri, std::string body, int status = 200);

//! The request URL of page `page` of the faulty source's `items` resource.
std::string FaultyItemsUri(int page);

//! Base64 (RFC 4648, with padding) of `bytes`.
std::string Base64(const std::string& bytes);

//! Reads a file of tests/data/ (binary-safe).
std::string ReadTestData(const std::string& relative);

//! Every table of `ns` in the SQLite catalog -> its current metadata location.
std::map<std::string, std::string> CatalogTables(const fs::path& catalog_db, const std::string& ns);

//! What check_tables.py (pyiceberg, an independent reader) sees in namespace `ns` of
//! `state_dir`: {"tables": {name: {"snapshot", "rows", "duplicate_keys", "keys"?}}}; `columns`
//! are "table=col1,col2" specs. On failure: an error text (the reader's stderr).
struct ReaderView {
  nlohmann::json tables;  //!< name -> entry; null when the reader failed
  std::string error;      //!< non-empty when the reader failed
};
ReaderView ReadWithPyiceberg(const fs::path& state_dir, const std::string& ns,
                             const std::vector<std::string>& columns = {});

//! A long-lived `check_tables.py --serve` (pyiceberg): starting Python costs seconds on a busy
//! machine, so tests that read tables after every run ask one process. Request and answer
//! formats: the script's docstring.
class PyicebergServer {
 public:
  PyicebergServer();
  ~PyicebergServer();
  PyicebergServer(const PyicebergServer&) = delete;
  PyicebergServer& operator=(const PyicebergServer&) = delete;

  //! One request; {"error": text} when the reader failed or the process is gone.
  nlohmann::json Ask(const nlohmann::json& request);

 private:
  pid_t pid_ = -1;
  int to_ = -1;           //!< the script's stdin
  FILE* from_ = nullptr;  //!< the script's stdout
  fs::path err_;          //!< the script's stderr, quoted when it dies
};

//! Regular files below `root` (symlinks not followed) whose bytes contain `needle`, skipping
//! paths in `except`.
std::vector<fs::path> FilesContaining(const fs::path& root, const std::string& needle,
                                      const std::vector<fs::path>& except = {});

//! A private folder with a copy of the example registry pointing at its own recordings.
class Workspace {
 public:
  //! `name` becomes part of the folder name; the folder is removed by the destructor.
  explicit Workspace(const std::string& name);
  ~Workspace();
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  //! Writes databox.toml: the example registry (replay -> this workspace's recordings,
  //! project retries 0) followed by `extra_toml`.
  void WriteRegistry(const std::string& extra_toml = "");
  //! Adds `line` (e.g. "keep_load_packages = 2") to the registry's [project] table.
  void AddProjectSetting(const std::string& line);
  //! Links the shared recordings of `source` into this workspace's recordings.
  void UseSharedRecordings(const std::string& source);
  //! Replaces the cassettes of `source` by one cassette holding `interactions`.
  void WriteCassette(const std::string& source, const std::vector<Interaction>& interactions);
  //! Runs `databox --config <registry> args...` with `env` added to the environment.
  RunResult Databox(const std::vector<std::string>& args,
                    const std::vector<std::string>& env = {}) const;
  //! Tables of `ns` with their metadata locations (empty before the first commit).
  std::map<std::string, std::string> Tables(const std::string& ns) const;
  //! Rows of `databox query SQL --json`, one JSON text per row; nullopt if the query failed.
  std::optional<std::vector<std::string>> QueryRows(const std::string& sql) const;

  const fs::path& dir() const { return dir_; }
  fs::path state_dir() const { return dir_ / ".databox"; }

 private:
  fs::path dir_;
};

//! Starts `databox --config <registry> args...` in `ws` without waiting; stdout and stderr go
//! to the file `out`. The caller waits for (or kills) the returned process.
pid_t StartDatabox(const Workspace& ws, const std::vector<std::string>& args, const fs::path& out);

//! Registry text of the test-only source `faulty`: `leading_resources` first, then one
//! paginated JSON resource `items` (page_number, 2 per page, merge on `id`,
//! merge_duplicates = "reject", optional `transform`), then `extra_resources`; query-param auth
//! from ${FAULTY_API_KEY}, 2 retries with millisecond backoff.
std::string FaultySourceToml(const std::string& transform = "",
                             const std::string& extra_resources = "",
                             const std::string& leading_resources = "");

//! The environment entry that gives `faulty` its key.
inline constexpr char kFaultyKeyEnv[] = "FAULTY_API_KEY=k";

//! Counts faults per category and prints the summary table when the test program ends.
struct Tally {
  std::string category;
  int faults = 0;      //!< faults injected
  int runs = 0;        //!< databox runs made
  int violations = 0;  //!< broken invariants (each also fails a test)
};
//! The process-wide tally of `category` (created on first use).
Tally& TallyFor(const std::string& category);

}  // namespace databox::reliability
