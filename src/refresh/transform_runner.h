// Runs the native transformation step (SQLMesh by default) after every source succeeded.
//
// The default command (the registry's default `sqlmesh -p <project> plan --auto-apply
// --no-prompts`) becomes two steps:
//   1. sqlmesh -p <project> plan prod --auto-apply --no-prompts
//        applies model changes and creates prod on the first run;
//   2. the same with --restate-model "*", only when prod existed before this run:
//        FULL models over raw views keep their fingerprint when only the raw data changed, so
//        step 1 alone would report "no changes"; restating recomputes them from the new data.
// A custom `command` in the registry runs as given, once.
//
// Every step runs with stdin from /dev/null, stdout and stderr appended to one log file in a
// per-run folder (also the working directory, so SQLMesh's own logs/ land there), PATH starting
// with the project venv's bin/, a per-run SQLMesh cache (SQLMESH__CACHE_DIR, removed after the
// run), the DATABOX_* variables the example project's config.yaml reads, and a timeout after
// which the step's process group gets SIGTERM and, after a grace period, SIGKILL. The same
// happens at once when SIGINT or SIGTERM reaches databox (common/interrupt.h: InterruptSignal):
// the step is stopped, no further step starts, and the result is interrupted.
//
// After a successful run the raw tables' columns the transform ran on are saved for
// `databox transform --plan` (raw_columns.h). PreviewTransform runs `sqlmesh -p <project> diff
// prod` the same way, over a copy of SQLMesh's state: it lists the models that differ from prod
// (exit 0: none; exit 1 after "Summary of differences": some) and cannot change the state.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "common/error.h"
#include "load/workspace.h"
#include "refresh/model_results.h"
#include "registry/model.h"

namespace databox::refresh {

struct TransformOptions {
  //! Virtualenv whose bin/ goes first on PATH; empty = $DATABOX_VENV_DIR, else
  //! <config dir>/.venv when it exists, else PATH unchanged.
  std::filesystem::path venv_dir;
  //! Per-run folder (log, cache, SQLMesh logs); empty = <state>/transform_runs/<UTC time>-<pid>.
  std::filesystem::path run_dir;
  //! Wall-clock limit for the whole run (all steps).
  std::chrono::milliseconds timeout = std::chrono::hours(2);
  //! Time between SIGTERM and SIGKILL when the limit is hit.
  std::chrono::milliseconds kill_grace = std::chrono::seconds(10);
  //! Bytes of the log kept in TransformResult::log_tail.
  size_t log_tail_bytes = 8192;
};

//! One process run.
struct TransformStep {
  std::vector<std::string> argv;
  int exit_code = -1;  //!< the process's exit status; 128 + signal when killed by a signal
  bool timed_out = false;
  bool interrupted = false;  //!< stopped because SIGINT or SIGTERM reached databox
};

struct TransformResult {
  bool ok = false;                   //!< every step ran and exited 0
  std::vector<TransformStep> steps;  //!< in order; stops at the first failure
  std::string log_tail;              //!< end of the log, secrets redacted
  std::filesystem::path log_path;    //!< the full log (not redacted: keep it private)
  std::chrono::milliseconds duration{0};
  bool interrupted = false;  //!< SIGINT or SIGTERM stopped a step or kept the next from starting
  //! Why the raw columns were not saved after a successful run (empty when they were).
  std::string raw_columns_problem;
  //! Each model's result (model_results.h): SQLMesh's output merged, on DuckDB, with its state
  //! and the models' row counts; empty when a custom command ran or nothing was found.
  std::vector<ModelResult> models;

  //! Exit code of the last step run (-1 when none ran).
  int exit_code() const { return steps.empty() ? -1 : steps.back().exit_code; }
  bool timed_out() const { return !steps.empty() && steps.back().timed_out; }
};

//! <state>/sqlmesh_state.duckdb: SQLMesh's state database (DATABOX_SQLMESH_STATE_DB).
std::filesystem::path SqlMeshStatePath(const registry::Registry& registry);

//! True when the registry's command is the registry default (see the file comment).
bool IsDefaultTransformCommand(const registry::Registry& registry);

//! The argv of every step; `prod_exists` adds the restate step to the default command.
std::vector<std::vector<std::string>> TransformCommands(const registry::Registry& registry,
                                                        bool prod_exists);

//! True when SQLMesh's state database records a prod environment (false when it is missing).
Result<bool> SqlMeshProdExists(const std::filesystem::path& state_db);

//! The variables set for the transform (besides PATH and the inherited environment):
//! DATABOX_ANALYTICS_DB, DATABOX_ANALYTICS_CATALOG (the database file's stem: the catalog name
//! DuckDB gives it), DATABOX_RAW_VIEWS_DB, DATABOX_CATALOG_ALIAS, DATABOX_SQLMESH_STATE_DB,
//! DATABOX_DUCKDB_EXTENSION_DIRECTORY (the project's DuckDB extension folder, for DuckDB's
//! extension_directory setting: httpfs is autoloaded from it), SQLMESH__CACHE_DIR
//! (<run_dir>/sqlmesh_cache), PYTHONUNBUFFERED, COLUMNS=240 (SQLMesh's lines do not wrap, so
//! ParseSqlMeshOutput reads them whole). For an s3:// warehouse also DATABOX_WAREHOUSE_S3=1
//! and the fields of a DuckDB S3 secret: DATABOX_S3_ENDPOINT, DATABOX_S3_USE_SSL,
//! DATABOX_S3_URL_STYLE, DATABOX_S3_REGION, DATABOX_S3_KEY_ID, DATABOX_S3_SECRET,
//! DATABOX_S3_SESSION_TOKEN (the raw views read the warehouse's Parquet files through httpfs).
//! For a REST catalog also the DATABOX_RAW_CATALOG* variables of RawCatalogEnvironment: SQLMesh
//! attaches the catalog the raw views read through (raw_catalog.h).
Result<std::map<std::string, std::string>> TransformEnvironment(
    const load::Workspace& workspace, const std::filesystem::path& run_dir);

//! Builds the raw views file unless it is current (EnsureRawViews), then runs the steps; after
//! they all succeeded saves the raw columns they ran on (raw_columns.h; a failure to save is
//! TransformResult::raw_columns_problem, not a failed run). With the default command the
//! models' results are read from the log, and on DuckDB from the state and the analytics
//! database (TransformResult::models; what cannot be read is left out, never a failed run). Nothing
//! is written into the transform project. A failing, timed-out or interrupted step is a
//! TransformResult with ok = false; an error means the run could not start (run folder, log file,
//! program not found).
Result<TransformResult> RunTransform(load::Workspace& workspace,
                                     const TransformOptions& options = {});

//! The step of PreviewTransform: `sqlmesh -p <project_dir> diff prod`.
std::vector<std::string> PreviewCommand(const registry::Registry& registry);

//! Runs PreviewCommand as RunTransform runs a step (raw views, environment, log, timeout,
//! interruption; the run folder defaults to <state>/transform_runs/<UTC time>-<pid>-plan), with
//! DATABOX_SQLMESH_STATE_DB pointing at a copy of the state in the run folder (removed after).
//! Saves nothing. Only meaningful with the default command (IsDefaultTransformCommand). Note
//! that `sqlmesh diff` exits 1 both when models differ and on an error (see PreviewFoundChanges).
Result<TransformResult> PreviewTransform(load::Workspace& workspace,
                                         const TransformOptions& options = {});

//! Whether a preview's exit 1 and `output` (its log) mean "models differ" rather than an
//! error: SQLMesh printed its summary of differences and no "Error:" line nor a traceback.
bool PreviewFoundChanges(int exit_code, const std::string& output);

}  // namespace databox::refresh
