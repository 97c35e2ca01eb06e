#include "refresh/analytics.h"

#include <unistd.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <system_error>

#include "duck/quote.h"
#include "fileio/durable.h"
#include "fileio/leftovers.h"
#include "iceberg/data/scan_sql.h"
#include "load/declared_resource.h"
#include "refresh/platform_health.h"
#include "refresh/raw_catalog.h"

namespace databox::refresh {
namespace {

//! DuckDB type of a registry (dlt) column type; text for anything unknown.
std::string DuckTypeOfHint(const std::string& dlt_type) {
  static const std::map<std::string, std::string> kTypes = {
      {"text", "VARCHAR"}, {"bigint", "BIGINT"},          {"double", "DOUBLE"},
      {"bool", "BOOLEAN"}, {"timestamp", "TIMESTAMPTZ"},  {"date", "DATE"},
      {"time", "TIME"},    {"decimal", "DECIMAL(38, 9)"}, {"binary", "BLOB"},
      {"json", "VARCHAR"},
  };
  auto it = kTypes.find(dlt_type);
  return it == kTypes.end() ? "VARCHAR" : it->second;
}

//! A declared child table holds a list of text values, as the normalizer writes it: `value`,
//! the root key when its resource merges, then the parent key, the list position and the row id.
std::vector<PlaceholderColumn> ChildPlaceholderColumns(const registry::Source& source,
                                                       const std::string& table) {
  std::vector<PlaceholderColumn> columns = {{"value", "VARCHAR"}};
  for (const registry::Resource& resource : source.resources) {
    if (resource.write_disposition == registry::WriteDisposition::kMerge &&
        std::ranges::find(resource.child_tables, table) != resource.child_tables.end()) {
      columns.emplace_back("_dlt_root_id", "VARCHAR");
    }
  }
  columns.insert(
      columns.end(),
      {{"_dlt_parent_id", "VARCHAR"}, {"_dlt_list_idx", "BIGINT"}, {"_dlt_id", "VARCHAR"}});
  return columns;
}

//! The SELECT behind the view of the catalog's table `ns`.`table`, at its current state.
Result<std::string> TableViewSql(load::Workspace& workspace, const std::string& ns,
                                 const std::string& table) {
  iceberg::TableIdentifier id{{ns}, table};
  auto loaded = iceberg::Table::Load(workspace.catalog(), workspace.file_io(), id);
  if (!loaded) return std::unexpected(loaded.error());
  if (!AttachesRawCatalog(workspace.registry())) return iceberg::ReadSql(*loaded);
  // Through the attached catalog: the snapshot current when the view is read.
  std::string columns;
  for (const auto& field : loaded->schema().fields()) {
    columns += (columns.empty() ? "" : ", ") + duck::QuoteIdentifier(field.name);
  }
  // The attached catalog lists the server's names (e.g. dbx_dlt_loads for _dlt_loads).
  DATABOX_ASSIGN_OR_RETURN(std::string on_server,
                           workspace.catalog().table_names().ToServer(table));
  return "SELECT " + columns + " FROM " +
         duck::QuoteIdentifier(RawCatalogName(workspace.registry())) + "." +
         duck::QuoteIdentifier(ns) + "." + duck::QuoteIdentifier(on_server);
}

//! The SELECT behind the view of `table` in `source`'s namespace: the catalog's table, else a
//! placeholder with the declared columns.
Result<std::string> ViewSql(load::Workspace& workspace, const registry::Source& source,
                            const std::string& table) {
  DATABOX_ASSIGN_OR_RETURN(bool exists, workspace.catalog().TableExists(
                                            iceberg::TableIdentifier{{source.Namespace()}, table}));
  if (!exists) return PlaceholderSql(PlaceholderColumns(source, table));
  return TableViewSql(workspace, source.Namespace(), table);
}

//! The catalog's raw_* namespaces that are no registry source's (e.g. made by `databox
//! ingest`), sorted.
Result<std::vector<std::string>> OtherRawNamespaces(load::Workspace& workspace) {
  DATABOX_ASSIGN_OR_RETURN(auto listed, workspace.catalog().ListNamespaces(iceberg::Namespace{}));
  std::set<std::string> sources;
  for (const auto& source : workspace.registry().sources) sources.insert(source.Namespace());
  std::vector<std::string> out;
  for (const auto& ns : listed) {
    if (ns.size() == 1 && ns.front().starts_with(registry::kRawNamespacePrefix) &&
        !sources.contains(ns.front())) {
      out.push_back(ns.front());
    }
  }
  std::ranges::sort(out);
  return out;
}

//! What the raw views need in `conn`: the attached REST catalog, else the warehouse's S3 secret.
Status PrepareRawReads(load::Workspace& workspace, duck::Connection& conn) {
  if (AttachesRawCatalog(workspace.registry())) return AttachRawCatalog(workspace, conn);
  return workspace.PrepareDuckDbReads(conn);
}

//! How the file's raw views read: kReadsThroughCatalog or kReadsFiles.
std::string RawReadsOf(const registry::Registry& registry) {
  return AttachesRawCatalog(registry) ? kReadsThroughCatalog : kReadsFiles;
}

//! Declared tables, then the catalog's other tables in the namespace (sorted).
Result<std::vector<std::string>> TablesOf(load::Workspace& workspace,
                                          const registry::Source& source) {
  std::vector<std::string> tables = DeclaredTables(source);
  const iceberg::Namespace ns{source.Namespace()};
  DATABOX_ASSIGN_OR_RETURN(bool ns_exists, workspace.catalog().NamespaceExists(ns));
  if (!ns_exists) return tables;
  DATABOX_ASSIGN_OR_RETURN(auto listed, workspace.catalog().ListTables(ns));
  for (const auto& id : listed) {
    if (std::ranges::find(tables, id.name) == tables.end()) tables.push_back(id.name);
  }
  return tables;
}

Status WithContext(Status status, const std::string& what) {
  if (status) return status;
  return MakeError(status.error().kind, what + ": " + status.error().message);
}

std::filesystem::path WithSuffix(const std::filesystem::path& path, const std::string& suffix) {
  return std::filesystem::path(path.string() + suffix);
}

//! Creates the schema `databox` with its views (platform_health.h); returns how many.
Result<int64_t> CreatePlatformViews(duck::Connection& conn, const registry::Registry& registry,
                                    const std::vector<RoutineLoadStatus>& routine) {
  const std::string schema = duck::QuoteIdentifier(kPlatformSchema);
  const std::vector<std::pair<std::string, std::string>> views = {
      {kSourcesView, SourcesViewSql(registry)},
      {kPlatformLoadsView, PlatformLoadsViewSql(routine)},
      {kRawReadsView, "SELECT " + duck::QuoteLiteral(RawReadsOf(registry)) + " AS reads"},
  };
  DATABOX_RETURN_IF_ERROR(conn.Execute("CREATE SCHEMA " + schema));
  for (const auto& [name, sql] : views) {
    DATABOX_RETURN_IF_ERROR(WithContext(
        conn.Execute("CREATE VIEW " + schema + "." + duck::QuoteIdentifier(name) + " AS " + sql),
        std::string("platform view ") + kPlatformSchema + "." + name));
  }
  return static_cast<int64_t>(views.size());
}

//! Writes every view into the fresh database at `path`; returns how many it wrote. The data
//! is checkpointed into the file itself (a failed checkpoint, e.g. a full disk, is an error,
//! not a WAL left beside a file without views).
Result<int64_t> BuildViewsFile(load::Workspace& workspace, const std::filesystem::path& path) {
  DATABOX_ASSIGN_OR_RETURN(auto db, duck::Database::Open(path.string(), {.threads = 1}));
  DATABOX_ASSIGN_OR_RETURN(auto conn, duck::Connection::Open(db));
  // CREATE VIEW binds read_parquet, which opens the (s3://) files, or the attached catalog's
  // tables.
  DATABOX_RETURN_IF_ERROR(PrepareRawReads(workspace, conn));
  DATABOX_RETURN_IF_ERROR(conn.Execute("BEGIN TRANSACTION"));
  int64_t views = 0;
  std::vector<RoutineLoadStatus> routine;
  for (const auto& source : workspace.registry().sources) {
    const std::string schema = duck::QuoteIdentifier(source.Namespace());
    DATABOX_RETURN_IF_ERROR(conn.Execute("CREATE SCHEMA " + schema));
    DATABOX_ASSIGN_OR_RETURN(auto tables, TablesOf(workspace, source));
    for (const auto& table : tables) {
      const std::string where = "raw view " + source.Namespace() + "." + table;
      auto sql = ViewSql(workspace, source, table);
      if (!sql) return std::unexpected(WithContext(std::unexpected(sql.error()), where).error());
      DATABOX_RETURN_IF_ERROR(
          WithContext(conn.Execute("CREATE VIEW " + schema + "." + duck::QuoteIdentifier(table) +
                                   " AS " + *sql),
                      where));
      ++views;
      if (table == kLoadStatusTable && source.eligibility == registry::Eligibility::kRoutine) {
        routine.push_back({.source = source.name, .load_status_sql = *sql});
      }
    }
  }
  // Tables no source declares (`databox ingest` into raw_<name>): views of what they hold.
  DATABOX_ASSIGN_OR_RETURN(auto others, OtherRawNamespaces(workspace));
  for (const std::string& ns : others) {
    DATABOX_ASSIGN_OR_RETURN(auto tables, workspace.catalog().ListTables(iceberg::Namespace{ns}));
    if (tables.empty()) continue;
    const std::string schema = duck::QuoteIdentifier(ns);
    DATABOX_RETURN_IF_ERROR(conn.Execute("CREATE SCHEMA " + schema));
    for (const auto& id : tables) {
      const std::string where = "raw view " + ns + "." + id.name;
      auto sql = TableViewSql(workspace, ns, id.name);
      if (!sql) return std::unexpected(WithContext(std::unexpected(sql.error()), where).error());
      DATABOX_RETURN_IF_ERROR(
          WithContext(conn.Execute("CREATE VIEW " + schema + "." + duck::QuoteIdentifier(id.name) +
                                   " AS " + *sql),
                      where));
      ++views;
    }
  }
  DATABOX_ASSIGN_OR_RETURN(int64_t platform,
                           CreatePlatformViews(conn, workspace.registry(), routine));
  views += platform;
  DATABOX_RETURN_IF_ERROR(conn.Execute("COMMIT"));
  DATABOX_RETURN_IF_ERROR(conn.Execute("CHECKPOINT"));
  return views;
}

//! kIo unless the closed views file at `path` holds `views` views on its own (no WAL beside it):
//! an atomic publish must not replace a good file with an incomplete one.
Status VerifyViewsFile(const std::filesystem::path& path, int64_t views) {
  const std::string incomplete = "the new raw views file " + path.string() + " is incomplete";
  std::error_code ec;
  if (std::filesystem::exists(WithSuffix(path, ".wal"), ec) &&
      std::filesystem::file_size(WithSuffix(path, ".wal"), ec) > 0) {
    return MakeError(ErrorKind::kIo,
                     incomplete + " (part of it stayed in its WAL; is the disk full?)");
  }
  DATABOX_ASSIGN_OR_RETURN(auto db,
                           duck::Database::Open(path.string(), {.threads = 1, .read_only = true}));
  DATABOX_ASSIGN_OR_RETURN(auto conn, duck::Connection::Open(db));
  DATABOX_ASSIGN_OR_RETURN(auto counted,
                           conn.Query("SELECT count(*) FROM duckdb_views() WHERE NOT internal"));
  DATABOX_ASSIGN_OR_RETURN(int64_t found, counted.GetInt64(0, 0));
  if (found != views) {
    return MakeError(ErrorKind::kIo, incomplete + " (" + std::to_string(found) + " of " +
                                         std::to_string(views) + " views; is the disk full?)");
  }
  return Ok();
}

void RemoveQuietly(const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::remove(path, ec);
}

}  // namespace

std::filesystem::path RawViewsPath(const registry::Registry& registry) {
  return registry.project.state_dir / (registry.project.analytics.catalog_alias + ".duckdb");
}

std::vector<std::string> DeclaredTables(const registry::Source& source) {
  std::vector<std::string> tables = source.Tables();
  tables.push_back(kLoadStatusTable);
  tables.push_back(kLoadsTable);
  return tables;
}

std::string PlaceholderSql(const std::vector<PlaceholderColumn>& columns,
                           const std::function<std::string(const std::string&)>& type_name) {
  std::string select;
  for (const auto& [name, type] : columns) {
    select += (select.empty() ? "" : ", ") + std::string("CAST(NULL AS ") +
              (type_name ? type_name(type) : type) + ") AS " + duck::QuoteIdentifier(name);
  }
  return "SELECT " + select + " LIMIT 0";
}

std::vector<PlaceholderColumn> PlaceholderColumns(const registry::Source& source,
                                                  const std::string& table) {
  if (table == kLoadStatusTable) {
    return {{"load_id", "VARCHAR"},
            {"schema_name", "VARCHAR"},
            {"status", "BIGINT"},
            {"inserted_at", "TIMESTAMP"},
            {"rows_loaded", "BIGINT"}};
  }
  if (table == kLoadsTable) {
    return {{"load_id", "VARCHAR"},
            {"schema_name", "VARCHAR"},
            {"status", "BIGINT"},
            {"inserted_at", "TIMESTAMPTZ"},
            {"schema_version_hash", "VARCHAR"}};
  }
  const std::optional<registry::Resource> resource = load::DeclaredResource(source, table);
  if (!resource) return ChildPlaceholderColumns(source, table);
  std::vector<PlaceholderColumn> columns;
  std::set<std::string> seen;
  auto add = [&](const std::string& name) {
    if (!seen.insert(name).second) return;
    auto hint = resource->columns.find(name);
    columns.emplace_back(
        name, hint == resource->columns.end() ? "VARCHAR" : DuckTypeOfHint(hint->second.type));
  };
  for (const auto& name : resource->column_order) add(name);
  for (const auto& key : resource->primary_key) add(key);
  for (const auto& [name, hint] : resource->columns) add(name);
  add("_dlt_load_id");
  add("_dlt_id");
  return columns;
}

Status RefreshRawViews(load::Workspace& workspace) {
  const std::filesystem::path target = RawViewsPath(workspace.registry());
  const std::string temp_prefix = target.filename().string() + ".tmp-";
  const std::filesystem::path temp =
      target.parent_path() / (temp_prefix + std::to_string(::getpid()));
  // The temporary files of a rebuild killed before its rename (another process's, once it is
  // gone; a live one is still building its own).
  fileio::RemoveLeftoversOfDeadProcesses(target.parent_path(), temp_prefix);
  RemoveQuietly(temp);
  RemoveQuietly(WithSuffix(temp, ".wal"));
  // Both close the database before the rename.
  auto views = BuildViewsFile(workspace, temp);
  Status built = views ? VerifyViewsFile(temp, *views) : Status(std::unexpected(views.error()));
  if (!built) {
    RemoveQuietly(temp);
    RemoveQuietly(WithSuffix(temp, ".wal"));
    return WithContext(built, "cannot rebuild the raw views file " + target.string());
  }
  // A WAL left by a crashed writer of the old file would be replayed onto the new one.
  RemoveQuietly(WithSuffix(target, ".wal"));
  if (Status published = fileio::RenameDurably(temp, target); !published) {
    RemoveQuietly(temp);
    return WithContext(published, "cannot publish the raw views file " + target.string());
  }
  RemoveQuietly(WithSuffix(temp, ".wal"));  // an empty WAL the verification did not need
  return Ok();
}

bool RawViewsAreCurrent(const registry::Registry& registry) {
  const std::filesystem::path path = RawViewsPath(registry);
  if (!std::filesystem::exists(path)) return false;
  auto db = duck::Database::Open(path.string(), {.threads = 1, .read_only = true});
  if (!db) return false;
  auto conn = duck::Connection::Open(*db);
  if (!conn) return false;
  auto built_for = conn->Query(std::string("SELECT source, routine FROM ") + kPlatformSchema + "." +
                               kSourcesView + " ORDER BY source");
  if (!built_for) return false;  // a file from before the platform views
  auto reads =
      conn->Query(std::string("SELECT reads FROM ") + kPlatformSchema + "." + kRawReadsView);
  if (!reads || reads->row_count() != 1) return false;  // a file from before the REST attach
  if (auto mode = reads->GetString(0, 0); !mode || *mode != RawReadsOf(registry)) return false;
  std::vector<std::pair<std::string, bool>> expected;
  for (const auto& source : registry.sources) {
    expected.emplace_back(source.name, source.eligibility == registry::Eligibility::kRoutine);
  }
  std::ranges::sort(expected);
  if (built_for->row_count() != expected.size()) return false;
  for (uint64_t row = 0; row < expected.size(); ++row) {
    auto name = built_for->GetString(0, row);
    auto routine = built_for->GetBool(1, row);
    if (!name || !routine || *name != expected[row].first || *routine != expected[row].second) {
      return false;
    }
  }
  return true;
}

Status EnsureRawViews(load::Workspace& workspace) {
  if (RawViewsAreCurrent(workspace.registry())) return Ok();
  return RefreshRawViews(workspace);
}

Result<Analytics> OpenAnalytics(load::Workspace& workspace) {
  const registry::Registry& registry = workspace.registry();
  const std::filesystem::path views = RawViewsPath(registry);
  DATABOX_RETURN_IF_ERROR(EnsureRawViews(workspace));
  const std::filesystem::path database = registry.project.analytics.database;
  if (database.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(database.parent_path(), ec);
  }
  auto db = duck::Database::Open(database.string());
  if (!db) {
    return MakeError(db.error().kind, "cannot open the analytics database " + database.string() +
                                          " (is a transform running?): " + db.error().message);
  }
  DATABOX_ASSIGN_OR_RETURN(auto conn, duck::Connection::Open(*db));
  DATABOX_RETURN_IF_ERROR(PrepareRawReads(workspace, conn));
  DATABOX_RETURN_IF_ERROR(
      WithContext(conn.Execute("ATTACH " + duck::QuoteLiteral(views.string()) + " AS " +
                               duck::QuoteIdentifier(registry.project.analytics.catalog_alias) +
                               " (READ_ONLY)"),
                  "cannot attach the raw views file " + views.string()));
  return Analytics{std::move(*db), std::move(conn)};
}

}  // namespace databox::refresh
