// The analytics DuckDB: raw Iceberg tables made visible as <alias>.raw_<source>.<table> to
// `databox query` and to SQLMesh, without DuckDB extensions. See docs/analytics.md.
//
// With a REST catalog, a view reads the table through the natively attached catalog instead
// (raw_catalog.h): SELECT <current schema columns> FROM <alias>_iceberg.raw_<source>.<table>,
// the catalog's current snapshot when the view is read; the readers attach the catalog first.
// With the embedded SQLite catalog (which DuckDB cannot attach):
// the raw views file <state_dir>/<alias>.duckdb holds one schema raw_<source> per registry
// source and one VIEW per table, pinned to the table's current snapshot:
//   SELECT <current schema columns, in order> FROM read_parquet([<live data files>],
//                                                              union_by_name = true)
// Columns missing from older files read as NULL (iceberg::FilesReadSql). A table without data
// files is a typed empty SELECT of its schema. A table the registry declares but the catalog
// does not hold yet (an explicit-only source never loaded) is a typed empty placeholder with
// the columns the registry knows (see PlaceholderColumns), so models over it still compile.
//
// Schema `databox` holds the platform views built from the registry (platform_health.h):
// databox.sources and databox.platform_loads, read by the model analytics.platform_health.
//
// The file is rebuilt whole into a temporary file beside it and renamed over the old one, so
// readers see the previous or the new set of views, never a mix. Readers that opened the old
// file keep reading it until they reopen.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "duck/connection.h"
#include "duck/database.h"
#include "load/workspace.h"
#include "registry/model.h"

namespace databox::refresh {

//! Name of the load status table every source publishes in raw_<source>.
inline constexpr const char* kLoadStatusTable = "_dlt_load_status";
//! Name of the loads table every source publishes in raw_<source>.
inline constexpr const char* kLoadsTable = "_dlt_loads";

//! The view databox.raw_reads (reads VARCHAR, one row) says how the file's raw views read:
//! kReadsFiles (read_parquet, pinned at the rebuild) or kReadsThroughCatalog (the attached REST
//! catalog, raw_catalog.h). A file built for the other kind is not current.
inline constexpr const char* kRawReadsView = "raw_reads";
inline constexpr const char* kReadsFiles = "files";
inline constexpr const char* kReadsThroughCatalog = "catalog";

//! <state_dir>/<catalog_alias>.duckdb: the raw views file.
std::filesystem::path RawViewsPath(const registry::Registry& registry);

//! A column of a placeholder view: name and DuckDB type.
using PlaceholderColumn = std::pair<std::string, std::string>;

//! Columns of the empty view for a declared table the catalog does not hold yet, typed as a
//! load types them: the load tables' fixed schemas; for a resource table the columns of
//! load::DeclaredResource (its source kind's own columns in their order, the primary key, the
//! hinted columns; registry types mapped to DuckDB, timestamp = TIMESTAMPTZ, text when
//! unhinted) then _dlt_load_id and _dlt_id; for a child table value (text), _dlt_root_id when
//! its resource merges, _dlt_parent_id, _dlt_list_idx and _dlt_id.
std::vector<PlaceholderColumn> PlaceholderColumns(const registry::Source& source,
                                                  const std::string& table);

//! The typed empty SELECT of `columns` (CAST(NULL AS <type>) AS <name>, ..., LIMIT 0); each
//! DuckDB type is written as `type_name` gives it (as is when unset; Trino: TrinoTypeOf).
std::string PlaceholderSql(const std::vector<PlaceholderColumn>& columns,
                           const std::function<std::string(const std::string&)>& type_name = {});

//! The tables the registry declares for `source`: its resources' tables (and child tables),
//! then _dlt_load_status and _dlt_loads.
std::vector<std::string> DeclaredTables(const registry::Source& source);

//! Rebuilds the raw views file from the catalog's current state: every registry source's
//! namespace, each declared table and each table the catalog lists there. Atomic (see the file
//! comment). Call after every commit that should become visible.
Status RefreshRawViews(load::Workspace& workspace);

//! True when the raw views file exists and was built for the registry's current source set
//! (the names and eligibility its databox.sources view lists; see platform_health.h). False
//! when it is missing, unreadable, from before the platform views, or built for other sources.
bool RawViewsAreCurrent(const registry::Registry& registry);

//! Rebuilds the raw views file unless RawViewsAreCurrent: a source added, removed or made
//! routine or explicit in the registry shows in the views (databox.platform_loads included)
//! before the next commit rebuilds them.
Status EnsureRawViews(load::Workspace& workspace);

//! The analytics database opened for reading and ad-hoc queries.
struct Analytics {
  duck::Database database;
  duck::Connection connection;
};

//! Opens the analytics database (registry analytics.database, default <state>/databox.duckdb;
//! created if missing), attaches a REST catalog natively (raw_catalog.h) or gives DuckDB the
//! warehouse's S3 secret, and ATTACHes the raw views file READ_ONLY under the catalog alias,
//! building the views file first when it is not current (EnsureRawViews).
Result<Analytics> OpenAnalytics(load::Workspace& workspace);

}  // namespace databox::refresh
